import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeCall, installFakeFetch, loginAs, page, renderWithApp, setupI18n } from '../../crud/testUtils';
import RolePage, { markUngrantable } from './RolePage';

/** The permission tree as GET /api/permissions/tree answers it (an operator code S2_REPORT hung under USER_ALL). */
const TREE = [
  { id: 1, name: 'ADMIN', label: '超级管理员' },
  {
    id: 2,
    name: 'USER_ALL',
    label: '用户管理',
    children: [
      { id: 3, name: 'USER_SELECT', label: '用户管理查询' },
      { id: 4, name: 'USER_EDIT', label: '用户管理编辑' },
      { id: 9, name: 'S2_REPORT', label: '报表' },
    ],
  },
  {
    id: 5,
    name: 'DEPT_ALL',
    label: '部门管理',
    children: [
      { id: 6, name: 'DEPT_SELECT', label: '部门管理查询' },
      { id: 7, name: 'DEPT_CREATE', label: '部门管理新增' },
    ],
  },
];

let calls: FakeCall[];

beforeAll(async () => {
  await setupI18n();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

type Marked = { name?: string; disabled?: boolean; children?: Marked[] };
const disabledByName = (nodes: Marked[]): Record<string, boolean> => Object.fromEntries(nodes.flatMap((n) => [[n.name, !!n.disabled], ...Object.entries(disabledByName(n.children ?? []))]));

describe('markUngrantable', () => {
  it('disables what the editor does not hold, by the codes themselves and not by the tree', () => {
    expect(disabledByName(markUngrantable(TREE, ['USER_ALL']))).toEqual({
      ADMIN: true,
      USER_ALL: false,
      USER_SELECT: false,
      USER_EDIT: false,
      // an operator code under USER_ALL is not held through it
      S2_REPORT: true,
      DEPT_ALL: true,
      DEPT_SELECT: true,
      DEPT_CREATE: true,
    });
    expect(disabledByName(markUngrantable(TREE, ['DEPT_SELECT', 'S2_REPORT']))).toMatchObject({ USER_ALL: true, S2_REPORT: false, DEPT_ALL: true, DEPT_SELECT: false, DEPT_CREATE: true });
    expect(Object.values(disabledByName(markUngrantable(TREE, ['ADMIN'])))).not.toContain(true);
    // a node without its code (an older server) is never offered
    expect(markUngrantable([{ id: 1, label: 'x' }], ['ADMIN'])[0].disabled).toBe(true);
  });
});

describe('RolePage permission assignment', { timeout: 30_000 }, () => {
  it('greys out the codes the editor lacks and saves only what may change', async () => {
    calls = installFakeFetch((call) => {
      if (call.path === '/api/roles' && call.method === 'GET') return page([{ id: 30, name: '下级角色', level: 3, dataScope: '本级' }]);
      if (call.path === '/api/roles/30') return { body: { id: 30, name: '下级角色', level: 3, dataScope: '本级', menus: [], permissions: [{ id: 6 }], depts: [] } };
      if (call.path === '/api/permissions/tree') return { body: TREE };
      if (call.path === '/api/menus/tree') return { body: [] };
      if (call.path === '/api/roles/permission' && call.method === 'PUT') return { status: 204 };
      return undefined;
    });
    loginAs(['ROLES_EDIT', 'ROLES_SELECT', 'USER_ALL'], { level: 2 });
    renderWithApp(<RolePage />);
    fireEvent.click(await screen.findByText('下级角色'));
    fireEvent.click(screen.getByTestId('role-assign-switch'));
    const assign = screen.getByTestId('role-assign');
    await within(assign).findByText('用户管理编辑');
    expect(within(assign).getByTestId('role-ungrantable-hint').textContent).toBe('灰色的权限您自己没有，不能授予或收回');

    const node = (label: string) => within(assign).getByText(label).closest('.ant-tree-treenode') as HTMLElement;
    for (const label of ['超级管理员', '部门管理', '部门管理查询', '部门管理新增', '报表']) expect(node(label).className, label).toContain('ant-tree-treenode-disabled');
    for (const label of ['用户管理', '用户管理查询', '用户管理编辑']) expect(node(label).className, label).not.toContain('ant-tree-treenode-disabled');
    // the role's DEPT_SELECT shows ticked, but greyed
    expect(node('部门管理查询').querySelector('.ant-tree-checkbox-checked')).toBeTruthy();

    // ticking a greyed code does nothing; ticking a held one does
    fireEvent.click(node('部门管理新增').querySelector('.ant-tree-checkbox')!);
    fireEvent.click(node('用户管理编辑').querySelector('.ant-tree-checkbox')!);
    fireEvent.click(screen.getByTestId('role-assign-save'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/roles/permission')).toBe(true));
    const body = calls.find((c) => c.path === '/api/roles/permission')!.body as { id: number; permissions: { id: number }[] };
    expect(body.id).toBe(30);
    expect(body.permissions.map((p) => p.id).sort()).toEqual([4, 6]);
  });

  it('an ADMIN sees nothing greyed and no hint', async () => {
    installFakeFetch((call) => {
      if (call.path === '/api/roles' && call.method === 'GET') return page([{ id: 30, name: '下级角色', level: 3, dataScope: '本级' }]);
      if (call.path === '/api/roles/30') return { body: { id: 30, name: '下级角色', level: 3, dataScope: '本级', menus: [], permissions: [], depts: [] } };
      if (call.path === '/api/permissions/tree') return { body: TREE };
      if (call.path === '/api/menus/tree') return { body: [] };
      return undefined;
    });
    loginAs(['ADMIN'], { level: 1 });
    renderWithApp(<RolePage />);
    fireEvent.click(await screen.findByText('下级角色'));
    fireEvent.click(screen.getByTestId('role-assign-switch'));
    const assign = screen.getByTestId('role-assign');
    await within(assign).findByText('部门管理新增');
    expect(assign.querySelector('.ant-tree-treenode-disabled')).toBeNull();
    expect(within(assign).queryByTestId('role-ungrantable-hint')).toBeNull();
  });
});
