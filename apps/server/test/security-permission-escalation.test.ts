import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSION_CODES, holdsPermissionCode, isBuiltInPermission } from '@app/shared/permissions';
import { hasPermission } from '@app/shared/resource';
import { createTestApp, login, type TestApp } from './helpers.ts';
import { adminCaller, type Caller, caller, createRole, createUser, FIXTURE_PASSWORD, idOf, newUserBody, userWithCodes } from './system-fixtures.ts';

/**
 * Finding S2 (issue 13 item 2): privilege escalation through the editable permission tree. A user holding
 * PERMISSION_EDIT + ROLES_EDIT + USER_CREATE re-parented a built-in code (DEPT_ALL under ACCENTRY_ALL, which
 * they held), granted it to a lower role (granting counted a code as held when an ancestor in the tree was
 * held), made a user with that role, and that user created departments. Now: built-in codes cannot move or be
 * renamed, and "held" is judged from the codes themselves, so each step is refused on its own (also when an
 * earlier one is forced through, as on a database changed before the fix).
 */

const BUILT_IN_FIXED = '内置权限不能修改编码或上级';

let t: TestApp;
let admin: Caller;
let attacker: Caller;
const perm: Record<string, number> = {};
const permissionId = async (code: string) => (perm[code] ??= await idOf(t, 'sys_permission', code));
const pidOf = async (id: number) => Number((await t.app.ctx.db.selectFrom('sys_permission').select('pid').where('id', '=', id).executeTakeFirstOrThrow()).pid);
const codesOfRole = async (role: number) => ((await admin('GET', `/api/roles/${role}`)).json().permissions as { name: string }[]).map((p) => p.name).sort();

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminCaller(t);
  // The attacker of the finding: a level-2 user with permission editing, role editing, user creation and
  // one module of their own (ACCENTRY_ALL), logged in through the real login.
  const role = await createRole(t, {
    name: 'S2 攻击者',
    level: 2,
    dataScope: '全部',
    codes: ['PERMISSION_EDIT', 'PERMISSION_SELECT', 'ROLES_EDIT', 'ROLES_CREATE', 'ROLES_SELECT', 'USER_CREATE', 'USER_SELECT', 'ACCENTRY_ALL'],
  });
  await createUser(t, { username: 's2_attacker', roleIds: [role] });
  attacker = caller(t, await login(t.app, 's2_attacker', FIXTURE_PASSWORD));
});
afterAll(async () => {
  await t.close();
});

