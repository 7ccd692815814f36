import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptLoginPassword } from '../src/core/auth/keys.ts';
import { bearer, createTestApp, login, loginResponse, type TestApp } from './helpers.ts';
import { adminCaller, type Caller, idOf, newUserBody } from './system-fixtures.ts';

/**
 * A password the user did not choose (the initial password of a new user, the one-time password of an
 * employee login) must be changed at the first login (findings U23): until then the session reaches who-am-I,
 * the menus, the change itself and logout, and every other call is a 403 PASSWORD_CHANGE_REQUIRED.
 */

let t: TestApp;
let admin: Caller;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminCaller(t);
});
afterAll(async () => {
  await t.close();
});

const cipher = (plain: string) => encryptLoginPassword(t.app.ctx.keys.rsaPublicKeyPem, plain);

describe('an issued password is changed at the first login', () => {
  it('a new user reaches only the change, then everything his roles allow', async () => {
    const made = await admin('POST', '/api/users', newUserBody('first_login', [await idOf(t, 'sys_role', '普通员工')]));
    expect(made.statusCode).toBe(201);
    const issued = made.json().defaultPassword as string;
    const token = await login(t.app, 'first_login', issued);
    const as = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) => t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload: payload as never } : {}) });

    const info = await as('GET', '/auth/info');
    expect(info.statusCode).toBe(200);
    expect(info.json().mustChangePassword).toBe(true);
    expect((await as('GET', '/api/menus/build')).statusCode).toBe(200);
    for (const url of ['/api/acPayslip', '/api/users', '/api/logs/user', '/api/dict']) {
      const res = await as('GET', url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code, url).toBe('PASSWORD_CHANGE_REQUIRED');
      expect(res.json().message).toBe('请先修改初始密码');
    }
    const english = await t.app.inject({ method: 'GET', url: '/api/acPayslip', headers: { ...bearer(token), 'accept-language': 'en' } });
    expect(english.json().message).toBe('Please change your initial password first');

    // the same password again is refused as before; a new one clears the mark and ends this session
    expect((await as('POST', '/api/users/updatePass', { oldPass: cipher(issued), newPass: cipher(issued) })).statusCode).toBe(400);
    expect((await as('POST', '/api/users/updatePass', { oldPass: cipher(issued), newPass: cipher('Chosen-By-Me-1') })).statusCode).toBe(200);
    expect((await as('GET', '/auth/info')).statusCode).toBe(401);
    expect((await loginResponse(t.app, 'first_login', issued)).statusCode).toBe(400);

    const after = await login(t.app, 'first_login', 'Chosen-By-Me-1');
    const again = await t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(after) });
    expect(again.json().mustChangePassword).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: '/api/acPayslip', headers: bearer(after) })).statusCode).toBe(200);
  });

  it('logout works before the change', async () => {
    const made = await admin('POST', '/api/users', newUserBody('first_logout', [await idOf(t, 'sys_role', '普通员工')]));
    const token = await login(t.app, 'first_logout', made.json().defaultPassword);
    expect((await t.app.inject({ method: 'DELETE', url: '/auth/logout', headers: bearer(token) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('the seeded administrator and users an administrator edits are not marked', async () => {
    const info = await admin('GET', '/auth/info');
    expect(info.json().mustChangePassword).toBe(false);
    const made = await admin('POST', '/api/users', newUserBody('first_edit', [await idOf(t, 'sys_role', '普通员工')]));
    const row = made.json();
    // an edit cannot clear (or set) the mark: it is not a writable field
    const edited = await admin('PUT', '/api/users', { ...newUserBody('first_edit', [await idOf(t, 'sys_role', '普通员工')]), id: row.id, mustChangePassword: false });
    expect(edited.statusCode).toBe(204);
    const stored = await t.app.ctx.db.selectFrom('sys_user').select('must_change_password').where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(Number(stored.must_change_password)).toBe(1);
    // and the list never shows it as a column to edit
    expect(JSON.stringify((await admin('GET', '/api/users?username=first_edit')).json().content[0])).not.toContain('passwordHash');
  });
});
