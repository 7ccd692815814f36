import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginResponse, type TestApp } from './helpers.ts';
import { adminCaller, type Caller, createRole, createUser, idOf, newUserBody, userWithCodes } from './system-fixtures.ts';

let t: TestApp;
let admin: Caller;
let ids: { superRole: number; adminRole: number; employeeRole: number; head: number; business: number; dispatched: number; hr: number; hrJob: number };

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminCaller(t);
  ids = {
    superRole: await idOf(t, 'sys_role', '超级管理员'),
    adminRole: await idOf(t, 'sys_role', '普通管理员'),
    employeeRole: await idOf(t, 'sys_role', '普通员工'),
    head: await idOf(t, 'sys_dept', '总公司'),
    business: await idOf(t, 'sys_dept', '业务部'),
    dispatched: await idOf(t, 'sys_dept', '派遣员工'),
    hr: await idOf(t, 'sys_dept', '人力资源部'),
    hrJob: await idOf(t, 'sys_job', '人事专员'),
  };
});
afterAll(async () => {
  await t.close();
});

describe('creating users', () => {
  it('returns 201 with the row and a generated password once; the new user can log in with it', async () => {
    const res = await admin('POST', '/api/users', newUserBody('zhangsan', [ids.employeeRole], ids.business, ids.hrJob));
    expect(res.statusCode).toBe(201);
    const row = res.json();
    expect(row).toMatchObject({
      username: 'zhangsan',
      email: 'zhangsan@example.com',
      enabled: true,
      dept: { id: ids.business, name: '业务部' },
      job: { id: ids.hrJob, name: '人事专员' },
      roles: [{ id: ids.employeeRole, name: '普通员工', level: 3 }],
    });
    expect(row.defaultPassword).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(JSON.stringify(row)).not.toMatch(/passwordHash|password_hash|argon2/);
    const again = await admin('GET', `/api/users/${row.id}`);
    expect(again.statusCode).toBe(200);
    expect(again.json().defaultPassword).toBeUndefined();
    expect(JSON.stringify(again.json())).not.toMatch(/argon2/);
    const stored = await t.app.ctx.db.selectFrom('sys_user').select('password_hash').where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
    expect((await loginResponse(t.app, 'zhangsan', row.defaultPassword)).statusCode).toBe(200);
  });

  it('validates every field with the spec messages and writes nothing on failure', async () => {
    const before = await countUsers();
    const cases: [Record<string, unknown>, string][] = [
      [{ username: 'a' }, '长度在 2 到 20 个字符'],
      [{ username: 'a'.repeat(21) }, '长度在 2 到 20 个字符'],
      [{ cname: '张' }, '长度在 2 到 20 个字符'],
      [{ email: 'not-an-email' }, '请输入正确的邮箱地址'],
      [{ email: '' }, '请输入邮箱地址'],
      [{ phone: '' }, '请输入电话号码'],
      [{ phone: '12345678901' }, '请输入正确的11位手机号码'],
      [{ phone: '1381234567' }, '请输入正确的11位手机号码'],
      [{ dept: undefined }, '部门不能为空'],
      [{ job: undefined }, '岗位不能为空'],
      [{ roles: [] }, '角色不能为空'],
      [{ roles: undefined }, '角色不能为空'],
      [{ roles: [{ id: 999999 }] }, '角色不存在: 999999'],
      [{ dept: { id: 999999 } }, '部门不存在'],
    ];
    for (const [patch, message] of cases) {
      const res = await admin('POST', '/api/users', { ...newUserBody('valid_name', [ids.employeeRole]), ...patch });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().message, JSON.stringify(patch)).toBe(message);
    }
    expect(await countUsers()).toBe(before);
  });

  it('refuses duplicate usernames (whatever the case) and e-mails with 409', async () => {
    expect((await admin('POST', '/api/users', newUserBody('lisi', [ids.employeeRole]))).statusCode).toBe(201);
    const sameName = await admin('POST', '/api/users', { ...newUserBody('LiSi', [ids.employeeRole]), email: 'other@example.com' });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json().message).toBe('用户名已存在');
    const sameEmail = await admin('POST', '/api/users', { ...newUserBody('lisi2', [ids.employeeRole]), email: 'LISI@example.com' });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().message).toBe('邮箱已被其他用户使用');
  });

  it('ignores server-managed fields sent by the client (no mass assignment)', async () => {
    const res = await admin('POST', '/api/users', { ...newUserBody('wangwu', [ids.employeeRole]), passwordHash: 'x', password_hash: 'x', avatar: '../../etc/passwd', tokenVersion: 99 });
    expect(res.statusCode).toBe(201);
    const row = await t.app.ctx.db.selectFrom('sys_user').selectAll().where('id', '=', res.json().id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.avatar).toBeNull();
    expect(Number(row.token_version)).toBe(0);
  });
});

