import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { hasPermission } from '@app/shared/resource';
import { AppError } from '../errors.ts';
import { REVOKED_TOKENS, type TokenClaims, verifyToken } from '../auth/tokens.ts';
import { type AuthKeys, loadOrCreateKeys } from '../auth/keys.ts';
import { cacheNamespace } from '../cacheNamespaces.ts';
import { hasCsrfProof, requestCookie, SESSION_COOKIE } from '../auth/sessionCookie.ts';
import { loadCurrentUser } from '../auth/currentUser.ts';
import type { CurrentUser, RouteAuth } from '../context.ts';
import { computeDeptScope, type DeptScope, primeRequestDeptScope } from '../rbac.ts';
import { sessionTouchDue, touchSession } from '../auth/onlineSessions.ts';

/** One row of the route table: what the authorization matrix test walks through. */
export interface RouteEntry {
  method: string;
  url: string;
  auth: RouteAuth;
  /** The route's declared schema (zod or JSON schema), if any: what the fuzz test generates input from. */
  schema?: RouteOptions['schema'];
  /** Its operation-log description (`config.log`): '' for a route that is not an operation (a read sent as POST). */
  log?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every API route with its access rule, in registration order. */
    routeTable: RouteEntry[];
    /** Token and cookie signing keys (core/auth/keys.ts). */
    authKeys: AuthKeys;
  }
  interface FastifyRequest {
    /** The authenticated caller; null on public routes called without a (valid) token. */
    user: CurrentUser | null;
    /** The caller's department scope (core/rbac.ts), worked out at most once per request. */
    deptScope: Promise<DeptScope> | null;
  }
}

export interface AuthPluginOptions {
  /** Keys to use (tests); otherwise read from (or created in) `dataDir`. */
  keys?: AuthKeys;
  dataDir: string;
}

const isApiUrl = (url: string) => !url.startsWith('/assets') && url !== '/*' && !url.startsWith('/avatar/');
const isMutating = (m: string) => m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS';
type Hook<T> = T | T[] | undefined;
const hookList = <T>(h: Hook<T>): T[] => (h === undefined ? [] : Array.isArray(h) ? h : [h]);
type HookDone = (err?: Error) => void;

/**
 * Loaded users are kept in process memory and reused while the "authorization epoch" in the shared cache
 * is unchanged. Every successful mutating request moves the epoch (see the onSend hook), so a disabled
 * user, a changed password, new role codes or a changed department tree take effect on the very next
 * request, on every instance. The epoch is read on every request, in the same cache round trip as the
 * token's revocation mark.
 */
const AUTHZ_EPOCH_KEY = cacheNamespace('authz', 'rebuildable', '权限缓存版本（删除后各实例重新加载用户）').key('epoch');
type LoadedUser = NonNullable<Awaited<ReturnType<typeof loadCurrentUser>>>;

interface AuthEntry {
  tokenVersion: number;
  enabled: boolean;
  /** The request's user without the token fields; shared by this user's requests in one epoch, never mutated. */
  base: Omit<LoadedUser, 'tokenVersion'>;
  /** The user's data scope, worked out on first use in this epoch. */
  scope?: Promise<DeptScope>;
  /** The scope's promise has resolved: a request can go on without waiting for it. */
  scopeSettled?: boolean;
  /** The request user of each of this user's sessions (token id) in this epoch: one frozen object per session. */
  sessions: Map<string, CurrentUser>;
}

const MAX_CACHED_USERS = 10_000;
/** Sessions remembered per user and epoch; past that, a session's requests each get their own (frozen) copy. */
const MAX_SESSIONS_PER_USER = 100;

/** Forget cached users everywhere (after writes that bypass the HTTP API, e.g. scripts and tests). */
export async function invalidateAuthCache(app: FastifyInstance): Promise<void> {
  await app.cache.set(AUTHZ_EPOCH_KEY, `${Date.now()}-${Math.random()}`);
}

/**
 * The user without its token version, frozen through (roles and permission codes too): it is shared by every
 * request of this user in one epoch, so a handler that changed it would change what other requests see; frozen,
 * such a write throws (TypeError in strict mode) instead of leaking.
 */
function withoutTokenVersion(user: LoadedUser): AuthEntry['base'] {
  const { tokenVersion: _tv, ...base } = user;
  for (const role of base.roles) Object.freeze(role);
  Object.freeze(base.roles);
  Object.freeze(base.permissions);
  return Object.freeze(base);
}

/**
 * The request user of a session: made once per session and epoch and shared read-only by its requests (copying
 * the user on every request was ~9 % of an /auth/info request, issue 27). `/auth/info` keys its cached answer on
 * this object, so the answer lives exactly as long as the epoch's entry.
 */
