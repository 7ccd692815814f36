import fs from 'node:fs';
import path from 'node:path';
import { codeOfMessage } from '@app/shared/errors/catalogue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEV_ADMIN_PASSWORD, login, type TestApp } from './helpers.ts';
import { idOf, newUserBody } from './system-fixtures.ts';

/** Errors are data: a catalogue code on every error answer, the message in the request's Accept-Language. */
describe('error messages in the request language', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
  });
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, language: string | undefined, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      payload: payload as never,
      headers: { authorization: `Bearer ${token}`, ...(language ? { 'accept-language': language } : {}) },
    });

  it('answers in Chinese without Accept-Language or with an unknown one, byte for byte as before', async () => {
    for (const lang of [undefined, 'fr-FR', '*', 'de;q=0.9']) {
      const res = await call('GET', '/api/users/999999', lang);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ status: 404, code: 'RECORD_NOT_FOUND', message: '用户不存在或无权访问' });
    }
  });

  it('answers in English, Japanese or Spanish when asked, with the code and never a stack trace', async () => {
    const en = await call('GET', '/api/users/999999', 'en-US,en;q=0.9,zh;q=0.5');
    expect(en.json()).toMatchObject({ code: 'RECORD_NOT_FOUND', message: 'User does not exist or is not accessible' });
    expect(en.headers['content-language']).toBe('en');
    const ja = await call('GET', '/api/users/999999', 'ja');
    expect(ja.json().message).toBe('ユーザーが存在しないか、アクセス権がありません');
    const es = await call('GET', '/api/users/999999', 'es-419');
    expect(es.json().message).toMatch(/no existe/);

    const unauth = await t.app.inject({ method: 'GET', url: '/api/users', headers: { 'accept-language': 'en' } });
    expect(unauth.json()).toMatchObject({ status: 401, code: 'NOT_LOGGED_IN', message: 'Not logged in, or the session has expired' });
    const badJson = await t.app.inject({ method: 'POST', url: '/api/users', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-language': 'ja' }, payload: '{' });
    expect(badJson.json()).toMatchObject({ status: 400, code: 'INVALID_JSON', message: 'リクエスト本文が正しいJSONではありません' });
    const noApi = await t.app.inject({ method: 'GET', url: '/api/no-such-thing', headers: { 'accept-language': 'en' } });
    expect(noApi.json()).toMatchObject({ status: 404, code: 'API_NOT_FOUND', message: 'No such API endpoint' });
    for (const res of [en, ja, es, unauth, badJson, noApi]) {
      expect(res.body).not.toMatch(/\n\s+at |stack/);
      expect(typeof res.json().code).toBe('string');
    }
  });

  it('translates a 409 and field errors, which carry their codes', async () => {
    const role = await idOf(t, 'sys_role', '普通员工');
    const body = newUserBody('lang_user', [role]);
    expect((await call('POST', '/api/users', undefined, body)).statusCode).toBe(201);
    const dupZh = await call('POST', '/api/users', undefined, body);
    expect(dupZh.json()).toMatchObject({ status: 409, code: 'USERNAME_TAKEN', message: '用户名已存在' });
    const dupEn = await call('POST', '/api/users', 'en', body);
    expect(dupEn.json()).toMatchObject({ status: 409, code: 'USERNAME_TAKEN', message: 'The username already exists' });

    const missing = await call('POST', '/api/users', 'en', { ...newUserBody('lang_user2', [role]), username: '' });
    expect(missing.statusCode).toBe(400);
    const m = missing.json();
    expect(Object.keys(m.fieldErrors)).toContain('username');
    expect(m.fieldErrors.username).not.toMatch(/[\u4e00-\u9fff]/);
    expect(m.fieldErrorCodes.username).toMatch(/^[A-Z_]+$/);
    const zh = (await call('POST', '/api/users', undefined, { ...newUserBody('lang_user2', [role]), username: '' })).json();
    expect(zh.fieldErrorCodes).toEqual(m.fieldErrorCodes);
    expect(zh.fieldErrors.username).toMatch(/[\u4e00-\u9fff]/);
  });
});

/**
 * Every message the converted modules can send is in the catalogue: the literal messages handed to the error
 * helpers (and the Chinese constants they throw) are found by codeOfMessage. `${...}` parts of template
 * literals stand for parameters. Modules not listed here still send Chinese-only messages (see the catalogue).
 */
describe('catalogue coverage of the converted modules', () => {
  const SRC = path.resolve(import.meta.dirname, '../src');
  const CONVERTED = [
    'core/errors.ts',
    'core/plugins',
    'core/security.ts',
    'core/auth/captcha.ts',
    'modules/auth/routes.ts',
    'modules/system',
    'crud/registerResource.ts',
    'crud/listQuery.ts',
    'crud/excel.ts',
    'crud/uniqueWrites.ts',
  ];
  const files = CONVERTED.flatMap((p) => {
    const full = path.join(SRC, p);
    return fs.statSync(full).isDirectory() ? fs.readdirSync(full).filter((f) => f.endsWith('.ts')).map((f) => path.join(full, f)) : [full];
  });
  const ERROR_CALL = /(?:badRequest|conflict|notFound|forbidden|unauthorized|tooManyRequests|perIpPerMinute\(\s*[\w.]+\s*,|new AppError\(\s*\d+\s*,|return|message\s*=|const [A-Z_]+\s*=)\s*\(?\s*(['`])((?:(?!\1)[^\n\\]|\\.)*)\1/g;

  it('finds catalogue entries for every message', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(ERROR_CALL)) {
        const literal = m[2].replace(/\$\{[^}]*\}/g, 'X');
        if (!/[\u4e00-\u9fff]/.test(literal)) continue;
        checked++;
        if (!codeOfMessage(literal)) missing.push(`${path.relative(SRC, file)}: ${m[2]}`);
      }
    }
    expect(checked).toBeGreaterThan(80);
    expect(missing).toEqual([]);
  });
});
