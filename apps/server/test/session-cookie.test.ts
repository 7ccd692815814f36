import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfTokenFor } from '../src/core/auth/sessionCookie.ts';
import { verifyToken } from '../src/core/auth/tokens.ts';
import { createTestApp, login, loginResponse, bearer, DEV_ADMIN_PASSWORD, type TestApp } from './helpers.ts';

/**
 * S6: the web session lives in an HttpOnly, SameSite=Strict cookie with a CSRF proof for writes; bearer
 * tokens keep working for API clients; remember-me is a longer server-side lifetime; logout revokes.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

interface Session {
  cookie: string;
  csrf: string;
  setCookies: string[];
  body: Record<string, unknown>;
}

async function cookieLogin(extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Session> {
  const pk = (await t.app.inject({ method: 'GET', url: '/auth/publicKey' })).json().publicKey as string;
  const { encryptLoginPassword } = await import('../src/core/auth/keys.ts');
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/login',
    headers,
    payload: { username: 'admin', password: encryptLoginPassword(pk, DEV_ADMIN_PASSWORD), session: 'cookie', ...extra },
  });
  expect(res.statusCode, res.body).toBe(200);
  const raw = res.headers['set-cookie'];
  const setCookies = (Array.isArray(raw) ? raw : [raw]).filter((c): c is string => typeof c === 'string');
  const value = (name: string) => setCookies.find((c) => c.startsWith(`${name}=`))?.split(';')[0].slice(name.length + 1) ?? '';
  return { cookie: `dp_session=${value('dp_session')}; dp_csrf=${value('dp_csrf')}`, csrf: decodeURIComponent(value('dp_csrf')), setCookies, body: res.json() };
}

const attrs = (setCookie: string) => setCookie.split(';').map((p) => p.trim().toLowerCase());

describe('session cookie (S6)', () => {
  it('login puts the token in an HttpOnly SameSite=Strict cookie and not in the answer', async () => {
    const s = await cookieLogin();
    expect(s.body.token).toBeUndefined();
    expect((s.body.user as { username: string }).username).toBe('admin');
    const session = s.setCookies.find((c) => c.startsWith('dp_session='))!;
    const csrf = s.setCookies.find((c) => c.startsWith('dp_csrf='))!;
    expect(attrs(session)).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/']));
    // the CSRF cookie is readable by our page (no HttpOnly) and as strict
    expect(attrs(csrf)).toEqual(expect.arrayContaining(['samesite=strict', 'path=/']));
    expect(attrs(csrf)).not.toContain('httponly');
    // plain HTTP here: no Secure flag, and without remember-me both end with the browser session
    for (const c of [session, csrf]) {
      expect(attrs(c)).not.toContain('secure');
      expect(attrs(c).some((a) => a.startsWith('max-age'))).toBe(false);
    }
    // the CSRF token is the session's own (HMAC of its token id), not a copy of the token
    const token = session.split(';')[0].slice('dp_session='.length);
    const claims = verifyToken(t.app.ctx.keys.tokenSecret, decodeURIComponent(token))!;
    expect(s.csrf).toBe(csrfTokenFor(t.app.ctx.keys.tokenSecret, claims.jti));
    expect(s.csrf).not.toContain(claims.jti);
  });

  it('marks the cookies Secure when the request came over HTTPS (behind a trusted proxy)', async () => {
    const proxied = await createTestApp({ trustProxy: true });
    try {
      const pk = (await proxied.app.inject({ method: 'GET', url: '/auth/publicKey' })).json().publicKey as string;
      const { encryptLoginPassword } = await import('../src/core/auth/keys.ts');
      const res = await proxied.app.inject({
        method: 'POST',
        url: '/auth/login',
        headers: { 'x-forwarded-proto': 'https' },
        payload: { username: 'admin', password: encryptLoginPassword(pk, DEV_ADMIN_PASSWORD), session: 'cookie' },
      });
      const cookies = res.headers['set-cookie'] as string[];
      expect(cookies).toHaveLength(2);
      for (const c of cookies) expect(attrs(c)).toContain('secure');
    } finally {
      await proxied.close();
    }
    // without TRUST_PROXY the same header is not believed
    const s = await cookieLogin({}, { 'x-forwarded-proto': 'https' });
    for (const c of s.setCookies) expect(attrs(c)).not.toContain('secure');
  });

  it('remember-me: a longer server-side lifetime and cookies that outlive the browser session', async () => {
    const s = await cookieLogin({ rememberMe: true });
    for (const c of s.setCookies) expect(attrs(c)).toContain(`max-age=${t.config.rememberMeTtlSeconds}`);
    const token = decodeURIComponent(s.setCookies.find((c) => c.startsWith('dp_session='))!.split(';')[0].slice('dp_session='.length));
    const claims = verifyToken(t.app.ctx.keys.tokenSecret, token)!;
    expect(claims.exp - claims.iat).toBe(t.config.rememberMeTtlSeconds);
    const short = await cookieLogin();
    const shortToken = decodeURIComponent(short.setCookies.find((c) => c.startsWith('dp_session='))!.split(';')[0].slice('dp_session='.length));
    const shortClaims = verifyToken(t.app.ctx.keys.tokenSecret, shortToken)!;
    expect(shortClaims.exp - shortClaims.iat).toBe(t.config.tokenTtlSeconds);
  });

  it('reads with the cookie alone; a cookie-authenticated write without the CSRF proof is 403, with it 2xx', async () => {
    const s = await cookieLogin();
    const info = await t.app.inject({ method: 'GET', url: '/auth/info', headers: { cookie: s.cookie } });
    expect(info.statusCode).toBe(200);
    expect(info.json().username).toBe('admin');

    const body = { name: `会话测试岗位${Date.now()}`, enabled: true, jobSort: 9, deptId: 1 };
    const without = await t.app.inject({ method: 'POST', url: '/api/job', headers: { cookie: s.cookie }, payload: body });
    expect(without.statusCode).toBe(403);
    expect(without.json().code).toBe('CSRF_REFUSED');
    const wrong = await t.app.inject({ method: 'POST', url: '/api/job', headers: { cookie: s.cookie, 'x-csrf-token': 'x'.repeat(s.csrf.length) }, payload: body });
    expect(wrong.statusCode).toBe(403);
    // another session's CSRF token does not fit this session
    const other = await cookieLogin();
    const crossed = await t.app.inject({ method: 'POST', url: '/api/job', headers: { cookie: s.cookie, 'x-csrf-token': other.csrf }, payload: body });
    expect(crossed.statusCode).toBe(403);
    expect(await t.app.ctx.db.selectFrom('sys_job').select('id').where('name', '=', body.name).executeTakeFirst()).toBeUndefined();

    const ok = await t.app.inject({ method: 'POST', url: '/api/job', headers: { cookie: s.cookie, 'x-csrf-token': s.csrf }, payload: body });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('bearer tokens keep working for API clients, without a CSRF proof', async () => {
    const res = await loginResponse(t.app, 'admin', DEV_ADMIN_PASSWORD);
    expect(res.headers['set-cookie']).toBeUndefined();
    const token = res.json().token as string;
    const write = await t.app.inject({ method: 'POST', url: '/api/job', headers: bearer(token), payload: { name: `令牌岗位${Date.now()}`, enabled: true, jobSort: 8, deptId: 1 } });
    expect(write.statusCode).toBe(201);
  });

  it('logout revokes the session and clears both cookies; the old cookie stays refused', async () => {
    const s = await cookieLogin();
    const noProof = await t.app.inject({ method: 'DELETE', url: '/auth/logout', headers: { cookie: s.cookie } });
    expect(noProof.statusCode).toBe(403);
    const out = await t.app.inject({ method: 'DELETE', url: '/auth/logout', headers: { cookie: s.cookie, 'x-csrf-token': s.csrf } });
    expect(out.statusCode).toBe(200);
    const cleared = out.headers['set-cookie'] as string[];
    expect(cleared.map((c) => c.split('=')[0]).sort()).toEqual(['dp_csrf', 'dp_session']);
    for (const c of cleared) expect(attrs(c)).toContain('max-age=0');
    expect((await t.app.inject({ method: 'GET', url: '/auth/info', headers: { cookie: s.cookie } })).statusCode).toBe(401);
    // and a bearer session's logout revokes too
    const token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
    expect((await t.app.inject({ method: 'DELETE', url: '/auth/logout', headers: bearer(token) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('refuses an unknown session mode', async () => {
    const res = await loginResponse(t.app, 'admin', DEV_ADMIN_PASSWORD, { session: 'localStorage' });
    expect(res.statusCode).toBe(400);
  });
});
