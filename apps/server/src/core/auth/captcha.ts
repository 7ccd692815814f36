import crypto from 'node:crypto';
import type SvgCaptcha from 'svg-captcha';
import { onFirstUse } from '../onFirstUse.ts';
import type { Cache } from '../cache.ts';
import { cacheNamespace } from '../cacheNamespaces.ts';

export const CAPTCHA_TTL_SECONDS = 120;
const svgCaptcha = onFirstUse<typeof SvgCaptcha>('svg-captcha');
const CAPTCHAS = cacheNamespace('captcha', 'protected', '登录验证码（一次性）');

/** Create an arithmetic captcha; the answer is kept in the cache for 2 minutes, single use. */
export async function createCaptcha(cache: Cache): Promise<{ img: string; uuid: string }> {
  const c = svgCaptcha().createMathExpr({ mathMin: 1, mathMax: 9, mathOperator: '+', width: 111, height: 36, noise: 2, color: true, fontSize: 40 });
  const uuid = crypto.randomUUID().replace(/-/g, '');
  await cache.set(CAPTCHAS.key(uuid), c.text, CAPTCHA_TTL_SECONDS);
  return { img: `data:image/svg+xml;base64,${Buffer.from(c.data).toString('base64')}`, uuid };
}

/** Check an answer; the captcha is consumed whatever the outcome. Returns the error's catalogue code or null. */
export async function checkCaptcha(cache: Cache, uuid: unknown, code: unknown): Promise<'CAPTCHA_MISSING' | 'CAPTCHA_WRONG' | null> {
  if (typeof uuid !== 'string' || !uuid) return 'CAPTCHA_MISSING';
  const answer = await cache.take(CAPTCHAS.key(uuid));
  if (!answer) return 'CAPTCHA_MISSING';
  if (typeof code !== 'string' && typeof code !== 'number') return 'CAPTCHA_WRONG';
  return String(code).trim().toLowerCase() === answer.toLowerCase() ? null : 'CAPTCHA_WRONG';
}

/** Peek at the answer (test helper; never exposed over HTTP). */
export function captchaAnswer(cache: Cache, uuid: string): Promise<string | null> {
  return cache.get(CAPTCHAS.key(uuid));
}
