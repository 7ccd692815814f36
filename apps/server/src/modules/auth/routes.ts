import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { captcha, type CurrentUserAnswer, currentUser, login, loginPublicKey, logout } from '@app/shared/contracts/auth';
import { routeContract } from '../../crud/registerContract.ts';
import { trustedResponse } from '../../crud/routeSchemas.ts';
import { DEFAULT_ROLE_CODE } from '@app/shared/permissions';
import { createCaptcha, checkCaptcha } from '../../core/auth/captcha.ts';
import { decryptLoginPassword } from '../../core/auth/keys.ts';
import { spendVerifyTime, verifyPassword } from '../../core/auth/password.ts';
import { REVOKED_TOKENS, signToken } from '../../core/auth/tokens.ts';
import { cacheNamespace } from '../../core/cacheNamespaces.ts';
import { clearSessionCookies, csrfTokenFor, setSessionCookies } from '../../core/auth/sessionCookie.ts';
import { loadCurrentUser } from '../../core/auth/currentUser.ts';
import { AppError } from '../../core/errors.ts';
import { perIpPerMinute } from '../../core/security.ts';
import type { CurrentUser } from '../../core/context.ts';
import { forgetSession, recordSession } from '../../core/auth/onlineSessions.ts';

const USER_LOCK_FAILURES = 10;
const USER_LOCK_SECONDS = 15 * 60;
// deleting a key unlocks the account before its 15 minutes are up (the cache screen offers it)
const LOGIN_FAILURES = cacheNamespace('loginfail', 'protected', '登录失败次数（账号锁定）', { adminMayDelete: true });

/** The user as the web app sees it after login and from /auth/info (never a hash or a secret). */
export function userInfo(u: Omit<CurrentUser, 'tokenJti' | 'tokenExp'>): CurrentUserAnswer {
  return {
    id: u.id,
    username: u.username,
    cname: u.cname,
    email: u.email,
    phone: u.phone,
    avatar: u.avatar,
    dept: u.deptName,
    deptId: u.deptId,
    job: u.jobName,
    jobId: u.jobId,
    enabled: u.enabled,
    // the web app asks for a new password before anything else while this is true
    mustChangePassword: u.mustChangePassword,
    createTime: u.createTime,
    // the session's codes as they are (read-only, only serialised): no copy
    roles: (u.permissions.length ? u.permissions : [DEFAULT_ROLE_CODE]) as string[],
    roleNames: u.roles.map((r) => r.name),
    level: Number.isFinite(u.level) ? u.level : null,
  };
}

/** /auth/*: captcha, public key, login, info, logout. */
export function registerAuthRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { cache, config, keys, db } = app.ctx;

  routeContract(app, captcha, async () => createCaptcha(cache), { config: { rateLimit: perIpPerMinute(60, 'CAPTCHA_RATE_LIMITED') } });

  routeContract(app, loginPublicKey, async () => ({ publicKey: keys.rsaPublicKeyPem, algorithm: 'RSA-OAEP-256' as const }));

  const loginRateLimit = perIpPerMinute(config.loginRateLimitPerMinute, 'LOGIN_RATE_LIMITED');
  // the answer is userInfo's, typed by the contract: sent without a second check outside the tests
  trustedResponse(login.response);
  routeContract(app, login, async (req, reply) => {
    const body = req.body ?? {};
    const username = typeof body.username === 'string' ? body.username.trim() : '';
    if (!username) throw new AppError('USERNAME_REQUIRED', {}, { username: { code: 'USERNAME_REQUIRED' } });
    if (typeof body.password !== 'string' || !body.password) throw new AppError('PASSWORD_REQUIRED', {}, { password: { code: 'PASSWORD_REQUIRED' } });
    if (config.captchaEnabled) {
      const captchaError = await checkCaptcha(cache, body.uuid, body.code);
      if (captchaError) throw new AppError(captchaError, {}, { code: { code: captchaError } });
    }
    const password = decryptLoginPassword(keys, body.password);
    if (password === null) throw new AppError('PASSWORD_ENCRYPTION');
    const lockKey = LOGIN_FAILURES.key(username.toLowerCase());
    const failures = Number((await cache.get(lockKey)) ?? 0);
    if (failures >= USER_LOCK_FAILURES) throw new AppError('ACCOUNT_LOCKED');

    const row = await db
      .selectFrom('sys_user')
      .select(['id', 'password_hash', 'enabled', 'token_version'])
      .where((eb) => eb.or([eb('username', '=', username), eb('email', '=', username)]))
      .executeTakeFirst();
    if (!row) {
      await spendVerifyTime(password);
      await cache.incr(lockKey, USER_LOCK_SECONDS);
      throw new AppError('LOGIN_FAILED');
    }
    if (!(await verifyPassword(row.password_hash ?? '', password))) {
      await cache.incr(lockKey, USER_LOCK_SECONDS);
      throw new AppError('LOGIN_FAILED');
    }
    if (!row.enabled) throw new AppError('ACCOUNT_DISABLED');
    await cache.del(lockKey);
    const user = await loadCurrentUser(db, row.id);
    if (!user) throw new AppError('LOGIN_USER_GONE');
    const rememberMe = body.rememberMe === true || body.rememberMe === 'true';
    const ttl = rememberMe ? config.rememberMeTtlSeconds : config.tokenTtlSeconds;
    const { token, claims } = signToken(keys.tokenSecret, user.id, user.tokenVersion, ttl);
    req.user = { ...user, tokenJti: claims.jti, tokenExp: claims.exp };
    // 在线用户: the session's record (who, from where, since when); refreshed by the auth hook
    const loginTime = new Date().toISOString();
    await recordSession(cache, { jti: claims.jti, userId: user.id, username: user.username, nickName: user.cname, deptName: user.deptName, ip: req.ip, browser: String(req.headers['user-agent'] ?? '').slice(0, 255), loginTime, lastSeen: loginTime, exp: claims.exp });
    const expiresAt = new Date(claims.exp * 1000).toISOString();
    if (body.session === 'cookie') {
      // the web app: the token stays out of script reach; remember-me makes both cookies outlive the browser
      setSessionCookies(req, reply, token, csrfTokenFor(keys.tokenSecret, claims.jti), rememberMe ? ttl : undefined);
      return { expiresAt, user: userInfo(user) };
    }
    return { token, expiresAt, user: userInfo(user) };
  }, { config: { rateLimit: loginRateLimit } });

  // The answer as sent, per request user: the auth plugin shares one frozen user object per session until the
  // authorization epoch moves (any successful write: user, roles, menus, departments...), so keying on that object
  // caches the answer per session exactly as long as it stays true (issue 27: built afresh it was ~6 % of the request).
  const infoAnswers = new WeakMap<CurrentUser, string>();
  // The cached text is sent as it is (Fastify serialises no string): the response schema documents it and costs
  // nothing here; trusted, so that an object answer would not be checked again per request either.
  trustedResponse(currentUser.response);
  routeContract(app, currentUser, async (req, reply) => {
    const user = req.user!;
    let answer = infoAnswers.get(user);
    if (answer === undefined) infoAnswers.set(user, (answer = JSON.stringify(userInfo(user))));
    return reply.type('application/json; charset=utf-8').send(answer);
  });

  routeContract(app, logout, async (req, reply) => {
    const u = req.user!;
    const ttl = Math.max(1, u.tokenExp - Math.floor(Date.now() / 1000));
    await cache.set(REVOKED_TOKENS.key(u.tokenJti), '1', ttl);
    await forgetSession(cache, u.tokenJti);
    clearSessionCookies(req, reply);
    return {};
  });
}