function sessionUser(entry: AuthEntry, jti: string, exp: number): CurrentUser {
  const known = entry.sessions.get(jti);
  if (known) return known;
  const user: CurrentUser = Object.freeze({ ...entry.base, tokenJti: jti, tokenExp: exp });
  if (entry.sessions.size < MAX_SESSIONS_PER_USER) entry.sessions.set(jti, user);
  return user;
}

/**
 * The `auth` plugin: keys, and on every route the guard its `config.auth` asks for:
 * - every API route must declare `config.auth` (start-up fails otherwise), so none is unguarded by accident;
 * - the bearer token (API clients) or the session cookie (the web app, with CSRF proof on writes) is checked
 *   on each request against the user's current state (disabled users and changed passwords take effect at
 *   once, logged-out tokens are revoked), and the caller lands on `request.user`;
 * - permission codes are checked and the caller's data scope settled before the handler runs.
 */
async function authPlugin(app: FastifyInstance, opts: AuthPluginOptions): Promise<void> {
  const keys = opts.keys ?? loadOrCreateKeys(opts.dataDir);
  app.decorate('authKeys', keys);
  app.decorate('routeTable', [] as RouteEntry[]);
  // Declared up front so every request object has the same shape (set per request by the guards below).
  app.decorateRequest('user', null);
  app.decorateRequest('deptScope', null);

  // this app's users in the current epoch (one map per app: tests build several apps in one process)
  let authCache: { epoch: string; users: Map<number, AuthEntry | Promise<AuthEntry | null>> } | undefined;

  /** The cached entry of a user in this epoch (loading it once, even for concurrent requests); null when gone. */
  const cachedAuth = (uid: number, epoch: string): AuthEntry | Promise<AuthEntry | null> => {
    if (!authCache || authCache.epoch !== epoch) authCache = { epoch, users: new Map() };
    const users = authCache.users;
    const hit = users.get(uid);
    if (hit) return hit;
    const loading: Promise<AuthEntry | null> = loadCurrentUser(app.database.db, uid).then(
      (user) => {
        const entry: AuthEntry | null = user ? { tokenVersion: user.tokenVersion, enabled: user.enabled, base: withoutTokenVersion(user), sessions: new Map() } : null;
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
  };

  /*
   * Authentication and the guard are written as "now or later": each step answers at once when what it needs is in
   * process memory (the in-process cache, a cached user, a settled scope) and returns a promise only when it has to
   * wait (Redis, a user's first load, the once-a-minute 在线用户 write). A request of a cached user on the embedded
   * default so passes its guard without a promise or a microtask; as async functions the guard's awaits were a
   * tenth of an /auth/info request (issue 27). Errors are thrown (now) or rejected (later), never both.
   */

  /** The caller of a request (req.user set), or a refusal (AppError). */
  const authenticate = (req: FastifyRequest): AuthEntry | Promise<AuthEntry> => {
    // API clients send a bearer header; the web app's session is the HttpOnly cookie (core/auth/sessionCookie.ts)
    const header = req.headers.authorization;
    const viaCookie = !header;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : viaCookie ? requestCookie(req, SESSION_COOKIE) : null;
    if (!token) throw new AppError('NOT_LOGGED_IN');
    const claims = verifyToken(keys.tokenSecret, token);
    if (!claims) throw new AppError('UNAUTHORIZED');
    // a browser attaches the cookie to any request it sends here, so a write must also prove it comes from our page
    if (viaCookie && isMutating(req.method) && !hasCsrfProof(req, keys.tokenSecret, claims.jti)) throw new AppError('CSRF_REFUSED', {});
    // One cache read (one round trip on Redis): has this token been revoked (logout), which authorization epoch is current.
    const marks = [REVOKED_TOKENS.key(claims.jti), AUTHZ_EPOCH_KEY];
    const now = app.cache.getManyNow(marks);
    return now ? admit(req, claims, now) : app.cache.getMany(marks).then((later) => admit(req, claims, later));
  };

  const admit = (req: FastifyRequest, claims: Readonly<TokenClaims>, [revoked, epoch]: (string | null)[]): AuthEntry | Promise<AuthEntry> => {
    if (revoked) throw new AppError('UNAUTHORIZED');
    const cached = cachedAuth(claims.uid, epoch ?? '0');
    return cached instanceof Promise ? cached.then((entry) => admitAs(req, claims, entry)) : admitAs(req, claims, cached);
  };

  const admitAs = (req: FastifyRequest, claims: Readonly<TokenClaims>, entry: AuthEntry | null): AuthEntry | Promise<AuthEntry> => {
    if (!entry || entry.tokenVersion !== claims.tv) throw new AppError('UNAUTHORIZED');
    if (!entry.enabled) throw new AppError('SESSION_ACCOUNT_DISABLED');
    req.user = sessionUser(entry, claims.jti, claims.exp);
    // 在线用户's last seen: a cache write at most once a minute per session; never fails the request. Asked
    // synchronously first, so that the other requests of the minute make no promise for it.
    if (sessionTouchDue(claims.jti)) return touchSession(app.cache, claims.jti, claims.exp).then(() => entry, () => entry);
    return entry;
  };

  // Public routes still learn who is calling when a valid token comes along (logout, logs); a bad one is ignored.
  const identify = (req: FastifyRequest, _reply: FastifyReply, done: HookDone) => {
    if (!req.headers.authorization && !req.headers.cookie?.includes(SESSION_COOKIE)) return done();
    let entered: AuthEntry | Promise<AuthEntry>;
    try {
      entered = authenticate(req);
    } catch {
      return done();
    }
    if (entered instanceof Promise) entered.then(() => done(), () => done());
    else done();
  };

  /** What the route asks beyond a valid session, and the caller's data scope; a promise only while the scope is worked out. */
  const authorize = (req: FastifyRequest, entry: AuthEntry, auth: Exclude<RouteAuth, 'public'>, beforePasswordChange: boolean): Promise<DeptScope> | undefined => {
    // an issued password (new user, employee login) opens nothing but its own change (U23)
    if (entry.base.mustChangePassword && !beforePasswordChange) throw new AppError('PASSWORD_CHANGE_REQUIRED', {});
    if (auth !== 'user' && !hasPermission(entry.base.permissions, auth)) throw new AppError('FORBIDDEN');
    // The caller's data scope is settled before any handler opens a write transaction: hooks read it
    // inside transactions, and on SQLite (one connection) a first lookup there would wait for ever.
    // No query unless the user holds a 自定义 role, and then once per user and authorization epoch.
    if (!entry.scope) {
      const scope: Promise<DeptScope> = computeDeptScope(app.database.db, entry.base).then(
        // shared by this user's requests: frozen, so no handler can change another request's scope
        (found) => {
          if (entry.scope === scope) entry.scopeSettled = true;
          return found === null ? null : (Object.freeze(found) as number[]);
        },
        (err: unknown) => {
          if (entry.scope === scope) entry.scope = undefined;
          throw err;
        },
      );
      entry.scope = scope;
    }
    primeRequestDeptScope(req, entry.scope);
    return entry.scopeSettled ? undefined : entry.scope;
  };

  const guardFor = (auth: Exclude<RouteAuth, 'public'>, beforePasswordChange: boolean) => {
    const guard = (req: FastifyRequest, _reply: FastifyReply, done: HookDone) => {
      let waiting: Promise<unknown> | undefined;
      try {
        const entered = authenticate(req);
        waiting = entered instanceof Promise ? entered.then((entry) => authorize(req, entry, auth, beforePasswordChange)) : authorize(req, entered, auth, beforePasswordChange);
      } catch (err) {
        return done(err as Error);
      }
      // outside the try: an error thrown by what runs after the guard is not the guard's to answer
      if (waiting) waiting.then(() => done(), done);
      else done();
    };
    return guard;
  };

  // Before the answer leaves (so the caller's next request already sees it): any successful write may have
  // changed users, roles, departments or permissions, so cached users and scopes are dropped.
  const invalidate = (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => {
    if (!isMutating(req.method) || reply.statusCode >= 400) return done(null, payload);
    invalidateAuthCache(app).then(() => done(null, payload), done);
  };

  // Every route (the HEAD twins Fastify adds for GET routes included) gets its guard here, built from its own
  // config once, instead of a global hook that looks the config up on each request.
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const auth = (route.config as { auth?: RouteAuth } | undefined)?.auth;
    const beforePasswordChange = (route.config as { beforePasswordChange?: boolean } | undefined)?.beforePasswordChange === true;
    const guard = !auth || auth === 'public' ? identify : guardFor(auth, beforePasswordChange);
    route.onRequest = [guard, ...hookList(route.onRequest)];
    if (auth && methods.some(isMutating)) route.onSend = [...hookList(route.onSend), invalidate];
    if (methods.every((m) => m === 'HEAD' || m === 'OPTIONS')) return;
    if (!isApiUrl(route.url)) return;
    if (!auth) throw new Error(`route ${methods.join(',')} ${route.url} declares no config.auth`);
    const log = (route.config as { log?: string } | undefined)?.log;
    for (const m of methods) if (m !== 'HEAD') app.routeTable.push({ method: m, url: route.url, auth, schema: route.schema, log });
  });
}

export default fp(authPlugin, { name: 'auth', fastify: '5.x', dependencies: ['db', 'cache'] });