describe('updating and deleting users', () => {
  it('replaces roles, department and job with PUT (204)', async () => {
    const created = (await admin('POST', '/api/users', newUserBody('zhaoliu', [ids.employeeRole]))).json();
    const put = await admin('PUT', '/api/users', { ...newUserBody('zhaoliu', [ids.adminRole]), id: created.id, cname: '赵六', dept: { id: ids.hr } });
    expect(put.statusCode).toBe(204);
    const row = (await admin('GET', `/api/users/${created.id}`)).json();
    expect(row.cname).toBe('赵六');
    expect(row.dept).toEqual({ id: ids.hr, name: '人力资源部' });
    expect(row.roles.map((r: { id: number }) => r.id)).toEqual([ids.adminRole]);
  });

  it('nobody disables or deletes themselves', async () => {
    const me = (await admin('GET', '/api/users?username=admin&blurry=admin')).json().content[0];
    const disable = await admin('PUT', '/api/users', { ...newUserBody('admin', [ids.superRole], me.dept.id, me.job.id), id: me.id, email: me.email, enabled: false });
    expect(disable.statusCode).toBe(400);
    expect(disable.json().message).toBe('不能停用当前登录的用户');
    const del = await admin('DELETE', `/api/users/${me.id}`);
    expect(del.statusCode).toBe(400);
    expect(del.json().message).toBe('不能删除当前登录的用户');
  });

  it('deletes by id and by id array, with their role links', async () => {
    const a = (await admin('POST', '/api/users', newUserBody('del_a', [ids.employeeRole]))).json().id;
    const b = (await admin('POST', '/api/users', newUserBody('del_b', [ids.employeeRole]))).json().id;
    const c = (await admin('POST', '/api/users', newUserBody('del_c', [ids.employeeRole]))).json().id;
    expect((await admin('DELETE', `/api/users/${a}`)).statusCode).toBe(200);
    expect((await admin('DELETE', '/api/users', [b, c])).statusCode).toBe(200);
    expect((await admin('GET', `/api/users/${a}`)).statusCode).toBe(404);
    const links = await t.app.ctx.db.selectFrom('sys_users_roles').select('user_id').where('user_id', 'in', [a, b, c]).execute();
    expect(links).toHaveLength(0);
  });
});

describe('role levels', () => {
  let manager: Awaited<ReturnType<typeof userWithCodes>>;
  let peerRole: number;
  beforeAll(async () => {
    manager = await userWithCodes(t, ['USER_ALL'], { level: 2 });
    peerRole = await createRole(t, { name: '同级角色', level: 2 });
  });

  it('a level-2 user hands out only roles below level 2', async () => {
    expect((await manager.call('POST', '/api/users', newUserBody('lvl_ok', [ids.employeeRole]))).statusCode).toBe(201);
    for (const roleId of [peerRole, ids.superRole]) {
      const res = await manager.call('POST', '/api/users', newUserBody(`lvl_no${roleId}`, [roleId]));
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('角色权限不足');
    }
  });

  it('a level-2 user cannot edit or delete a user of level 2 or higher, but can one below', async () => {
    const adminId = (await admin('GET', '/api/users?blurry=admin@example.com')).json().content[0].id;
    const editAdmin = await manager.call('PUT', '/api/users', { ...newUserBody('admin', [ids.employeeRole]), id: adminId, email: 'admin@example.com' });
    expect(editAdmin.statusCode).toBe(403);
    expect((await manager.call('DELETE', `/api/users/${adminId}`)).statusCode).toBe(403);
    const peer = await createUser(t, { username: 'peer_user', roleIds: [peerRole] });
    expect((await manager.call('DELETE', `/api/users/${peer}`)).statusCode).toBe(403);
    expect((await manager.call('DELETE', '/api/users', [peer])).statusCode).toBe(403);
    const below = await createUser(t, { username: 'below_user', roleIds: [ids.employeeRole] });
    expect((await manager.call('DELETE', `/api/users/${below}`)).statusCode).toBe(200);
    expect((await admin('GET', `/api/users/${peer}`)).statusCode).toBe(200);
  });

  it('only an ADMIN holder assigns a role that carries ADMIN, whatever its level', async () => {
    const lowAdminRole = await createRole(t, { name: '低级别超管', level: 5, codes: ['ADMIN'] });
    const res = await manager.call('POST', '/api/users', newUserBody('sneaky', [lowAdminRole]));
    expect(res.statusCode).toBe(403);
    expect((await admin('POST', '/api/users', newUserBody('allowed_admin', [lowAdminRole]))).statusCode).toBe(201);
  });

  it('a user without any role cannot manage users at all', async () => {
    const nobody = await userWithCodes(t, ['USER_ALL'], { level: 2 });
    await t.app.ctx.db.deleteFrom('sys_users_roles').where('user_id', '=', nobody.id).execute();
    // Without roles the user holds no code any more: the route refuses before the level rule.
    expect((await nobody.call('POST', '/api/users', newUserBody('x_nobody', [ids.employeeRole]))).statusCode).toBe(403);
  });
});

