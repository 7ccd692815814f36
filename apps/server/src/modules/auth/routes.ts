import type { FastifyInstance } from 'fastify';
import { DEFAULT_ROLE_CODE } from '@app/shared/permissions';
import { createCaptcha, checkCaptcha } from '../../core/auth/captcha.ts';
import { decryptLoginPassword } from '../../core/auth/keys.ts';
import { spendVerifyTime, verifyPassword } from '../../core/auth/password.ts';
import { signToken } from '../../core/auth/tokens.ts';
import { loadCurrentUser } from '../../core/auth/currentUser.ts';
import { AppError, badRequest, tooManyRequests } from '../../core/errors.ts';
import type { CurrentUser } from '../../core/context.ts';

const LOGIN_FAILED = '用户名或密码错误';
const USER_LOCK_FAILURES = 10;
const USER_LOCK_SECONDS = 15 * 60;

/** The user as the web app sees it after login and from /auth/info (never a hash or a secret). */
export function userInfo(u: Omit<CurrentUser, 'tokenJti' | 'tokenExp'>) {
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
    createTime: u.createTime,
    roles: u.permissions.length ? u.permissions : [DEFAULT_ROLE_CODE],
    roleNames: u.roles.map((r) => r.name),
    level: Number.isFinite(u.level) ? u.level : null,
  };
}

/** /auth/*: captcha, public key, login, info, logout. */
export function registerAuthRoutes(app: FastifyInstance): void {
  const { cache, config, keys, db } = app.ctx;

  async function rateLimit(key: string, limit: number, windowSeconds: number, message: string) {
    const n = await cache.incr(`rl:${key}`, windowSeconds);
    if (n > limit) throw tooManyRequests(message);
  }

  app.get('/auth/vCode', { config: { auth: 'public' } }, async (req) => {
    await rateLimit(`captcha:${req.ip}`, 60, 60, '获取验证码过于频繁，请稍后再试');
    return createCaptcha(cache);
  });

  app.get('/auth/publicKey', { config: { auth: 'public' } }, async () => ({ publicKey: keys.rsaPublicKeyPem, algorithm: 'RSA-OAEP-256' }));

  app.post('/auth/login', { config: { auth: 'public', log: '用户登录' } }, async (req) => {
    await rateLimit(`login:${req.ip}`, config.loginRateLimitPerMinute, 60, '登录尝试过于频繁，请1分钟后再试');
    const body = (req.body ?? {}) as Record<string, unknown>;
    const username = typeof body.username === 'string' ? body.username.trim() : '';
    if (!username) throw badRequest('请输入用户名', { username: '请输入用户名' });
    if (typeof body.password !== 'string' || !body.password) throw badRequest('请输入密码', { password: '请输入密码' });
    if (config.captchaEnabled) {
      const captchaError = await checkCaptcha(cache, body.uuid, body.code);
      if (captchaError) throw badRequest(captchaError, { code: captchaError }, 'CAPTCHA');
    }
    const password = decryptLoginPassword(keys, body.password);
    if (password === null) throw badRequest('密码未加密或加密方式不正确，请刷新页面后重试', undefined, 'PASSWORD_ENCRYPTION');
    const lockKey = `loginfail:${username.toLowerCase()}`;
    const failures = Number((await cache.get(lockKey)) ?? 0);
    if (failures >= USER_LOCK_FAILURES) throw tooManyRequests('密码错误次数过多，账号已锁定15分钟');

    const row = await db
      .selectFrom('sys_user')
      .select(['id', 'password_hash', 'enabled', 'token_version'])
      .where((eb) => eb.or([eb('username', '=', username), eb('email', '=', username)]))
      .executeTakeFirst();
    if (!row) {
      await spendVerifyTime(password);
      await cache.incr(lockKey, USER_LOCK_SECONDS);
      throw badRequest(LOGIN_FAILED, undefined, 'LOGIN_FAILED');
    }
    if (!(await verifyPassword(row.password_hash, password))) {
      await cache.incr(lockKey, USER_LOCK_SECONDS);
      throw badRequest(LOGIN_FAILED, undefined, 'LOGIN_FAILED');
    }
    if (!row.enabled) throw badRequest('账号已停用，请联系管理员', undefined, 'ACCOUNT_DISABLED');
    await cache.del(lockKey);
    const user = await loadCurrentUser(db, row.id);
    if (!user) throw new AppError(401, LOGIN_FAILED);
    const ttl = body.rememberMe === true || body.rememberMe === 'true' ? config.rememberMeTtlSeconds : config.tokenTtlSeconds;
    const { token, claims } = signToken(keys.tokenSecret, user.id, user.tokenVersion, ttl);
    req.user = { ...user, tokenJti: claims.jti, tokenExp: claims.exp };
    return { token, expiresAt: new Date(claims.exp * 1000).toISOString(), user: userInfo(user) };
  });

  app.get('/auth/info', { config: { auth: 'user' } }, async (req) => userInfo(req.user!));

  app.delete('/auth/logout', { config: { auth: 'user', log: '用户退出' } }, async (req) => {
    const u = req.user!;
    const ttl = Math.max(1, u.tokenExp - Math.floor(Date.now() / 1000));
    await cache.set(`revoked:${u.tokenJti}`, '1', ttl);
    return {};
  });
}
