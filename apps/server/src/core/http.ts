import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { hasPermission } from '@app/shared/resource';
import { AppError, maskSecrets, unauthorized, forbidden } from './errors.ts';
import { verifyToken } from './auth/tokens.ts';
import { loadCurrentUser } from './auth/currentUser.ts';
import type { RouteAuth } from './context.ts';
import { nowIso } from './db.ts';
import { computeDeptScope, primeRequestDeptScope, type DeptScope } from './rbac.ts';

/** One row of the route table: what the authorization matrix test walks through. */
export interface RouteEntry {
  method: string;
  url: string;
  auth: RouteAuth;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
  interface FastifyRequest {
    auditError?: { message: string; detail: string };
  }
}

const isApiUrl = (url: string) => !url.startsWith('/assets') && url !== '/*' && !url.startsWith('/avatar/');

/**
 * Security and error plumbing shared by every route:
 * - every API route must declare `config.auth` (start-up fails otherwise), so none is unguarded by accident;
 * - the bearer token is checked on each request against the user's current state (disabled users and
 *   changed passwords take effect at once, logged-out tokens are revoked);
 * - errors become `{status, message, timestamp}` and never leak stack traces;
 * - mutating calls and logins are written to the operation/error log with secrets masked.
 */
export function installHttpPlumbing(app: FastifyInstance): void {
  app.decorate('routeTable', [] as RouteEntry[]);
  // Declared up front so every request object has the same shape (set per request by the hooks below).
  app.decorateRequest('user', undefined);
  app.decorateRequest('auditError', undefined);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const cfg = route.config as { auth?: RouteAuth; log?: string } | undefined;
    // Every route (the HEAD twins Fastify adds for GET routes included) gets its guard and logging hooks here,
    // built from its own config once, instead of global hooks that look the config up on each request.
    attachRouteHooks(app, route, methods, cfg?.auth, cfg?.log);
    if (methods.every((m) => m === 'HEAD' || m === 'OPTIONS')) return;
    if (!isApiUrl(route.url)) return;
    const auth = cfg?.auth;
    if (!auth) throw new Error(`route ${methods.join(',')} ${route.url} declares no config.auth`);
    for (const m of methods) if (m !== 'HEAD') app.routeTable.push({ method: m, url: route.url, auth });
  });
  // The operation log: one global hook, added before any plugin's, so that the row is on its way to the
  // database as soon as the answer is out (a caller reading the log next finds it). Only requests whose
  // route logs have a writer; every other request passes straight through.
  app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const audit = auditOf.get(req);
    if (!audit) return done();
    audit(req, reply).then(done, done);
  });

  app.setErrorHandler((err: FastifyError | AppError, req: FastifyRequest, reply: FastifyReply) => {
    let status: number;
    let message: string;
    let body: Record<string, unknown> = {};
    if (err instanceof AppError) {
      status = err.status;
      message = err.message;
      if (err.code) body.code = err.code;
      if (err.fieldErrors) body.fieldErrors = err.fieldErrors;
    } else if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (err instanceof SyntaxError && (err as FastifyError).statusCode === 400)) {
      status = 400;
      message = '请求体不是合法的JSON';
    } else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
      status = 413;
      message = '请求体过大';
    } else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      status = 415;
      message = '不支持的请求类型';
    } else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      status = err.statusCode;
      message = err.statusCode === 429 ? '请求过于频繁，请稍后再试' : '请求参数错误';
    } else {
      status = 500;
      message = '服务器内部错误，请联系管理员';
      req.log.error({ err }, 'unhandled error');
    }
    req.auditError = { message, detail: status >= 500 ? String(err.stack ?? err) : `${status} ${err.message}` };
    body = { status, message, timestamp: nowIso(), ...body };
    reply.status(status).send(body);
  });
}

type Hook<T> = T | T[] | undefined;
const hookList = <T>(h: Hook<T>): T[] => (h === undefined ? [] : Array.isArray(h) ? h : [h]);
const isMutating = (m: string) => m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS';

