import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServerResponse, validateHeaderName, validateHeaderValue } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { AppConfig } from '../config.ts';
import type { ErrorCode } from '@app/shared/errors/catalogue';
import { AppError } from './errors.ts';
import { cacheNamespace } from './cacheNamespaces.ts';

/** The rate-limit plugin's counters (Redis only; in memory they live in the plugin): never reset in bulk. */
const RATE_LIMIT_COUNTERS = cacheNamespace('rl', 'protected', '接口限流计数');

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      scriptSrc: ["'self'"],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'self'"],
    },
  },
  frameguard: { action: 'sameorigin' },
  referrerPolicy: { policy: 'same-origin' },
};

/**
 * The headers helmet sets with these options, worked out once at start-up: they depend on the options only (no
 * CSP nonces, no directive computed from the request), so every answer gets the same ones. Registering
 * @fastify/helmet instead costs two hooks on every request even with `global: false` (one async, making a
 * `reply.helmet` closure per request): ~6 % of an /auth/info request (issue 27).
 */
export function securityHeaders(options: HelmetOptions): [name: string, value: string][] {
  const made = new Map<string, string>();
  const collector = {
    setHeader: (name: string, value: string) => made.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => made.delete(name.toLowerCase()),
    getHeader: (name: string) => made.get(name.toLowerCase()),
  };
  let failure: unknown;
  let finished = false;
  // helmet's middleware runs synchronously with static options; anything else would be a surprise worth failing on
  // helmet's middleware never reads the request (static options); an empty object stands for an IncomingMessage
  helmet(options)({} as never, collector as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
    finished = true;
  });
  if (!finished || failure) throw new Error(`security headers could not be made: ${failure ?? 'helmet did not finish synchronously'}`);
  return [...made];
}

const SECURITY_HEADERS = securityHeaders(HELMET_OPTIONS);
const SECURITY_HEADER_NAMES = new Set(SECURITY_HEADERS.map(([name]) => name));
/** The security headers as the lines of an HTTP head, validated once (setHeader would check them on every answer). */
const SECURITY_HEAD_LINES = SECURITY_HEADERS.map(([name, value]) => {
  validateHeaderName(name);
  validateHeaderValue(name, value);
  return `${name}: ${value}\r\n`;
}).join('');

/**
 * The names of the headers an answer sets itself (lower case), in any of the shapes Node hands to `_storeHeader`.
 * Runs for every answer: plain loops, no closure (a closure made per call also costs a `__name` call in the
 * bundle, which keeps function names).
 */
function overridden(headers: unknown): Set<string> | null {
  if (!headers || typeof headers !== 'object') return null;
  let found: Set<string> | null = null;
  if (Array.isArray(headers)) {
    const pairs = Array.isArray(headers[0]);
    for (let i = 0; i < headers.length; i += pairs ? 1 : 2) {
      const lower = String(pairs ? (headers[i] as unknown[])[0] : headers[i]).toLowerCase();
      if (SECURITY_HEADER_NAMES.has(lower)) (found ??= new Set()).add(lower);
    }
    return found;
  }
  for (const key in headers) {
    const lower = key.toLowerCase();
    if (SECURITY_HEADER_NAMES.has(lower)) (found ??= new Set()).add(lower);
  }
  return found;
}

/**
 * The server's response class (http.createServer's `ServerResponse` option): every answer's head starts with the
 * security headers as one string made at start-up. Setting them per request (12 `setHeader` calls, each validating
 * name and value, then written out again) cost ~9 µs, a fifth of an /auth/info request (issue 27). A header the
 * answer sets itself (a stricter CSP on uploaded files and avatars) wins: that security header is then left out
 * of the block, as `setHeader` would have replaced it.
 */
export class SecuredServerResponse extends ServerResponse {
  _storeHeader(firstLine: string, headers: unknown): void {
    const own = overridden(headers);
    const lines = own ? SECURITY_HEADERS.filter(([name]) => !own.has(name)).map(([name, value]) => `${name}: ${value}\r\n`).join('') : SECURITY_HEAD_LINES;
    (ServerResponse.prototype as unknown as { _storeHeader(f: string, h: unknown): void })._storeHeader.call(this, firstLine + lines, headers);
  }
}

/**
 * Security headers and rate limits, done by the libraries that do them:
 *
 * - helmet's headers on every answer (pages, assets and API). The Content-Security-Policy fits the built SPA:
 *   scripts and styles from the app's own origin only (the entry is a module script, nothing inline), except
 *   inline <style> elements, which antd's icon and scroll-lock helpers insert at run time; images also from
 *   `data:` (the login captcha, icons inlined in antd.css) and `blob:` (previews of chosen files); no plugins,
 *   no foreign frames or form targets; the app may be framed by itself only. `upgrade-insecure-requests` is
 *   left out: the server is often reached over plain HTTP on a LAN address, where upgrading its own requests
 *   to HTTPS would break every asset.
 * - `@fastify/rate-limit` for the routes that declare `config.rateLimit` (see `perIpPerMinute`), counted in
 *   Redis when `REDIS_URL` is set (all instances share the count) and in process memory otherwise. An
 *   exceeded limit is a 429 with `Retry-After` and the route's own message.
 */
export async function registerSecurity(app: FastifyInstance, config: AppConfig): Promise<void> {
  // Served over HTTP, answers are SecuredServerResponse (app.ts) and carry the headers in their head. Answers made
  // otherwise (light-my-request's inject in tests and scripts) get them set here, before anything else runs, so even
  // a 404 or a refused request carries them.
  app.addHook('onRequest', (_req, reply, done) => {
    const raw = reply.raw;
    if (!(raw instanceof SecuredServerResponse)) for (const [name, value] of SECURITY_HEADERS) raw.setHeader(name, value);
    done();
  });

  let redis: import('ioredis').Redis | undefined;
  if (config.redisUrl) {
    const { Redis } = await import('ioredis');
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: true, connectTimeout: 5000 });
    await redis.connect();
    const client = redis;
    app.addHook('onClose', async () => {
      await client.quit();
    });
  }
  await app.register(rateLimit, {
    global: false,
    // the count lives under the application's cache prefix, so instances of one installation share it and
    // nothing else in a shared Redis is touched
    ...(redis ? { redis, nameSpace: `${config.cachePrefix}${RATE_LIMIT_COUNTERS.key()}` } : {}),
  });
}

/**
 * A route's `config.rateLimit`: at most `max` requests per client IP per minute, then 429 with `Retry-After`
 * and the catalogue message `code` (rendered in the request's language by the error handler).
 */
export function perIpPerMinute(max: number, code: ErrorCode): RateLimitOptions {
  return {
    max: Math.max(1, Math.floor(max)),
    timeWindow: 60_000,
    keyGenerator: (req: FastifyRequest) => req.ip,
    errorResponseBuilder: () => new AppError(code),
  };
}
