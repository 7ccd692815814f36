import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptLoginPassword } from '../src/core/auth/keys.ts';
import { createTestApp, DEV_ADMIN_PASSWORD, loginResponse, type TestApp } from './helpers.ts';
import { adminCaller, type Caller, caller, createUser, FIXTURE_PASSWORD, idOf, newUserBody, tokenFor, userWithCodes } from './system-fixtures.ts';

let t: TestApp;
let admin: Caller;
const secrets: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminCaller(t);
});
afterAll(async () => {
  await t.close();
});

async function allParams(): Promise<string> {
  const rows = await t.app.ctx.db.selectFrom('sys_log').select(['params', 'exception_detail']).execute();
  return rows.map((r) => `${r.params ?? ''}\n${r.exception_detail ?? ''}`).join('\n');
}

describe('what gets logged', () => {
  it('logins and every mutating call write a row, with passwords masked (plain and encrypted)', async () => {
    const pk = t.app.ctx.keys.rsaPublicKeyPem;
    const res = await loginResponse(t.app, 'admin', DEV_ADMIN_PASSWORD);
    expect(res.statusCode).toBe(200);
    await loginResponse(t.app, 'admin', 'Wrong-Password-123');
    secrets.push(DEV_ADMIN_PASSWORD, 'Wrong-Password-123');

    const created = (await admin('POST', '/api/users', newUserBody('logged_user', [await idOf(t, 'sys_role', '普通员工')]))).json();
    secrets.push(created.defaultPassword);
    const self = caller(t, (await loginResponse(t.app, 'logged_user', created.defaultPassword)).json().token);
    const oldCipher = encryptLoginPassword(pk, created.defaultPassword);
    const newCipher = encryptLoginPassword(pk, 'Brand-New-Pass9');
    secrets.push('Brand-New-Pass9', oldCipher, newCipher);
    expect((await self('POST', '/api/users/updatePass/', { oldPass: oldCipher, newPass: newCipher })).statusCode).toBe(200);

    const again = caller(t, (await loginResponse(t.app, 'logged_user', 'Brand-New-Pass9')).json().token);
    expect((await again('POST', '/api/code/resetEmail', { type: 'email', value: 'logged.new@example.com' })).statusCode).toBe(200);
    const code = /(\d{6})/.exec(t.mail.sent.at(-1)!.html)![1];
    const pwCipher = encryptLoginPassword(pk, 'Brand-New-Pass9');
    secrets.push(pwCipher);
    expect((await again('POST', `/api/users/updateEmail/${code}`, { email: 'logged.new@example.com', password: pwCipher })).statusCode).toBe(200);

    // Log rows are written once the response has gone out: wait for the last call's row first.
    await expect.poll(async () => (await t.app.ctx.db.selectFrom('sys_log').select('id').where('description', '=', '修改邮箱').execute()).length).toBe(1);
    const params = await allParams();
    for (const s of secrets) expect(params).not.toContain(s);
    const rows = await t.app.ctx.db.selectFrom('sys_log').selectAll().orderBy('id').execute();
    const descriptions = rows.map((r) => r.description);
    expect(descriptions).toEqual(expect.arrayContaining(['用户登录', '新增用户', '修改密码', '发送邮箱验证码', '修改邮箱']));
    // a wrong password is the user's mistake, not an exception: an operation-log row marked WARN, no stack
    const failedLogin = rows.find((r) => r.description === '用户登录' && r.log_type === 'WARN');
    expect(failedLogin).toMatchObject({ username: 'admin', exception_detail: '400 用户名或密码错误' });
    expect(failedLogin!.params).toContain('******');
    const emailChange = rows.find((r) => r.description === '修改邮箱')!;
    expect(emailChange.username).toBe('logged_user');
    expect(emailChange.method).toBe('POST /api/users/updateEmail/:code');
    expect(emailChange.params).not.toContain(code);
  });
});

describe('user mistakes are not exceptions (W11)', () => {
  it('a 400 and a 409 are WARN rows of the operation log with a one-line outcome, never a stack', async () => {
    const body = newUserBody('twice_created', [await idOf(t, 'sys_role', '普通员工')]);
    const before = (await t.app.ctx.db.selectFrom('sys_log').select('id').where('description', '=', '新增用户').execute()).length;
    expect((await admin('POST', '/api/users', body)).statusCode).toBe(201);
    const dup = await admin('POST', '/api/users', body);
    expect(dup.statusCode).toBe(409);
    expect((await admin('POST', '/api/users', { ...body, username: '' })).statusCode).toBe(400);
    await expect.poll(async () => (await t.app.ctx.db.selectFrom('sys_log').select('id').where('description', '=', '新增用户').execute()).length).toBe(before + 3);
    const rows = (await t.app.ctx.db.selectFrom('sys_log').selectAll().where('description', '=', '新增用户').orderBy('id').execute()).slice(before);
    // log rows are written after the answers, so the two refusals may land in either order
    expect(rows.map((r) => r.log_type).sort()).toEqual(['INFO', 'WARN', 'WARN']);
    expect(rows.map((r) => r.exception_detail)).toContain(`409 ${dup.json().message}`);
    for (const r of rows) expect(String(r.exception_detail ?? '')).not.toMatch(/\n\s+at /);
    const errors = (await admin('GET', `/api/logs/error?blurry=${encodeURIComponent('新增用户')}`)).json();
    expect(errors.totalElements).toBe(0);
    const operations = (await admin('GET', `/api/logs?blurry=${encodeURIComponent('新增用户')}`)).json();
    expect(operations.content.filter((r: { logType: string }) => r.logType === 'WARN')).toHaveLength(2);
  });
});