describe('listing users', () => {
  beforeAll(async () => {
    await createUser(t, { username: 'in_business', roleIds: [ids.employeeRole], deptId: ids.business });
    await createUser(t, { username: 'in_dispatched', roleIds: [ids.employeeRole], deptId: ids.dispatched });
    await createUser(t, { username: 'in_hr_disabled', roleIds: [ids.employeeRole], deptId: ids.hr, enabled: false });
  });

  const names = (res: { json(): { content: { username: string }[] } }) => res.json().content.map((u) => u.username).sort();

  it('deptId covers the department and all departments below it', async () => {
    const business = await admin('GET', `/api/users?deptId=${ids.business}&size=100`);
    expect(business.statusCode).toBe(200);
    expect(names(business)).toEqual(expect.arrayContaining(['in_business', 'in_dispatched']));
    expect(names(business)).not.toContain('in_hr_disabled');
    expect(names(await admin('GET', `/api/users?deptId=${ids.dispatched}&size=100`))).toEqual(['in_dispatched']);
    expect((await admin('GET', '/api/users?deptId=abc')).statusCode).toBe(400);
  });

  it('filters by blurry (username or e-mail) and enabled, never returning hashes', async () => {
    const res = await admin('GET', '/api/users?blurry=in_&enabled=false&size=100');
    expect(names(res)).toEqual(['in_hr_disabled']);
    const row = res.json().content[0];
    expect(row.roles).toEqual([{ id: ids.employeeRole, name: '普通员工', level: 3 }]);
    expect(row.dept).toEqual({ id: ids.hr, name: '人力资源部' });
    expect(JSON.stringify(res.json())).not.toMatch(/argon2|passwordHash/);
    expect(names(await admin('GET', '/api/users?blurry=in_dispatched@fixture&size=100'))).toEqual(['in_dispatched']);
  });

  it('applies the data scope: 本级 sees its own department, 自定义 its departments and below, an empty 自定义 nothing', async () => {
    const own = await userWithCodes(t, ['USER_SELECT'], { dataScope: '本级', deptId: ids.hr });
    const ownNames = names(await own.call('GET', '/api/users?size=100'));
    expect(ownNames).toContain('in_hr_disabled');
    expect(ownNames).not.toContain('in_business');

    const custom = await userWithCodes(t, ['USER_SELECT'], { dataScope: '自定义', depts: [ids.business], deptId: ids.hr });
    const customNames = names(await custom.call('GET', '/api/users?size=100'));
    expect(customNames).toEqual(expect.arrayContaining(['in_business', 'in_dispatched']));
    expect(customNames).not.toContain('in_hr_disabled');
    expect(customNames).not.toContain('admin');
    // deptId narrows within the scope; outside it there is nothing.
    expect(names(await custom.call('GET', `/api/users?deptId=${ids.dispatched}`))).toEqual(['in_dispatched']);
    expect((await custom.call('GET', `/api/users?deptId=${ids.hr}`)).json().totalElements).toBe(0);

    const empty = await userWithCodes(t, ['USER_ALL'], { dataScope: '自定义', depts: [] });
    const list = await empty.call('GET', '/api/users?size=100');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ content: [], totalElements: 0 });
    const someone = (await admin('GET', '/api/users?blurry=in_business')).json().content[0].id;
    expect((await empty.call('GET', `/api/users/${someone}`)).statusCode).toBe(404);
    expect((await empty.call('DELETE', `/api/users/${someone}`)).statusCode).toBe(404);
    // ...and cannot place a user in a department it cannot see.
    expect((await empty.call('POST', '/api/users', newUserBody('scoped_new', [ids.employeeRole], ids.business))).statusCode).toBe(403);
  });
});

describe('export', () => {
  it('streams an xlsx with the spec headers to ADMIN holders only, formulas neutralised', async () => {
    await createUser(t, { username: '=HYPERLINK("x")', roleIds: [ids.employeeRole], email: 'formula@fixture.test' });
    const res = await admin('GET', '/api/users/download');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('用户数据')}.xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as never);
    const sheet = wb.worksheets[0];
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['用户名', '中文名', '邮箱', '手机号码', '状态', '部门', '岗位', '角色', '最后修改密码的时间', '创建日期']);
    const cells: ExcelJS.Cell[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) cells.push(row.getCell(1));
    });
    const evil = cells.find((c) => String(c.value).startsWith('=HYPERLINK'));
    expect(evil).toBeDefined();
    expect(evil!.type).toBe(ExcelJS.ValueType.String);
    expect(evil!.formula).toBeUndefined();
    expect(evil!.numFmt).toBe('@');
    expect(sheet.rowCount - 1).toBe(await countUsers());

    const manager = await userWithCodes(t, ['USER_ALL']);
    expect((await manager.call('GET', '/api/users/download')).statusCode).toBe(403);
  });
});

async function countUsers(): Promise<number> {
  const r = await t.app.ctx.db
    .selectFrom('sys_user')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
