import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../src/core/db.ts';
import { verifyPassword } from '../src/core/auth/password.ts';
import { encryptLoginPassword } from '../src/core/auth/keys.ts';
import { bearer, createTestApp, login, loginResponse, type TestApp } from './helpers.ts';
import { adminToken, createCompany, createStaff, idCard } from './dispatch-fixtures.ts';
import { caller, type Caller, idOf, userWithCodes } from './system-fixtures.ts';

// 为员工开通账号 (issue 13): logins for staff from the staff list, username = ID card, job and role 普通员工,
// a one-time password in the answer only; skips with a reason; both codes needed; bad bodies are 400s.

let t: TestApp;
let admin: Caller;
let companyId: number;
let otherCompanyId: number;

const URL = '/api/accountsStaff/accounts';

beforeAll(async () => {
  t = await createTestApp();
  const token = await adminToken(t.app);
  admin = caller(t, token);
  companyId = (await createCompany(t.app, token)).id;
  otherCompanyId = (await createCompany(t.app, token)).id;
});
afterAll(async () => {
  await t?.close();
});

const countUsers = async () => Number((await t.app.ctx.db.selectFrom('sys_user').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

async function addPayslip(card: string, name: string, month: string) {
  const now = nowIso();
  await t.app.ctx.db.insertInto('ac_payslip').values({ month, name, id_card: card, xuhao: 1, create_time: now, update_time: now }).execute();
}

describe('POST /api/accountsStaff/accounts', () => {
  it('creates accounts for a mix of rows, skips the others with reasons, and the new employee logs in to his own payslips', async () => {
    const token = await adminToken(t.app);
    const a = await createStaff(t.app, token, companyId, { staffName: '开通甲', idCard: idCard('1991-02-03', 21) });
    const b = await createStaff(t.app, token, companyId, { staffName: '开通乙', idCard: idCard('1992-04-05', 23), phone: '13912345678' });
    // an existing login with the same ID card (typed in lower case: names compare case-insensitively)
    const cCard = idCard('1988-08-08', 25);
    const c = await createStaff(t.app, token, companyId, { staffName: '已有账号', idCard: cCard });
    const role = await idOf(t, 'sys_role', '普通员工');
    const existing = await admin('POST', '/api/users', {
      username: cCard.toLowerCase(),
      cname: '已有账号',
      email: 'existing-staff@example.com',
      phone: '13812345678',
      enabled: true,
      dept: { id: 1 },
      job: { id: 1 },
      roles: [{ id: role }],
    });
    expect(existing.statusCode).toBe(201);
    // a row without an ID card (older data: the column is required now, empty then)
    const d = await createStaff(t.app, token, companyId, { staffName: '无身份证', idCard: idCard('1985-01-01', 27) });
    await t.app.ctx.db.updateTable('accounts_staff').set({ id_card: '' }).where('id', '=', d.id).execute();
    // the same person on a second company's list: one account only
    const aAgain = await createStaff(t.app, token, otherCompanyId, { staffName: '开通甲', idCard: a.idCard });

    const before = await countUsers();
    const res = await admin('POST', URL, { ids: [a.id, b.id, c.id, d.id, aAgain.id, 987654321, a.id] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('已开通2个账号，跳过4人');
    expect(body.created.map((x: { staffId: number }) => x.staffId)).toEqual([a.id, b.id]);
    expect(body.created[0]).toMatchObject({ staffName: '开通甲', username: a.idCard });
    expect(body.skipped).toEqual([
      { staffId: c.id, staffName: '已有账号', reasonCode: 'ACCOUNT_EXISTS', reason: '账号已存在' },
      { staffId: d.id, staffName: '无身份证', reasonCode: 'NO_ID_CARD', reason: '没有身份证号' },
      { staffId: aAgain.id, staffName: '开通甲', reasonCode: 'ACCOUNT_EXISTS', reason: '账号已存在' },
      { staffId: 987654321, staffName: null, reasonCode: 'NOT_FOUND', reason: '员工不存在或无权访问' },
    ]);
    expect(await countUsers()).toBe(before + 2);
    for (const x of body.created) {
      expect(x.password).toMatch(/^[A-HJ-NP-Za-km-z2-9]{12}$/);
      expect(x.password).toMatch(/\d/);
    }
    expect(body.created[0].password).not.toBe(body.created[1].password);

    // stored hashed, with job and role 普通员工, enabled, in the 普通员工 job's department
    const db = t.app.ctx.db;
    const row = await db.selectFrom('sys_user').selectAll().where('username', '=', a.idCard).executeTakeFirstOrThrow();
    expect(row.password_hash).not.toContain(body.created[0].password);
    expect(await verifyPassword(String(row.password_hash), body.created[0].password)).toBe(true);
    expect(row).toMatchObject({ cname: '开通甲', email: null });
    expect(Number(row.enabled)).toBe(1);
    const job = await db.selectFrom('sys_job').select(['id', 'dept_id']).where('name', '=', '普通员工').executeTakeFirstOrThrow();
    expect(Number(row.job_id)).toBe(Number(job.id));
    expect(Number(row.dept_id)).toBe(Number(job.dept_id));
    const roles = await db.selectFrom('sys_users_roles').select('role_id').where('user_id', '=', row.id as number).execute();
    expect(roles.map((r) => Number(r.role_id))).toEqual([role]);
    const rowB = await db.selectFrom('sys_user').select('phone').where('username', '=', b.idCard).executeTakeFirstOrThrow();
    expect(rowB.phone).toBe('13912345678');
    // the users screen lists them like any other account (no e-mail is fine)
    const listed = await admin('GET', `/api/users?blurry=${a.idCard}`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().content).toMatchObject([{ username: a.idCard, cname: '开通甲', enabled: true, job: { name: '普通员工' }, roles: [{ id: role }] }]);

    // the password is nowhere in the operation log
    const logs = await db.selectFrom('sys_log').select(['description', 'params']).where('description', '=', '为员工开通账号').execute();
    expect(logs.length).toBeGreaterThan(0);
    for (const l of logs) for (const x of body.created) expect(String(l.params)).not.toContain(x.password);

    // the employee logs in with the shown password, is an ordinary employee and sees only his own payslips
    await addPayslip(a.idCard, '开通甲', '2026-01');
    await addPayslip(b.idCard, '开通乙', '2026-01');
    const firstToken = await login(t.app, a.idCard, body.created[0].password);
    const first = await t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(firstToken) });
    expect(first.statusCode).toBe(200);
    expect(first.json().mustChangePassword).toBe(true);
    // the one-time password opens nothing but its own change (U23)
    const blocked = await t.app.inject({ method: 'GET', url: '/api/acPayslip', headers: bearer(firstToken) });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().code).toBe('PASSWORD_CHANGE_REQUIRED');
    const pk = t.app.ctx.keys.rsaPublicKeyPem;
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/users/updatePass',
      headers: bearer(firstToken),
      payload: { oldPass: encryptLoginPassword(pk, body.created[0].password), newPass: encryptLoginPassword(pk, 'Own-Choice-2026') },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const employeeToken = await login(t.app, a.idCard, 'Own-Choice-2026');
    const info = await t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(employeeToken) });
    expect(info.statusCode).toBe(200);
    expect(info.json().mustChangePassword).toBe(false);
    expect(JSON.stringify(info.json())).toContain('普通员工');
    const slips = await t.app.inject({ method: 'GET', url: '/api/acPayslip', headers: bearer(employeeToken) });
    expect(slips.statusCode).toBe(200);
    expect(slips.json().totalElements).toBe(1);
    expect(slips.json().content[0]).toMatchObject({ idCard: a.idCard, name: '开通甲' });
    const peek = await t.app.inject({ method: 'GET', url: `/api/acPayslip?idCard=${b.idCard}`, headers: bearer(employeeToken) });
    expect(peek.json().totalElements).toBe(0);
    // ... and may not open logins himself
    expect((await t.app.inject({ method: 'POST', url: URL, headers: bearer(employeeToken), payload: { ids: [b.id] } })).statusCode).toBe(403);

    // a second run creates nothing new and changes no password
    const again = await admin('POST', URL, { ids: [a.id, b.id] });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ message: '已开通0个账号，跳过2人', created: [] });
    expect(again.json().skipped.map((s: { reasonCode: string }) => s.reasonCode)).toEqual(['ACCOUNT_EXISTS', 'ACCOUNT_EXISTS']);
    expect(await countUsers()).toBe(before + 2);
    expect((await loginResponse(t.app, a.idCard, 'Own-Choice-2026')).statusCode).toBe(200);
    expect((await loginResponse(t.app, b.idCard, body.created[1].password)).statusCode).toBe(200);
  });

  it('an employee login is edited and locked in 用户管理 without an e-mail; other jobs still need one (U6)', async () => {
    const token = await adminToken(t.app);
    const s = await createStaff(t.app, token, companyId, { staffName: '离职锁定', idCard: idCard('1990-06-06', 31) });
    const made = await admin('POST', URL, { ids: [s.id] });
    expect(made.json().created).toHaveLength(1);
    const listed = (await admin('GET', `/api/users?blurry=${s.idCard}`)).json().content[0];
    expect(listed.email).toBeNull();
    const body = {
      id: listed.id,
      username: listed.username,
      cname: listed.cname,
      phone: listed.phone,
      email: '',
      enabled: false,
      dept: { id: listed.dept.id },
      job: { id: listed.job.id },
      roles: listed.roles.map((r: { id: number }) => ({ id: r.id })),
    };
    const locked = await admin('PUT', '/api/users', body);
    expect(locked.statusCode, locked.body).toBe(204);
    const row = await t.app.ctx.db.selectFrom('sys_user').select(['enabled', 'email']).where('id', '=', listed.id).executeTakeFirstOrThrow();
    expect(Number(row.enabled)).toBe(0);
    expect(row.email).toBeNull();
    // moved to another job, the login needs an e-mail again (the spec's rule for every other user)
    const otherJob = await t.app.ctx.db.selectFrom('sys_job').select(['id', 'dept_id']).where('name', '!=', '普通员工').orderBy('id').executeTakeFirstOrThrow();
    const moved = await admin('PUT', '/api/users', { ...body, dept: { id: Number(otherJob.dept_id ?? listed.dept.id) }, job: { id: Number(otherJob.id) } });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({ message: '请输入邮箱地址', fieldErrors: { email: '请输入邮箱地址' } });
    const created = await admin('POST', '/api/users', { ...body, id: undefined, username: 'no-mail-clerk', job: { id: Number(otherJob.id) }, dept: { id: Number(otherJob.dept_id ?? listed.dept.id) } });
    expect(created.statusCode).toBe(400);
    expect(created.json().fieldErrors).toMatchObject({ email: '请输入邮箱地址' });
  });

  it('needs a user-creation code and a staff-reading code (403 otherwise) and keeps to the staff data scope', async () => {
    const token = await adminToken(t.app);
    const s = await createStaff(t.app, token, companyId, { staffName: '权限测试', idCard: idCard('1993-03-03', 31) });
    const onlyUsers = await userWithCodes(t, ['USER_CREATE']);
    const onlyStaff = await userWithCodes(t, ['ACCOUNTSSTAFF_SELECT']);
    const none = await userWithCodes(t, []);
    const r1 = await onlyUsers.call('POST', URL, { ids: [s.id] });
    expect(r1.statusCode).toBe(403);
    expect(r1.json().message).toBe('没有查看员工的权限，不能为员工开通账号');
    expect((await onlyStaff.call('POST', URL, { ids: [s.id] })).statusCode).toBe(403);
    expect((await none.call('POST', URL, { ids: [s.id] })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: URL, payload: { ids: [s.id] } })).statusCode).toBe(401);

    // a level-3 caller does not rank above the 普通员工 role (level 3): the users module's rule
    const low = await userWithCodes(t, ['USER_ALL', 'ACCOUNTSSTAFF_ALL'], { level: 3 });
    const r2 = await low.call('POST', URL, { ids: [s.id] });
    expect(r2.statusCode).toBe(403);
    expect(r2.json().message).toBe('角色权限不足');

    // both codes, but a 自定义 data scope of the job's department only: the company (head office's) is out of sight
    const job = await t.app.ctx.db.selectFrom('sys_job').select('dept_id').where('name', '=', '普通员工').executeTakeFirstOrThrow();
    const narrow = await userWithCodes(t, ['USER_CREATE', 'ACCOUNTSSTAFF_SELECT'], { dataScope: '自定义', depts: [Number(job.dept_id)] });
    const company = await t.app.ctx.db.selectFrom('accounts_company').select('dept_id').where('id', '=', companyId).executeTakeFirstOrThrow();
    expect(company.dept_id === null || Number(company.dept_id) !== Number(job.dept_id)).toBe(true);
    const before = await countUsers();
    const r3 = await narrow.call('POST', URL, { ids: [s.id] });
    expect(r3.statusCode).toBe(200);
    expect(r3.json()).toMatchObject({ created: [], skipped: [{ staffId: s.id, staffName: null, reasonCode: 'NOT_FOUND' }] });
    expect(await countUsers()).toBe(before);

    // both codes and the whole scope: created
    const full = await userWithCodes(t, ['USER_CREATE', 'ACCOUNTSSTAFF_SELECT']);
    const r4 = await full.call('POST', URL, { ids: [s.id] });
    expect(r4.statusCode).toBe(200);
    expect(r4.json()).toMatchObject({ message: '已开通1个账号', created: [{ staffId: s.id, username: s.idCard }], skipped: [] });
  });

  it('answers 400 with a clear message for bad bodies', async () => {
    const cases: [unknown, string][] = [
      [{ ids: [] }, '请选择要开通账号的员工'],
      [{}, '请选择要开通账号的员工'],
      [{ ids: 'all' }, '请选择要开通账号的员工'],
      [{ ids: Array.from({ length: 501 }, (_, i) => i + 1) }, '一次最多为500名员工开通账号'],
      [{ ids: ['abc'] }, '员工ID必须是正整数'],
      [{ ids: ['1\u0000'] }, '员工ID必须是正整数'],
      [{ ids: [0] }, '员工ID必须是正整数'],
      [{ ids: [1.5] }, '员工ID必须是正整数'],
      [{ ids: [2 ** 31] }, '员工ID必须是正整数'],
      [{ ids: [null] }, '员工ID必须是正整数'],
      [[1, 2], '请求体必须是JSON对象'],
    ];
    const before = await countUsers();
    for (const [payload, message] of cases) {
      const res = await admin('POST', URL, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
      expect(res.json().message, JSON.stringify(payload).slice(0, 40)).toBe(message);
    }
    const nul = await t.app.inject({ method: 'POST', url: URL, headers: { ...bearer(await adminToken(t.app)), 'content-type': 'application/json' }, payload: '{"ids":["\\u0000"]}' });
    expect(nul.statusCode).toBe(400);
    const english = await t.app.inject({ method: 'POST', url: URL, headers: { ...bearer(await adminToken(t.app)), 'accept-language': 'en' }, payload: { ids: [] } });
    expect(english.json().message).toBe('Please choose the staff to open logins for');
    expect(await countUsers()).toBe(before);
  });

  it('says so when the 普通员工 role is missing, instead of creating half-made accounts', async () => {
    const token = await adminToken(t.app);
    const s = await createStaff(t.app, token, companyId, { staffName: '缺角色', idCard: idCard('1994-04-04', 41) });
    const db = t.app.ctx.db;
    await db.updateTable('sys_role').set({ name: '普通员工（停用）' }).where('name', '=', '普通员工').execute();
    try {
      const res = await admin('POST', URL, { ids: [s.id] });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('系统中没有“普通员工”角色，请先在角色管理中添加');
    } finally {
      await db.updateTable('sys_role').set({ name: '普通员工' }).where('name', '=', '普通员工（停用）').execute();
    }
    expect(await db.selectFrom('sys_user').select('id').where('username', '=', s.idCard).executeTakeFirst()).toBeUndefined();
  });
});
