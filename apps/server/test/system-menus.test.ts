import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDINARY_EMPLOYEE_JOB } from '@app/shared/permissions';
import { createTestApp, type TestApp } from './helpers.ts';
import { adminCaller, type Caller, caller, createRole, createUser, idOf, tokenFor, userWithCodes } from './system-fixtures.ts';

let t: TestApp;
let admin: Caller;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminCaller(t);
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/menus/build', () => {
  it('gives an ordinary employee only the payslip page, wrapped as /acPayslip/index', async () => {
    const id = await createUser(t, { username: 'employee1', roleIds: [await idOf(t, 'sys_role', '普通员工')], jobId: await idOf(t, 'sys_job', ORDINARY_EMPLOYEE_JOB) });
    const res = await caller(t, await tokenFor(t, id))('GET', '/api/menus/build');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        path: '/acPayslip',
        hidden: false,
        component: 'Layout',
        children: [{ path: 'index', name: '工资条', component: 'salary/acPayslip/index', meta: { title: '工资条', icon: 'ProfileOutlined', noCache: true } }],
      },
    ]);
  });

  it('builds directories as the reference does, sorted, with empty fields left out', async () => {
    const menus = (await admin('GET', '/api/menus/build')).json();
    const system = menus.find((m: { path: string }) => m.path === '/system');
    expect(system).toMatchObject({ name: '系统管理', component: 'Layout', alwaysShow: true, redirect: 'noredirect', hidden: false, meta: { title: '系统管理', icon: 'SettingOutlined', noCache: true } });
    expect(system.children[0]).toEqual({ name: '用户管理', path: 'user', hidden: false, component: 'system/user/index', meta: { title: '用户管理', icon: 'UserOutlined', noCache: true } });
    expect(menus.map((m: { path: string }) => m.path)).toContain('/acPayslip');
    // children keep their relative paths; only roots get the slash
    for (const m of menus) for (const c of m.children ?? []) expect(c.path.startsWith('/')).toBe(false);
  });

  it('shows an external root link with its URL and no component; a user without roles gets nothing', async () => {
    const link = (await admin('POST', '/api/menus', { name: '帮助文档', path: 'https://example.com/help', iframe: true, pid: 0, sort: 998, icon: 'LinkOutlined' })).json();
    const role = await createRole(t, { name: '外链角色', menus: [link.id] });
    const u = await createUser(t, { username: 'link_user', roleIds: [role] });
    const built = (await caller(t, await tokenFor(t, u))('GET', '/api/menus/build')).json();
    expect(built).toEqual([
      { path: 'https://example.com/help', hidden: false, component: 'Layout', children: [{ path: 'https://example.com/help', meta: { title: '帮助文档', icon: 'LinkOutlined', noCache: true } }] },
    ]);
    const loner = await createUser(t, { username: 'no_roles', roleIds: [] });
    expect((await caller(t, await tokenFor(t, loner))('GET', '/api/menus/build')).json()).toEqual([]);
  });
});

describe('menu management', () => {
  it('lists the tree with a flat total and filters by name, keeping matches visible', async () => {
    const all = (await admin('GET', '/api/menus')).json();
    const flat = await t.app.ctx.db.selectFrom('sys_menu').select('id').execute();
    expect(all.totalElements).toBe(flat.length);
    expect(all.content.every((m: { pid: number }) => m.pid === 0)).toBe(true);
    const filtered = (await admin('GET', `/api/menus?name=${encodeURIComponent('用户管理')}`)).json();
    expect(filtered).toMatchObject({ totalElements: 1, content: [{ name: '用户管理', component: 'system/user/index' }] });
    const tree = (await admin('GET', '/api/menus/tree')).json();
    const sys = tree.find((n: { label: string }) => n.label === '系统管理');
    expect(Object.keys(sys).sort()).toEqual(['children', 'id', 'label']);
    expect(sys.children.every((c: { children?: unknown }) => c.children === undefined)).toBe(true);
  });

  it('validates name, sort, external links and parents', async () => {
    const sys = await idOf(t, 'sys_menu', '系统管理');
    const user = await idOf(t, 'sys_menu', '用户管理');
    const cases: [Record<string, unknown>, number, string][] = [
      [{ sort: 1 }, 400, '请输入名称'],
      [{ name: 'm1', sort: 1000 }, 400, '排序不能大于999'],
      [{ name: 'm1', sort: -1 }, 400, '排序不能小于0'],
      [{ name: 'm1', iframe: true, path: 'ftp://x' }, 400, '外链必须以http://或者https://开头'],
      [{ name: 'm1', pid: 987654 }, 400, '上级菜单不存在'],
      [{ name: '用户管理' }, 409, '菜单名称已存在'],
    ];
    for (const [body, status, message] of cases) {
      const res = await admin('POST', '/api/menus', body);
      expect(res.statusCode, message).toBe(status);
      expect(res.json().message).toBe(message);
    }
    const self = await admin('PUT', '/api/menus', { id: sys, name: '系统管理', pid: sys, sort: 5, iframe: false });
    expect(self.json().message).toBe('上级不能为自己或下级');
    const below = await admin('PUT', '/api/menus', { id: sys, name: '系统管理', pid: user, sort: 5, iframe: false });
    expect(below.statusCode).toBe(400);
    expect(below.json().message).toBe('上级不能为自己或下级');
  });

  it('deletes a node with all descendants and their role links', async () => {
    const root = (await admin('POST', '/api/menus', { name: '临时目录', path: 'tmp', pid: 0 })).json();
    const child = (await admin('POST', '/api/menus', { name: '临时子菜单', path: 'child', component: 'tmp/child', pid: root.id })).json();
    const grandchild = (await admin('POST', '/api/menus', { name: '临时孙菜单', path: 'gc', pid: child.id })).json();
    const role = await createRole(t, { name: '临时角色', menus: [root.id, child.id, grandchild.id, await idOf(t, 'sys_menu', '工资条')] });
    expect((await admin('DELETE', `/api/menus/${root.id}`)).statusCode).toBe(200);
    const left = await t.app.ctx.db.selectFrom('sys_menu').select('id').where('id', 'in', [root.id, child.id, grandchild.id]).execute();
    expect(left).toHaveLength(0);
    const links = await t.app.ctx.db.selectFrom('sys_roles_menus').select('menu_id').where('role_id', '=', role).execute();
    expect(links.map((l) => Number(l.menu_id))).toEqual([await idOf(t, 'sys_menu', '工资条')]);
  });

  it('the tree for role assignment is open to role readers, management is not', async () => {
    const roleReader = await userWithCodes(t, ['ROLES_SELECT']);
    expect((await roleReader.call('GET', '/api/menus/tree')).statusCode).toBe(200);
    expect((await roleReader.call('GET', '/api/permissions/tree')).statusCode).toBe(200);
    expect((await roleReader.call('GET', '/api/menus')).statusCode).toBe(403);
    expect((await roleReader.call('POST', '/api/menus', { name: 'x' })).statusCode).toBe(403);
  });
});

