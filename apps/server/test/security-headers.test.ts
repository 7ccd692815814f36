import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptLoginPassword } from '../src/core/auth/keys.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/** Security headers (helmet) on pages and API, and the login rate limit (@fastify/rate-limit, Redis when configured). */
describe('security headers and rate limits', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-web-sec-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
    t = await createTestApp({ webDist: dist, loginRateLimitPerMinute: 3 });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('sends a CSP that fits the SPA, frame-ancestors self, nosniff and a referrer policy on pages and assets', async () => {
    for (const url of ['/', '/system/user', '/assets/index-abc.js']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp, url).toContain("frame-ancestors 'self'");
      expect(csp, url).toMatch(/img-src 'self' data: blob:/);
      expect(csp, url).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy'], url).toBe('same-origin');
    }
  });

  it('sends JSON answers (found, refused, missing) the API policy: nothing loads or runs, no frame, nosniff', async () => {
    for (const url of ['/auth/publicKey', '/api/users', '/api/nothing-here']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      // the page-only headers stay with the pages
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
      expect(res.headers['cross-origin-opener-policy'], url).toBeUndefined();
    }
  });

  it('limits login attempts per IP: 429 with Retry-After and the same message, other IPs unaffected', async () => {
    const pk = (await t.app.inject({ method: 'GET', url: '/auth/publicKey' })).json().publicKey;
    const attempt = (ip: string) =>
      t.app.inject({ method: 'POST', url: '/auth/login', remoteAddress: ip, payload: { username: 'nobody', password: encryptLoginPassword(pk, 'x') } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await attempt('10.0.0.7')).statusCode);
    expect(statuses).toEqual([400, 400, 400]);
    const limited = await attempt('10.0.0.7');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.json()).toMatchObject({ status: 429, code: 'LOGIN_RATE_LIMITED', message: '登录尝试过于频繁，请1分钟后再试' });
    expect(limited.json().stack).toBeUndefined();
    expect((await attempt('10.0.0.8')).statusCode).toBe(400);
  });
});
