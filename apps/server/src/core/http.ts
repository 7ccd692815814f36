import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { hasPermission } from '@app/shared/resource';
import { AppError, maskSecrets, unauthorized, forbidden } from './errors.ts';
import { verifyToken } from './auth/tokens.ts';
import { loadCurrentUser } from './auth/currentUser.ts';
import type { RouteAuth } from './context.ts';
import { nowIso } from './db.ts';
import { requestDeptScope } from './rbac.ts';

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
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((m) => m === 'HEAD' || m === 'OPTIONS')) return;
    if (!isApiUrl(route.url)) return;
    const auth = (route.config as { auth?: RouteAuth } | undefined)?.auth;
    if (!auth) throw new Error(`route ${methods.join(',')} ${route.url} declares no config.auth`);
    for (const m of methods) if (m !== 'HEAD') app.routeTable.push({ method: m, url: route.url, auth });
  });

  app.addHook('onRequest', async (req: FastifyRequest) => {
    const auth = req.routeOptions.config?.auth;
    if (!auth || auth === 'public') {
      // Public routes still learn who is calling when a valid token comes along (logout, logs).
      if (req.headers.authorization) await authenticate(app, req).catch(() => undefined);
      return;
    }
    await authenticate(app, req);
    if (auth !== 'user' && !hasPermission(req.user!.permissions, auth)) throw forbidden();
    // The caller's data scope is worked out before any handler opens a write transaction: hooks read it
    // inside transactions, and on SQLite (one connection) a first lookup there would wait for ever.
    // No query unless the user holds a 自定义 role.
    await requestDeptScope(req, app.ctx.db);
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

  // Before the answer leaves (so the caller's next request already sees it): any successful write may have
  // changed users, roles or permissions, so cached users are dropped.
  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const m = req.method;
    if (m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS' && reply.statusCode < 400 && req.routeOptions.config?.auth) await invalidateAuthCache(app);
    return payload;
  });

  app.addHook('onResponse', async (req: FastifyRequest, reply: FastifyReply) => {
    const cfg = req.routeOptions.config;
    if (!cfg?.auth) return;
    const mutating = req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS';
    if (!mutating && !cfg.log) return;
    if (cfg.log === '') return; // explicitly not logged (e.g. captcha)
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
          description: cfg.log ?? `${req.method} ${req.routeOptions.url}`,
          method: `${req.method} ${req.routeOptions.url}`,
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
  });
}

function isPlainBody(body: unknown): boolean {
  return body !== null && typeof body === 'object' && !Buffer.isBuffer(body);
}

/**
 * Loaded users are kept in process memory and reused while the "authorization epoch" in the shared cache
 * is unchanged. Every successful mutating request moves the epoch (see the onResponse hook), so a disabled
 * user, a changed password or new role codes take effect on the very next request, on every instance.
 */
const AUTHZ_EPOCH_KEY = 'authz:epoch';
type LoadedUser = NonNullable<Awaited<ReturnType<typeof loadCurrentUser>>>;
const userCaches = new WeakMap<FastifyInstance, { epoch: string; users: Map<number, LoadedUser> }>();

/** Forget cached users everywhere (after writes that bypass the HTTP API, e.g. scripts and tests). */
export async function invalidateAuthCache(app: FastifyInstance): Promise<void> {
  await app.ctx.cache.set(AUTHZ_EPOCH_KEY, `${Date.now()}-${Math.random()}`);
}

async function cachedUser(app: FastifyInstance, uid: number): Promise<LoadedUser | null> {
  const epoch = (await app.ctx.cache.get(AUTHZ_EPOCH_KEY)) ?? '0';
  let entry = userCaches.get(app);
  if (!entry || entry.epoch !== epoch) {
    entry = { epoch, users: new Map() };
    userCaches.set(app, entry);
  }
  const hit = entry.users.get(uid);
  if (hit) return hit;
  const user = await loadCurrentUser(app.ctx.db, uid);
  if (user && entry.users.size < 10_000) entry.users.set(uid, user);
  return user;
}

async function authenticate(app: FastifyInstance, req: FastifyRequest): Promise<void> {
  const header = req.headers.authorization;
  if (!header || !header.startsWith('Bearer ')) throw unauthorized('未登录或登录状态已过期');
  const claims = verifyToken(app.ctx.keys.tokenSecret, header.slice(7).trim());
  if (!claims) throw unauthorized();
  if (await app.ctx.cache.get(`revoked:${claims.jti}`)) throw unauthorized();
  const user = await cachedUser(app, claims.uid);
  if (!user || user.tokenVersion !== claims.tv) throw unauthorized();
  if (!user.enabled) throw unauthorized('账号已停用，请联系管理员');
  const { tokenVersion: _tv, ...rest } = user;
  req.user = { ...rest, tokenJti: claims.jti, tokenExp: claims.exp };
}