/**
 * The per-route hooks, specialised on the route's rules when it is registered:
 * - onRequest: authenticate (always for guarded routes; on public routes only when a token comes along),
 *   check the permission codes and settle the caller's data scope;
 * - onSend (routes that write): move the authorization epoch after a successful write;
 * - onResponse (writes and routes with `config.log`): the operation/error log.
 * Read-only routes without `log` get no onSend/onResponse hook at all.
 */
function attachRouteHooks(app: FastifyInstance, route: RouteOptions, methods: string[], auth: RouteAuth | undefined, log: string | undefined): void {
  const writes = methods.some(isMutating);
  const audit = auth && log !== '' && (writes || log) ? auditLogger(app, route.url, log) : undefined;
  const guard =
    !auth || auth === 'public'
      ? async (req: FastifyRequest) => {
          if (audit) auditOf.set(req, audit);
          // Public routes still learn who is calling when a valid token comes along (logout, logs).
          if (req.headers.authorization) await authenticate(app, req).catch(() => undefined);
        }
      : async (req: FastifyRequest) => {
          if (audit) auditOf.set(req, audit);
          const entry = await authenticate(app, req);
          if (auth !== 'user' && !hasPermission(entry.base.permissions, auth)) throw forbidden();
          // The caller's data scope is settled before any handler opens a write transaction: hooks read it
          // inside transactions, and on SQLite (one connection) a first lookup there would wait for ever.
          // No query unless the user holds a 自定义 role, and then once per user and authorization epoch.
          entry.scope ??= computeDeptScope(app.ctx.db, entry.base).then(
            // shared by this user's requests: frozen, so no handler can change another request's scope
            (scope) => (scope === null ? null : (Object.freeze(scope) as number[])),
            (err: unknown) => {
              entry.scope = undefined;
              throw err;
            },
          );
          await primeRequestDeptScope(req, entry.scope);
        };
  route.onRequest = [guard as never, ...hookList(route.onRequest)];
  if (!auth || !writes) return;

  // Before the answer leaves (so the caller's next request already sees it): any successful write may have
  // changed users, roles, departments or permissions, so cached users and scopes are dropped.
  const invalidate = (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => {
    if (!isMutating(req.method) || reply.statusCode >= 400) return done(null, payload);
    invalidateAuthCache(app).then(() => done(null, payload), done);
  };
  route.onSend = [...hookList(route.onSend), invalidate as never];
}

/** The operation-log writer of the request's route, handed over by its onRequest hook (logged routes only). */
const auditOf = new WeakMap<FastifyRequest, (req: FastifyRequest, reply: FastifyReply) => Promise<void>>();

/** Writes the operation/error log row of a write, or of a read whose route has `config.log`. */
function auditLogger(app: FastifyInstance, routeUrl: string, log: string | undefined) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    if (isMutating(req.method) || log) await writeOperationLog(app, req, reply, routeUrl, log);
  };
}

async function writeOperationLog(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, routeUrl: string, log: string | undefined): Promise<void> {
  const failed = reply.statusCode >= 400;
  let username = req.user?.username ?? null;
  if (!username && req.url.startsWith('/auth/login')) {
    const b = req.body as { username?: unknown } | undefined;
    username = typeof b?.username === 'string' ? b.username.slice(0, 50) : null;
  }
  const params = JSON.stringify(maskSecrets({ ...(req.query as object), ...(isPlainBody(req.body) ? { body: req.body } : {}) }));
  try {
    await app.ctx.db
      .insertInto('sys_log')
      .values({
        log_type: failed ? 'ERROR' : 'INFO',
        username,
        description: log ?? `${req.method} ${routeUrl}`,
        method: `${req.method} ${routeUrl}`,
        params: params.length > 4000 ? `${params.slice(0, 4000)}…` : params,
        request_ip: req.ip,
        browser: String(req.headers['user-agent'] ?? '').slice(0, 255),
        time: Math.round(reply.elapsedTime),
        exception_detail: failed ? (req.auditError?.detail ?? `HTTP ${reply.statusCode}`) : null,
        create_time: nowIso(),
      })
      .execute();
  } catch (err) {
    req.log.error({ err }, 'failed to write the operation log');
  }
}

