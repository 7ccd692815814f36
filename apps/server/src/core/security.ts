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

/**
 * The headers of a document (a page, the SPA's assets, the Swagger UI, a downloaded file): all of helmet's, with the
 * CSP that fits the built SPA.
 */
const DOCUMENT_HEADERS = securityHeaders(HELMET_OPTIONS);

/**
 * The headers of a JSON answer, as OWASP's REST Security Cheat Sheet gives them for API responses: a JSON answer is
 * never a page, so the policy forbids everything (nothing loads, nothing runs, no page may frame it, no other site
 * may read it as a resource) and nosniff stops a browser from taking it for HTML or script. The document-only headers
 * (opener and agent-cluster isolation, DNS prefetch, download and cross-domain policies, the legacy XSS filter, HSTS,
 * which a browser takes from the page) are left out: the whole set was 672 bytes on every answer, writing which was
 * ~6 % of an /auth/info request (issue 27), and stricter for JSON than the page's own policy.
 */
const API_HEADERS: [name: string, value: string][] = [
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
  ['cross-origin-resource-policy', 'same-origin'],
  ['referrer-policy', 'no-referrer'],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
];

const isJsonAnswer = (contentType: unknown): boolean => typeof contentType === 'string' && contentType.startsWith('application/json');

const SECURITY_HEADER_NAMES = new Set([...DOCUMENT_HEADERS, ...API_HEADERS].map(([name]) => name));
/** Each set as the lines of an HTTP head, validated once (setHeader would check them on every answer). */
const headLines = (headers: [string, string][]) =>
  headers
    .map(([name, value]) => {
      validateHeaderName(name);
      validateHeaderValue(name, value);
      return `${name}: ${value}\r\n`;
    })
    .join('');
/** A set of security headers, and the same as head lines. */
interface SecuritySet {
  headers: readonly (readonly [name: string, value: string])[];
  lines: string;
}
const DOCUMENT_SET: SecuritySet = { headers: DOCUMENT_HEADERS, lines: headLines(DOCUMENT_HEADERS) };
const API_SET: SecuritySet = { headers: API_HEADERS, lines: headLines(API_HEADERS) };

/** The security headers an answer of this content type gets: the API set for JSON, the document set otherwise. */
const securitySetFor = (contentType: unknown): SecuritySet => (isJsonAnswer(contentType) ? API_SET : DOCUMENT_SET);

/**
 * What `_storeHeader` is handed, read once: the content type and the names of the security headers an answer sets
 * itself (lower case), in any of the shapes Node hands over (an object of values, Node's own map of [name, value]
 * pairs, a flat or paired array). Runs for every answer: plain loops, no closure (a closure made per call also costs
 * a `__name` call in the bundle, which keeps function names).
 */
function readHead(headers: unknown): { contentType: unknown; own: Set<string> | null } {
  let own: Set<string> | null = null;
  let contentType: unknown;
  if (!headers || typeof headers !== 'object') return { contentType, own };
  if (Array.isArray(headers)) {
    const pairs = Array.isArray(headers[0]);
    for (let i = 0; i < headers.length; i += pairs ? 1 : 2) {
      const lower = String(pairs ? (headers[i] as unknown[])[0] : headers[i]).toLowerCase();
      if (lower === 'content-type') contentType = pairs ? (headers[i] as unknown[])[1] : headers[i + 1];
      else if (SECURITY_HEADER_NAMES.has(lower)) (own ??= new Set()).add(lower);
    }
    return { contentType, own };
  }
  for (const key in headers) {
    const lower = key.toLowerCase();
    if (lower === 'content-type') contentType = (headers as Record<string, unknown>)[key];
    else if (SECURITY_HEADER_NAMES.has(lower)) (own ??= new Set()).add(lower);
  }
  return { contentType, own };
}

/**
 * The server's response class (http.createServer's `ServerResponse` option): every answer's head starts with its
 * security headers as one string made at start-up, the API set for a JSON answer and the document set otherwise.
 * Setting them per request (12 `setHeader` calls, each validating name and value, then written out again) cost
 * ~9 µs, a fifth of an /auth/info request (issue 27). A header the answer sets itself (a stricter CSP on uploaded
 * files and avatars) wins: that security header is then left out of the block, as `setHeader` would have replaced it.
 */
export class SecuredServerResponse extends ServerResponse {
  _storeHeader(firstLine: string, headers: unknown): void {
    const head = readHead(headers);
    // headers set with setHeader arrive as Node's own map of [name, value] pairs, which getHeader reads
    const set = securitySetFor(this.getHeader('content-type') ?? head.contentType);
    const lines = head.own
      ? set.headers
          .filter(([name]) => !head.own!.has(name))
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('')
      : set.lines;
    (ServerResponse.prototype as unknown as { _storeHeader(f: string, h: unknown): void })._storeHeader.call(this, firstLine + lines, headers);
  }
}

type WriteHead = ServerResponse['writeHead'];

/**
 * For an answer that is not a SecuredServerResponse (inject): its writeHead first sets the security headers that the
 * answer has not set itself, chosen by the content type it is written with, as SecuredServerResponse would.
 */
function securedWriteHead(raw: ServerResponse): void {
  const writeHead = raw.writeHead as WriteHead;
  raw.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    // writeHead(status, headers) or writeHead(status, statusMessage, headers)
    const given = readHead(typeof rest[0] === 'string' ? rest[1] : rest[0]);
    for (const [name, value] of securitySetFor(this.getHeader('content-type') ?? given.contentType).headers) {
      if (!given.own?.has(name) && !this.hasHeader(name)) this.setHeader(name, value);
    }
    return (writeHead as (...args: unknown[]) => ServerResponse).call(this, statusCode, ...rest);
  } as WriteHead;
}

/**
 * Security headers and rate limits, done by the libraries that do them:
 *
 * - helmet's headers on every document (pages, assets, files; JSON answers get the stricter API set, see
 *   API_HEADERS). The Content-Security-Policy fits the built SPA:
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
  // otherwise (light-my-request's inject in tests and scripts) get the same ones from their own writeHead, set up
  // here before anything else runs (so a refused request or a 404 has them too). An onRequest hook, not onSend:
  // this one runs beside the route guards in a runner every request has anyway, where an onSend hook would add a
  // runner to each GET (issue 27).
  app.addHook('onRequest', function securityHeadersWhenInjected(_req, reply, done) {
    const raw = reply.raw;
    if (!(raw instanceof SecuredServerResponse)) securedWriteHead(raw);
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