describe('S2: the escalation sequence is refused at every step', () => {
  let lowerRole: number;

  it('step 1: a built-in code cannot be re-parented (nor renamed), by the attacker or by anyone', async () => {
    const deptAll = await permissionId('DEPT_ALL');
    const accentryAll = await permissionId('ACCENTRY_ALL');
    const moved = await attacker('PUT', '/api/permissions', { id: deptAll, name: 'DEPT_ALL', alias: '部门管理', pid: accentryAll });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({ message: BUILT_IN_FIXED, fieldErrors: { pid: BUILT_IN_FIXED } });
    expect(await pidOf(deptAll)).toBe(0);
    // a child action on its own, and ADMIN, do not move either; ADMIN itself is refused the same way
    const deptCreate = await permissionId('DEPT_CREATE');
    expect((await attacker('PUT', '/api/permissions', { id: deptCreate, name: 'DEPT_CREATE', alias: '部门管理新增', pid: accentryAll })).statusCode).toBe(400);
    expect(await pidOf(deptCreate)).toBe(deptAll);
    expect((await admin('PUT', '/api/permissions', { id: deptAll, name: 'DEPT_ALL', alias: '部门管理', pid: accentryAll })).json().message).toBe(BUILT_IN_FIXED);
    expect((await admin('PUT', '/api/permissions', { id: await permissionId('ADMIN'), name: 'ADMIN', alias: '超级管理员', pid: accentryAll })).statusCode).toBe(400);
    // renaming: a route checks the code by name
    const renamed = await attacker('PUT', '/api/permissions', { id: accentryAll, name: 'DEPT_ALL_X', alias: '入职记录', pid: 0 });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json()).toMatchObject({ message: BUILT_IN_FIXED, fieldErrors: { name: BUILT_IN_FIXED } });
    expect((await admin('PUT', '/api/permissions', { id: deptAll, name: 'ACCENTRY_ALL_2', alias: '部门管理', pid: 0 })).statusCode).toBe(400);
    // the label of a built-in code stays editable
    expect((await attacker('PUT', '/api/permissions', { id: deptAll, name: 'DEPT_ALL', alias: '部门管理(全部)', pid: 0 })).statusCode).toBe(204);
    expect((await attacker('PUT', '/api/permissions', { id: deptAll, name: 'DEPT_ALL', alias: '部门管理', pid: 0 })).statusCode).toBe(204);
  });

  it('step 2: a code the editor does not hold is not granted, wherever it hangs in the tree', async () => {
    const created = await attacker('POST', '/api/roles', { name: 'S2 下级角色', level: 3, dataScope: '全部' });
    expect(created.statusCode).toBe(201);
    lowerRole = created.json().id;
    for (const code of ['DEPT_ALL', 'DEPT_CREATE']) {
      const grant = await attacker('PUT', '/api/roles/permission', { id: lowerRole, permissions: [{ id: await permissionId(code) }] });
      expect(grant.statusCode, code).toBe(403);
      expect(grant.json().message).toBe(`不能授予自己没有的权限：${code}`);
    }

    // Even with step 1 forced through (a database whose tree was changed before the fix), nothing changes:
    // DEPT_ALL under ACCENTRY_ALL confers neither DEPT_ALL nor its children.
    await t.app.ctx.db
      .updateTable('sys_permission')
      .set({ pid: await permissionId('ACCENTRY_ALL') })
      .where('id', '=', await permissionId('DEPT_ALL'))
      .execute();
    try {
      for (const code of ['DEPT_ALL', 'DEPT_CREATE', 'DEPT_SELECT']) {
        const grant = await attacker('PUT', '/api/roles/permission', { id: lowerRole, permissions: [{ id: await permissionId(code) }] });
        expect(grant.statusCode, code).toBe(403);
      }
      const mixed = await attacker('PUT', '/api/roles/permission', {
        id: lowerRole,
        permissions: [{ id: await permissionId('ACCENTRY_SELECT') }, { id: await permissionId('DEPT_ALL') }, { id: await permissionId('DEPT_CREATE') }],
      });
      expect(mixed.statusCode).toBe(403);
      expect(mixed.json().message).toBe('不能授予自己没有的权限：DEPT_ALL、DEPT_CREATE');
      expect(await codesOfRole(lowerRole)).toEqual([]);
      // and a built-in code below a deleted node is not deleted with it
      const holder = (await admin('POST', '/api/permissions', { name: 'S2_HOLDER', alias: '容器' })).json();
      await t.app.ctx.db
        .updateTable('sys_permission')
        .set({ pid: holder.id })
        .where('id', '=', await permissionId('ACCENTRY_ALL'))
        .execute();
      const del = await admin('DELETE', `/api/permissions/${holder.id}`);
      expect(del.statusCode).toBe(400);
      expect(del.json().message).toMatch(/^内置权限不能删除：/);
      expect(del.json().message).toContain('DEPT_ALL');
    } finally {
      await t.app.ctx.db
        .updateTable('sys_permission')
        .set({ pid: 0 })
        .where('id', 'in', [await permissionId('DEPT_ALL'), await permissionId('ACCENTRY_ALL')])
        .execute();
    }
  });

  it('steps 3 and 4: a user made with the lower role cannot create departments', async () => {
    // What the attacker does hold they may hand on (ACCENTRY_ALL covers ACCENTRY_SELECT).
    expect((await attacker('PUT', '/api/roles/permission', { id: lowerRole, permissions: [{ id: await permissionId('ACCENTRY_SELECT') }] })).statusCode).toBe(204);
    const made = await attacker('POST', '/api/users', newUserBody('s2_minion', [lowerRole]));
    expect(made.statusCode).toBe(201);
    // (the issued password would refuse everything with PASSWORD_CHANGE_REQUIRED: this test is about permissions)
    await t.app.ctx.db.updateTable('sys_user').set({ must_change_password: 0 }).where('username', '=', 's2_minion').execute();
    const minion = caller(t, await login(t.app, 's2_minion', made.json().defaultPassword));
    const info = (await minion('GET', '/auth/info')).json();
    expect(info.roles).toEqual(['ACCENTRY_SELECT']);
    expect((await minion('POST', '/api/dept', { name: 'S2 部门', pid: 0, enabled: true })).statusCode).toBe(403);
    expect((await minion('GET', '/api/dept')).statusCode).toBe(403);
    expect(await t.app.ctx.db.selectFrom('sys_dept').select('id').where('name', '=', 'S2 部门').executeTakeFirst()).toBeUndefined();
  });
});