describe('permission management', () => {
  it('lists a tree labelled by alias, filters by name', async () => {
    const tree = (await admin('GET', '/api/permissions/tree')).json();
    expect(tree[0]).toEqual({ id: await idOf(t, 'sys_permission', 'ADMIN'), label: '超级管理员', name: 'ADMIN' });
    const users = tree.find((n: { label: string }) => n.label === '用户管理');
    expect(users.children.map((c: { label: string }) => c.label)).toEqual(['用户管理查询', '用户管理新增', '用户管理编辑', '用户管理删除']);
    const list = (await admin('GET', '/api/permissions?name=USER_')).json();
    expect(list.totalElements).toBe(5);
    expect(list.content).toHaveLength(1);
    expect(list.content[0]).toMatchObject({ name: 'USER_ALL', alias: '用户管理' });
    expect(list.content[0].children).toHaveLength(4);
  });

  it('validates name and alias, keeps names unique', async () => {
    expect((await admin('POST', '/api/permissions', { alias: 'x' })).json().message).toBe('请输入名称');
    expect((await admin('POST', '/api/permissions', { name: 'REPORT_ALL' })).json().message).toBe('请输入别名');
    expect((await admin('POST', '/api/permissions', { name: 'has space', alias: 'x' })).statusCode).toBe(400);
    const dup = await admin('POST', '/api/permissions', { name: 'USER_ALL', alias: 'x' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('权限名称已存在');
  });

  it('deletes recursively with role links, but never ADMIN and never renames built-in codes', async () => {
    const parent = (await admin('POST', '/api/permissions', { name: 'REPORT_ALL', alias: '报表' })).json();
    const child = (await admin('POST', '/api/permissions', { name: 'REPORT_SELECT', alias: '报表查询', pid: parent.id })).json();
    const role = await createRole(t, { name: '报表角色', codes: ['REPORT_SELECT', 'DICT_SELECT'] });
    expect((await admin('DELETE', `/api/permissions/${parent.id}`)).statusCode).toBe(200);
    expect(await t.app.ctx.db.selectFrom('sys_permission').select('id').where('id', 'in', [parent.id, child.id]).execute()).toHaveLength(0);
    const codes = await t.app.ctx.db.selectFrom('sys_roles_permissions').select('permission_id').where('role_id', '=', role).execute();
    expect(codes.map((c) => Number(c.permission_id))).toEqual([await idOf(t, 'sys_permission', 'DICT_SELECT')]);

    const adminId = await idOf(t, 'sys_permission', 'ADMIN');
    const del = await admin('DELETE', `/api/permissions/${adminId}`);
    expect(del.statusCode).toBe(400);
    expect(del.json().message).toBe('超级管理员权限不能删除');
    // Built-in codes do not move (finding S2); ADMIN is not deleted as a descendant either (a tree changed before that).
    const holder = (await admin('POST', '/api/permissions', { name: 'HOLDER', alias: '容器' })).json();
    expect((await admin('PUT', '/api/permissions', { id: adminId, name: 'ADMIN', alias: '超级管理员', pid: holder.id })).statusCode).toBe(400);
    await t.app.ctx.db.updateTable('sys_permission').set({ pid: holder.id }).where('id', '=', adminId).execute();
    expect((await admin('DELETE', `/api/permissions/${holder.id}`)).statusCode).toBe(400);
    await t.app.ctx.db.updateTable('sys_permission').set({ pid: 0 }).where('id', '=', adminId).execute();
    expect((await admin('PUT', '/api/permissions', { id: adminId, name: 'ROOT', alias: '超级管理员', pid: 0 })).statusCode).toBe(400);
    const userAll = await idOf(t, 'sys_permission', 'USER_ALL');
    expect((await admin('PUT', '/api/permissions', { id: userAll, name: 'USER_EVERYTHING', alias: '用户管理', pid: 0 })).statusCode).toBe(400);
    expect((await admin('PUT', '/api/permissions', { id: userAll, name: 'USER_ALL', alias: '用户管理(全部)', pid: 0 })).statusCode).toBe(204);
    expect(await idOf(t, 'sys_permission', 'ADMIN')).toBe(adminId);
  });
});