function isPlainBody(body: unknown): boolean {
  return body !== null && typeof body === 'object' && !Buffer.isBuffer(body);
}

/**
 * Loaded users are kept in process memory and reused while the "authorization epoch" in the shared cache
 * is unchanged. Every successful mutating request moves the epoch (see the onSend hook), so a disabled
 * user, a changed password, new role codes or a changed department tree take effect on the very next
 * request, on every instance. The epoch is read on every request, in the same cache round trip as the
 * token's revocation mark.
 */
const AUTHZ_EPOCH_KEY = 'authz:epoch';
type LoadedUser = NonNullable<Awaited<ReturnType<typeof loadCurrentUser>>>;

interface AuthEntry {
  tokenVersion: number;
  enabled: boolean;
  /** The request's user without the token fields; shared by this user's requests in one epoch, never mutated. */
  base: Omit<LoadedUser, 'tokenVersion'>;
  /** The user's data scope, worked out on first use in this epoch. */
  scope?: Promise<DeptScope>;
}

const MAX_CACHED_USERS = 10_000;
const authCaches = new WeakMap<FastifyInstance, { epoch: string; users: Map<number, AuthEntry | Promise<AuthEntry | null>> }>();

/** Forget cached users everywhere (after writes that bypass the HTTP API, e.g. scripts and tests). */
export async function invalidateAuthCache(app: FastifyInstance): Promise<void> {
  await app.ctx.cache.set(AUTHZ_EPOCH_KEY, `${Date.now()}-${Math.random()}`);
}

/** The cached entry of a user in this epoch (loading it once, even for concurrent requests); null when gone. */
function cachedAuth(app: FastifyInstance, uid: number, epoch: string): AuthEntry | Promise<AuthEntry | null> {
  let cache = authCaches.get(app);
  if (!cache || cache.epoch !== epoch) {
    cache = { epoch, users: new Map() };
    authCaches.set(app, cache);
  }
  const hit = cache.users.get(uid);
  if (hit) return hit;
  const users = cache.users;
  const loading: Promise<AuthEntry | null> = loadCurrentUser(app.ctx.db, uid).then(
    (user) => {
      const entry: AuthEntry | null = user ? { tokenVersion: user.tokenVersion, enabled: user.enabled, base: withoutTokenVersion(user) } : null;
      // A user that is gone is not remembered (nor is a failed load): the next request asks again.
      if (users.get(uid) === loading) {
        if (entry) users.set(uid, entry);
        else users.delete(uid);
      }
      return entry;
    },
    (err: unknown) => {
      if (users.get(uid) === loading) users.delete(uid);
      throw err;
    },
  );
  if (users.size < MAX_CACHED_USERS) users.set(uid, loading);
  return loading;
}

function withoutTokenVersion(user: LoadedUser): AuthEntry['base'] {
  const { tokenVersion: _tv, ...base } = user;
  return base;
}

async function authenticate(app: FastifyInstance, req: FastifyRequest): Promise<AuthEntry> {
  const header = req.headers.authorization;
  if (!header?.startsWith('Bearer ')) throw unauthorized('未登录或登录状态已过期');
  const claims = verifyToken(app.ctx.keys.tokenSecret, header.slice(7).trim());
  if (!claims) throw unauthorized();
  // One cache round trip: has this token been revoked (logout), and which authorization epoch is current.
  const [revoked, epoch] = await app.ctx.cache.getMany([`revoked:${claims.jti}`, AUTHZ_EPOCH_KEY]);
  if (revoked) throw unauthorized();
  const cached = cachedAuth(app, claims.uid, epoch ?? '0');
  const entry = cached instanceof Promise ? await cached : cached;
  if (!entry || entry.tokenVersion !== claims.tv) throw unauthorized();
  if (!entry.enabled) throw unauthorized('账号已停用，请联系管理员');
  req.user = { ...entry.base, tokenJti: claims.jti, tokenExp: claims.exp };
  return entry;
}