describe('S2: what stays allowed', () => {
  it('an editor holding a built-in group parent grants its actions, and nothing beside it', async () => {
    const lower = await createRole(t, { name: 'S2 用户组下级', level: 3 });
    const editor = await userWithCodes(t, ['ROLES_EDIT', 'USER_ALL'], { level: 2 });
    const grant = async (codes: string[]) => editor.call('PUT', '/api/roles/permission', { id: lower, permissions: await Promise.all(codes.map(async (c) => ({ id: await permissionId(c) }))) });
    expect((await grant(['USER_EDIT'])).statusCode).toBe(204);
    expect((await grant(['USER_ALL', 'USER_SELECT', 'USER_CREATE', 'USER_EDIT', 'USER_DELETE'])).statusCode).toBe(204);
    expect(await codesOfRole(lower)).toEqual(['USER_ALL', 'USER_CREATE', 'USER_DELETE', 'USER_EDIT', 'USER_SELECT']);
    expect((await grant(['USER_ALL', 'USERJOB_SELECT'])).json().message).toBe('不能授予自己没有的权限：USERJOB_SELECT');
    // a child action does not hold its parent
    const childEditor = await userWithCodes(t, ['ROLES_EDIT', 'USER_SELECT', 'USER_EDIT'], { level: 2 });
    const parent = await childEditor.call('PUT', '/api/roles/permission', { id: await createRole(t, { name: 'S2 子级下级', level: 3 }), permissions: [{ id: await permissionId('USER_ALL') }] });
    expect(parent.statusCode).toBe(403);
  });

  it('operator-made codes can be renamed, moved and deleted; a place under a held code confers nothing', async () => {
    const made = await admin('POST', '/api/permissions', { name: 'S2_REPORT', alias: '报表' });
    expect(made.statusCode).toBe(201);
    const report = made.json().id as number;
    const accentryAll = await permissionId('ACCENTRY_ALL');
    // the attacker (PERMISSION_EDIT, ACCENTRY_ALL) hangs it under ACCENTRY_ALL and renames it
    expect((await attacker('PUT', '/api/permissions', { id: report, name: 'S2_REPORT_ALL', alias: '报表(全部)', pid: accentryAll })).statusCode).toBe(204);
    expect(await pidOf(report)).toBe(accentryAll);
    const tree = (await attacker('GET', '/api/permissions/tree')).json() as { id: number; name: string; children?: { id: number; name: string }[] }[];
    expect(tree.find((n) => n.id === accentryAll)?.children?.map((c) => c.name)).toContain('S2_REPORT_ALL');
    // ... but holding ACCENTRY_ALL does not make it theirs to grant
    const lower = await createRole(t, { name: 'S2 报表下级', level: 3 });
    const grant = await attacker('PUT', '/api/roles/permission', { id: lower, permissions: [{ id: report }] });
    expect(grant.statusCode).toBe(403);
    expect(grant.json().message).toBe('不能授予自己没有的权限：S2_REPORT_ALL');
    // whoever holds the code itself may hand it on
    const holder = await userWithCodes(t, ['ROLES_EDIT', 'S2_REPORT_ALL'], { level: 2 });
    expect((await holder.call('PUT', '/api/roles/permission', { id: lower, permissions: [{ id: report }] })).statusCode).toBe(204);
    // operator codes are deleted as before (with their role links)
    expect((await admin('DELETE', `/api/permissions/${report}`)).statusCode).toBe(200);
    expect(await codesOfRole(lower)).toEqual([]);
  });

  it('built-in codes are not deleted, ADMIN keeps its own message', async () => {
    const deptSelect = await permissionId('DEPT_SELECT');
    const del = await admin('DELETE', `/api/permissions/${deptSelect}`);
    expect(del.statusCode).toBe(400);
    expect(del.json().message).toBe('内置权限不能删除：DEPT_SELECT');
    expect((await admin('DELETE', '/api/permissions', [await permissionId('DEPT_ALL')])).json().message).toMatch(/^内置权限不能删除：DEPT_ALL、/);
    expect((await admin('DELETE', `/api/permissions/${await permissionId('ADMIN')}`)).json().message).toBe('超级管理员权限不能删除');
    const rows = await t.app.ctx.db.selectFrom('sys_permission').select('name').execute();
    const names = new Set(rows.map((r) => String(r.name)));
    for (const code of ALL_PERMISSION_CODES) expect(names.has(code), code).toBe(true);
  });

  it('the permission tree carries each node’s code, for the role screen', async () => {
    const tree = (await admin('GET', '/api/permissions/tree')).json();
    expect(tree[0]).toEqual({ id: await permissionId('ADMIN'), label: '超级管理员', name: 'ADMIN' });
    const users = tree.find((n: { name: string }) => n.name === 'USER_ALL');
    expect(users.children.map((c: { name: string }) => c.name)).toEqual(['USER_SELECT', 'USER_CREATE', 'USER_EDIT', 'USER_DELETE']);
  });
});

describe('granting and route authorization agree', () => {
  it('a route accepts every built-in code that, by the shared rule, holds one of the codes it asks for', () => {
    const mismatches: string[] = [];
    for (const route of t.app.routeTable) {
      if (!Array.isArray(route.auth)) continue;
      for (const code of ALL_PERMISSION_CODES) {
        const held = route.auth.some((required) => holdsPermissionCode([code], required));
        if (held !== hasPermission([code], route.auth)) mismatches.push(`${route.method} ${route.url}: ${code}`);
      }
    }
    expect(mismatches).toEqual([]);
    // and every code a route asks for is a built-in one (they cannot move, so the rule is the whole story)
    const asked = new Set(t.app.routeTable.flatMap((r) => (Array.isArray(r.auth) ? r.auth : [])));
    expect([...asked].filter((c) => !isBuiltInPermission(c))).toEqual([]);
  });
});