describe('reading logs', () => {
  it('GET /api/logs pages INFO rows for ADMIN only, with blurry search', async () => {
    const res = await admin('GET', '/api/logs?size=5&sort=id,asc');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.content.length).toBeLessThanOrEqual(5);
    expect(body.totalElements).toBeGreaterThan(0);
    const ids = body.content.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(Object.keys(body.content[0]).sort()).toEqual(['browser', 'createTime', 'description', 'id', 'logType', 'method', 'params', 'requestIp', 'time', 'username']);
    expect(body.content.every((r: { logType: string }) => r.logType === 'INFO' || r.logType === 'WARN')).toBe(true);
    const search = (await admin('GET', `/api/logs?blurry=${encodeURIComponent('修改邮箱')}`)).json();
    expect(search.content.map((r: { description: string }) => r.description)).toEqual(['修改邮箱']);
    const manager = await userWithCodes(t, ['USER_ALL', 'ROLES_ALL', 'DICT_ALL']);
    expect((await manager.call('GET', '/api/logs')).statusCode).toBe(403);
    expect((await manager.call('GET', '/api/logs/error')).statusCode).toBe(403);
  });

  it('errors are listed without their exception text, which comes per entry', async () => {
    // refused access is an error-log entry (without a stack); a user's mistakes are not
    const outsider = await userWithCodes(t, ['DICT_ALL']);
    expect((await outsider.call('POST', '/api/users', newUserBody('never_created', []))).statusCode).toBe(403);
    await expect.poll(async () => (await admin('GET', `/api/logs/error?blurry=${encodeURIComponent('新增用户')}`)).json().totalElements).toBe(1);
    const list = (await admin('GET', '/api/logs/error')).json();
    expect(list.content.length).toBeGreaterThan(0);
    expect(list.content.every((r: { logType: string }) => r.logType === 'ERROR')).toBe(true);
    expect(list.content.some((r: { description: string }) => r.description === '用户登录')).toBe(false);
    const row = list.content.find((r: { description: string }) => r.description === '新增用户');
    expect(row.exceptionDetail).toBeUndefined();
    expect(JSON.stringify(row)).not.toContain('exception');
    const detail = await admin('GET', `/api/logs/error/${row.id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().exception).toBe('403 没有权限执行此操作');
    const info = (await admin('GET', '/api/logs')).json().content.find((r: { logType: string }) => r.logType === 'INFO');
    expect((await admin('GET', `/api/logs/error/${info.id}`)).statusCode).toBe(404);
  });

  it('GET /api/logs/user returns only the caller’s own entries', async () => {
    const id = await createUser(t, { username: 'own_logs', roleIds: [] });
    const me = caller(t, await tokenFor(t, id));
    // a logged call of this user (refused change keeps nothing, still logged as an error, not listed)
    await me('POST', '/api/users/updatePass/', { oldPass: encryptLoginPassword(t.app.ctx.keys.rsaPublicKeyPem, FIXTURE_PASSWORD), newPass: encryptLoginPassword(t.app.ctx.keys.rsaPublicKeyPem, 'Own-Logs-Pass1') });
    const mine = caller(t, (await loginResponse(t.app, 'own_logs', 'Own-Logs-Pass1')).json().token);
    // The log row is written once the response has gone out, so the login's own row may land a moment later.
    await expect.poll(async () => (await mine('GET', '/api/logs/user')).json().content.map((r: { description: string }) => r.description).sort()).toEqual(['修改密码', '用户登录']);
    const res = await mine('GET', '/api/logs/user');
    expect(res.statusCode).toBe(200);
    const content = res.json().content;
    for (const r of content) expect(Object.keys(r).sort()).toEqual(['createTime', 'description', 'id', 'requestIp', 'time']);
    expect((await t.app.inject({ method: 'GET', url: '/api/logs/user' })).statusCode).toBe(401);
  });
});

describe('the operation log holds operations with a readable description (U11)', () => {
  it('every write route names its operation (or says it is none): no row falls back to "METHOD /path"', () => {
    const unnamed = t.app.routeTable.filter((r) => r.method !== 'GET' && r.log === undefined).map((r) => `${r.method} ${r.url}`);
    expect(unnamed).toEqual([]);
    const raw = t.app.routeTable.filter((r) => r.log && /^(GET|POST|PUT|DELETE|PATCH)\s|^\//.test(r.log)).map((r) => `${r.method} ${r.url}: ${r.log}`);
    expect(raw).toEqual([]);
  });

  it('visiting the home screen writes no log row', async () => {
    const before = (await t.app.ctx.db.selectFrom('sys_log').select('id').execute()).length;
    expect((await admin('POST', '/instrument/dataConfigList', {})).statusCode).toBe(200);
    expect((await admin('GET', '/instrument/getDataVolumeInfo')).statusCode).toBe(200);
    // a logged call after them: once its row is there, the reads' rows would be too
    await admin('POST', '/api/users', { username: '' });
    await expect.poll(async () => (await t.app.ctx.db.selectFrom('sys_log').select('id').execute()).length).toBe(before + 1);
    const rows = await t.app.ctx.db.selectFrom('sys_log').select(['description', 'method']).orderBy('id', 'desc').limit(1).execute();
    expect(rows[0].description).toBe('新增用户');
  });
});
