import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, loginResponse, bearer, DEV_ADMIN_PASSWORD, type TestApp } from './helpers.ts';
import { captchaAnswer } from '../src/core/auth/captcha.ts';
import { encryptLoginPassword } from '../src/core/auth/keys.ts';
import { signToken } from '../src/core/auth/tokens.ts';
import { invalidateAuthCache } from '../src/core/plugins/auth.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('auth', () => {
  it('logs in with an RSA-OAEP encrypted password and returns the user with permission codes', async () => {
    const res = await loginResponse(t.app, 'admin', DEV_ADMIN_PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(body.user.username).toBe('admin');
    expect(body.user.roles).toContain('ADMIN');
    expect(JSON.stringify(body)).not.toMatch(/password_hash|argon2/);
    const info = await t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(body.token) });
    expect(info.statusCode).toBe(200);
    expect(info.json().cname).toBe('系统管理员');
    expect(info.json().dept).toBe('总公司');
  });

  it('refuses a plain-text password and gives one generic message for unknown user and wrong password', async () => {
    const plain = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'admin', password: DEV_ADMIN_PASSWORD } });
    expect(plain.statusCode).toBe(400);
    const wrong = await loginResponse(t.app, 'admin', 'wrong-password');
    const unknown = await loginResponse(t.app, 'nobody-here', 'wrong-password');
    expect(wrong.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    expect(wrong.json().message).toBe(unknown.json().message);
    expect(wrong.json()).toMatchObject({ status: 400, message: '用户名或密码错误' });
    expect(typeof wrong.json().timestamp).toBe('string');
  });

  it('logout revokes the token', async () => {
    const token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
    expect((await t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(token) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: '/auth/logout', headers: bearer(token) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('rejects missing, forged and expired tokens with 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/auth/info' })).statusCode).toBe(401);
    const token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
    const [h, p] = token.split('.');
    const forged = `${h}.${p}.${'A'.repeat(43)}`;
    expect((await t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(forged) })).statusCode).toBe(401);
    const other = signToken(Buffer.from('another-secret'), 1, 0, 3600).token;
    expect((await t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(other) })).statusCode).toBe(401);
    const expired = signToken(t.app.ctx.keys.tokenSecret, 1, 0, -10).token;
    const r = await t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(expired) });
    expect(r.statusCode).toBe(401);
    expect(r.json().message).toContain('登录');
  });

  it('rejects a disabled user at once, even with a live token', async () => {
    const token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
    await t.app.ctx.db.updateTable('sys_user').set({ enabled: 0 }).where('username', '=', 'admin').execute();
    await invalidateAuthCache(t.app);
    try {
      expect((await t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(token) })).statusCode).toBe(401);
      const again = await loginResponse(t.app, 'admin', DEV_ADMIN_PASSWORD);
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe('账号已停用，请联系管理员');
    } finally {
      await t.app.ctx.db.updateTable('sys_user').set({ enabled: 1 }).where('username', '=', 'admin').execute();
      await invalidateAuthCache(t.app);
    }
  });
});

describe('captcha', () => {
  let c: TestApp;
  beforeAll(async () => {
    c = await createTestApp({ captchaEnabled: true, loginRateLimitPerMinute: 5 });
  });
  afterAll(async () => {
    await c.close();
  });

  it('is an image with a uuid, single use, and required when enabled', async () => {
    const v = (await c.app.inject({ method: 'GET', url: '/auth/vCode' })).json();
    expect(v.img).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(v.uuid).toMatch(/^[0-9a-f]{32}$/);
    const answer = await captchaAnswer(c.app.ctx.cache, v.uuid);
    expect(answer).toMatch(/^\d+$/);
    const noCode = await loginResponse(c.app, 'admin', DEV_ADMIN_PASSWORD);
    expect(noCode.statusCode).toBe(400);
    const ok = await loginResponse(c.app, 'admin', DEV_ADMIN_PASSWORD, { uuid: v.uuid, code: answer });
    expect(ok.statusCode).toBe(200);
    const reused = await loginResponse(c.app, 'admin', DEV_ADMIN_PASSWORD, { uuid: v.uuid, code: answer });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toBe('验证码不存在或已过期');
  });

  it('rate-limits login attempts per IP with a 429 and a clear message', async () => {
    const pk = (await c.app.inject({ method: 'GET', url: '/auth/publicKey' })).json().publicKey;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await c.app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'x', password: encryptLoginPassword(pk, 'y'), uuid: 'u', code: '1' } });
      statuses.push(r.statusCode);
      if (r.statusCode === 429) expect(r.json().message).toContain('频繁');
    }
    expect(statuses).toContain(429);
  });
});
