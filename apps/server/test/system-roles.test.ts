import { dynamicDb } from '../src/core/db.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';
import { adminCaller, type Caller, createRole, createUser, idOf, userWithCodes } from './system-fixtures.ts';

let t: TestApp;
let admin: Caller;
let superRole: number;
let employeeRole: number;
let business: number;
let adminPermission: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminCaller(t);
  superRole = await idOf(t, 'sys_role', '超级管理员');
  employeeRole = await idOf(t, 'sys_role', '普通员工');
  business = await idOf(t, 'sys_dept', '业务部');
  adminPermission = await idOf(t, 'sys_permission', 'ADMIN');
});
afterAll(async () => {
  await t.close();
});

const permissionId = (code: string) => idOf(t, 'sys_permission', code);

describe('role CRUD', () => {
  it('lists by level ascending, filters by blurry name/remark, and reads one role with its relations', async () => {
    const list = await admin('GET', '/api/roles');
    expect(list.statusCode).toBe(200);
    const levels = list.json().content.map((r: { level: number }) => r.level);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    expect((await admin('GET', `/api/roles?blurry=${encodeURIComponent('本人工资条')}`)).json().content.map((r: { name: string }) => r.name)).toEqual(['普通员工']);
    const one = (await admin('GET', `/api/roles/${employeeRole}`)).json();
    expect(one).toMatchObject({ id: employeeRole, name: '普通员工', level: 3, dataScope: '本级' });
    expect(one.permissions).toEqual([expect.objectContaining({ id: await permissionId('ACPAYSLIP_SELECT') })]);
    expect(one.menus.length).toBeGreaterThan(0);
    for (const m of one.menus) expect(Object.keys(m).sort()).toEqual(['id', 'pid']);
    expect(one.depts).toEqual([]);
  });

  it('creates with defaults and validation, needs departments for 自定义, and stores them', async () => {
    const noName = await admin('POST', '/api/roles', { level: 3 });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toBe('请输入名称');
    expect((await admin('POST', '/api/roles', { name: 'lv0', level: 0 })).json().message).toBe('角色级别不能小于1');
    const custom = await admin('POST', '/api/roles', { name: '自定义角色', dataScope: '自定义' });
    expect(custom.statusCode).toBe(400);
    expect(custom.json().message).toBe('自定义数据权限不能为空');
    expect((await admin('POST', '/api/roles', { name: 'bad scope', dataScope: '部分' })).statusCode).toBe(400);

    const created = await admin('POST', '/api/roles', { name: '默认角色' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: '默认角色', level: 3, dataScope: '本级' });

    const withDepts = await admin('POST', '/api/roles', { name: '业务数据', dataScope: '自定义', depts: [{ id: business }], remark: '只看业务部' });
    expect(withDepts.statusCode).toBe(201);
    expect(withDepts.json().depts).toEqual([{ id: business, name: '业务部' }]);
    // Switching away from 自定义 drops the departments.
    const put = await admin('PUT', '/api/roles', { id: withDepts.json().id, name: '业务数据', level: 3, dataScope: '本级', depts: [{ id: business }] });
    expect(put.statusCode).toBe(204);
    expect((await admin('GET', `/api/roles/${withDepts.json().id}`)).json().depts).toEqual([]);

    const dup = await admin('POST', '/api/roles', { name: '默认角色' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('角色名称已存在');
  });

  it('refuses to delete a role users still hold, deletes an unused one with its links', async () => {
    await createUser(t, { username: 'employee_holder', roleIds: [employeeRole] });
    const busy = await admin('DELETE', `/api/roles/${employeeRole}`);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe('所选角色存在用户关联，请解除关联再试！');
    const role = await createRole(t, { name: '待删除', codes: ['DICT_SELECT'], depts: [business], menus: [await idOf(t, 'sys_menu', '工资条')] });
    expect((await admin('DELETE', `/api/roles/${role}`)).statusCode).toBe(200);
    for (const table of ['sys_roles_menus', 'sys_roles_permissions', 'sys_roles_depts']) {
      expect(await dynamicDb(t.app.ctx.db).selectFrom(table).select('role_id').where('role_id', '=', role).execute()).toHaveLength(0);
    }
  });

  it('GET /api/roles/level answers the caller level; /api/roles/all is open to user managers', async () => {
    expect((await admin('GET', '/api/roles/level')).json()).toEqual({ level: 1 });
    const userManager = await userWithCodes(t, ['USER_EDIT'], { level: 2 });
    expect((await userManager.call('GET', '/api/roles/level')).json()).toEqual({ level: 2 });
    const all = await userManager.call('GET', '/api/roles/all');
    expect(all.statusCode).toBe(200);
    expect(all.json().map((r: { name: string }) => r.name)).toEqual(expect.arrayContaining(['超级管理员', '普通员工']));
    expect((await userManager.call('GET', '/api/roles')).statusCode).toBe(403);
  });
});

describe('menu and permission assignment', () => {
  it('replaces the whole set', async () => {
    const role = await createRole(t, { name: '分配测试', codes: ['DICT_SELECT', 'DICT_EDIT'] });
    const [a, b] = [await idOf(t, 'sys_menu', '工资条'), await idOf(t, 'sys_menu', '系统管理')];
    expect((await admin('PUT', '/api/roles/menu', { id: role, menus: [{ id: a }, { id: b }] })).statusCode).toBe(204);
    expect((await admin('PUT', '/api/roles/menu', { id: role, menus: [{ id: b }] })).statusCode).toBe(204);
    expect((await admin('GET', `/api/roles/${role}`)).json().menus.map((m: { id: number }) => m.id)).toEqual([b]);

    const user = await permissionId('USER_SELECT');
    expect((await admin('PUT', '/api/roles/permission', { id: role, permissions: [{ id: user }] })).statusCode).toBe(204);
    expect((await admin('GET', `/api/roles/${role}`)).json().permissions.map((p: { id: number }) => p.id)).toEqual([user]);
    expect((await admin('PUT', '/api/roles/permission', { id: role, permissions: [] })).statusCode).toBe(204);
    expect((await admin('GET', `/api/roles/${role}`)).json().permissions).toEqual([]);
  });

  it('validates the body and the ids, writing nothing on failure', async () => {
    const role = await createRole(t, { name: '校验测试', codes: ['DICT_SELECT'] });
    expect((await admin('PUT', '/api/roles/permission', { id: role, permissions: [{ id: 'x' }] })).statusCode).toBe(400);
    expect((await admin('PUT', '/api/roles/permission', { id: role, permissions: 'USER_ALL' })).statusCode).toBe(400);
    const missing = await admin('PUT', '/api/roles/permission', { id: role, permissions: [{ id: await permissionId('DICT_EDIT') }, { id: 987654 }] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('权限不存在: 987654');
    expect((await admin('GET', `/api/roles/${role}`)).json().permissions.map((p: { name: string }) => p.name)).toEqual(['DICT_SELECT']);
    expect((await admin('PUT', '/api/roles/menu', { id: 987654, menus: [] })).statusCode).toBe(404);
    expect((await admin('PUT', '/api/roles/menu', { menus: [] })).statusCode).toBe(400);
  });

  it('only ROLES_EDIT / ROLES_ALL holders assign', async () => {
    const role = await createRole(t, { name: '权限守卫', level: 5 });
    const reader = await userWithCodes(t, ['ROLES_SELECT'], { level: 2 });
    expect((await reader.call('PUT', '/api/roles/menu', { id: role, menus: [] })).statusCode).toBe(403);
    const editor = await userWithCodes(t, ['ROLES_EDIT'], { level: 2 });
    expect((await editor.call('PUT', '/api/roles/menu', { id: role, menus: [] })).statusCode).toBe(204);
  });
});

describe('role levels and ADMIN', () => {
  let editor: Awaited<ReturnType<typeof userWithCodes>>;
  let peer: number;
  let lower: number;
  beforeAll(async () => {
    editor = await userWithCodes(t, ['ROLES_ALL', 'DICT_SELECT'], { level: 2 });
    peer = await createRole(t, { name: '二级角色', level: 2 });
    lower = await createRole(t, { name: '三级角色', level: 3, codes: ['DICT_SELECT'] });
  });

  it('nobody creates a role at or above their own level (level 1 excepted)', async () => {
    for (const level of [1, 2]) {
      const res = await editor.call('POST', '/api/roles', { name: `too-high-${level}`, level });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('角色权限不足');
    }
    expect((await editor.call('POST', '/api/roles', { name: 'fine-3', level: 3 })).statusCode).toBe(201);
    expect((await admin('POST', '/api/roles', { name: 'top-1', level: 1 })).statusCode).toBe(201);
  });

  it('nobody edits, assigns to or deletes a role at or above their own level', async () => {
    expect((await editor.call('PUT', '/api/roles', { id: peer, name: '二级角色', level: 3, dataScope: '全部' })).statusCode).toBe(403);
    expect((await editor.call('PUT', '/api/roles', { id: superRole, name: '超级管理员', level: 5, dataScope: '全部' })).statusCode).toBe(403);
    expect((await editor.call('PUT', '/api/roles/menu', { id: peer, menus: [] })).statusCode).toBe(403);
    expect((await editor.call('PUT', '/api/roles/permission', { id: peer, permissions: [] })).statusCode).toBe(403);
    expect((await editor.call('DELETE', `/api/roles/${peer}`)).statusCode).toBe(403);
    expect((await editor.call('DELETE', `/api/roles/${editor.roleId}`)).statusCode).toBe(403);
    // Lifting a lower role to one's own level is editing it into a forbidden level.
    expect((await editor.call('PUT', '/api/roles', { id: lower, name: '三级角色', level: 2, dataScope: '全部' })).statusCode).toBe(403);
    expect((await editor.call('PUT', '/api/roles', { id: lower, name: '三级角色(改)', level: 4, dataScope: '全部' })).statusCode).toBe(204);
    const peerRow = (await admin('GET', `/api/roles/${peer}`)).json();
    expect(peerRow).toMatchObject({ name: '二级角色', level: 2 });
  });

  it('nobody grants or removes ADMIN without holding it', async () => {
    const grant = await editor.call('PUT', '/api/roles/permission', { id: lower, permissions: [{ id: adminPermission }] });
    expect(grant.statusCode).toBe(403);
    expect((await admin('GET', `/api/roles/${lower}`)).json().permissions.map((p: { name: string }) => p.name)).toEqual(['DICT_SELECT']);
    expect((await admin('PUT', '/api/roles/permission', { id: lower, permissions: [{ id: adminPermission }] })).statusCode).toBe(204);
    const remove = await editor.call('PUT', '/api/roles/permission', { id: lower, permissions: [] });
    expect(remove.statusCode).toBe(403);
    expect((await admin('PUT', '/api/roles/permission', { id: lower, permissions: [] })).statusCode).toBe(204);
  });

  it('nobody without ADMIN grants a permission code they do not hold themselves', async () => {
    const grant = await editor.call('PUT', '/api/roles/permission', { id: lower, permissions: [{ id: await permissionId('DICT_SELECT') }, { id: await permissionId('USER_ALL') }] });
    expect(grant.statusCode).toBe(403);
    expect(grant.json().message).toBe('不能授予自己没有的权限：USER_ALL');
    expect((await admin('GET', `/api/roles/${lower}`)).json().permissions).toEqual([]);
    // Codes the role already has may stay (and be removed) even when the editor lacks them.
    expect((await admin('PUT', '/api/roles/permission', { id: lower, permissions: [{ id: await permissionId('DICT_SELECT') }, { id: await permissionId('USER_ALL') }] })).statusCode).toBe(204);
    expect((await editor.call('PUT', '/api/roles/permission', { id: lower, permissions: [{ id: await permissionId('USER_ALL') }] })).statusCode).toBe(204);
    expect((await editor.call('PUT', '/api/roles/permission', { id: lower, permissions: [] })).statusCode).toBe(204);
    expect((await editor.call('PUT', '/api/roles/permission', { id: lower, permissions: [{ id: await permissionId('DICT_SELECT') }] })).statusCode).toBe(204);
    // ROLES_ALL covers the single role actions.
    expect((await editor.call('PUT', '/api/roles/permission', { id: lower, permissions: [{ id: await permissionId('DICT_SELECT') }, { id: await permissionId('ROLES_SELECT') }] })).statusCode).toBe(204);
  });

  it('a scoped editor cannot widen data scopes beyond its own', async () => {
    const scoped = await userWithCodes(t, ['ROLES_ALL'], { level: 2, dataScope: '自定义', depts: [business] });
    expect((await scoped.call('POST', '/api/roles', { name: 'wide', level: 3, dataScope: '全部' })).statusCode).toBe(403);
    const hr = await idOf(t, 'sys_dept', '人力资源部');
    expect((await scoped.call('POST', '/api/roles', { name: 'other dept', level: 3, dataScope: '自定义', depts: [{ id: hr }] })).statusCode).toBe(403);
    expect((await scoped.call('POST', '/api/roles', { name: 'own dept', level: 3, dataScope: '自定义', depts: [{ id: business }] })).statusCode).toBe(201);
  });

  it('a manageable role still held by users is not deleted', async () => {
    await createUser(t, { username: 'holder', roleIds: [lower] });
    expect((await editor.call('DELETE', `/api/roles/${lower}`)).statusCode).toBe(409);
    expect((await admin('GET', `/api/roles/${lower}`)).statusCode).toBe(200);
  });
});
