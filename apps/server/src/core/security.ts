import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet from '@fastify/helmet';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { AppConfig } from '../config.ts';
import { AppError } from './errors.ts';
import { cacheNamespace } from './cacheNamespaces.ts';

/** The rate-limit plugin's counters (Redis only; in memory they live in the plugin): never reset in bulk. */
const RATE_LIMIT_COUNTERS = cacheNamespace('rl', 'protected', '接口限流计数');

/**
 * Security headers and rate limits, done by the libraries that do them:
 *
 * - `@fastify/helmet` on every answer (pages, assets and API). The Content-Security-Policy fits the built SPA:
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
  await app.register(helmet, {
    // not per request: see the onRequest hook below
    global: false,
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
  });
  // With `global: true` the plugin builds the helmet middleware anew for every request (~2.5 % of a users-list
  // request's CPU, bench/users-list.ts profile). The headers depend on the options above only (no CSP nonces),
  // so the first request has the plugin's own reply.helmet() set them and every answer gets the same ones.
  let securityHeaders: [name: string, value: number | string | string[]][] | undefined;
  app.addHook('onRequest', (_req, reply, done) => {
    const raw = reply.raw;
    if (securityHeaders) {
      for (const [name, value] of securityHeaders) raw.setHeader(name, value);
      return done();
    }
    const before = new Set(raw.getHeaderNames());
    reply.helmet();
    const made = raw.getHeaderNames().filter((name) => !before.has(name));
    // (no hook before this one sets any of helmet's headers, so all it sets are new here)
    if (made.length > 0) securityHeaders = made.map((name) => [name, raw.getHeader(name) as number | string | string[]]);
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
 * and `message` (a catalogue code's Chinese text; rendered in the request's language by the error handler).
 */
export function perIpPerMinute(max: number, message: string): RateLimitOptions {
  return {
    max: Math.max(1, Math.floor(max)),
    timeWindow: 60_000,
    keyGenerator: (req: FastifyRequest) => req.ip,
    errorResponseBuilder: () => new AppError(429, message, 'TOO_MANY_REQUESTS'),
  };
}
