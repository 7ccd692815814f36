import { defineResource } from '@app/shared/resource';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import ResourcePage from './ResourcePage';
import { type FakeCall, installFakeFetch, loginAs, page, renderWithApp, setupI18n } from './testUtils';

/**
 * A `refMany` field on a generic screen (the kind registry's `refMany` control and `refs` display): the list
 * shows the linked rows' names, the dialog edits the set with a multiple select (a checkable tree for a tree
 * resource such as departments) and the body carries the ids, an emptied set as [].
 */
const teamDef = defineResource({
  name: 'team',
  table: 'team',
  permission: 'TEAM',
  label: '小组',
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'name', kind: 'string', label: '名称', required: '请输入名称', maxLength: 20 },
    {
      name: 'members',
      kind: 'refMany',
      label: '成员',
      ref: { resource: 'users', labelField: 'username' },
      links: { table: 'team_users', ownerColumn: 'team_id', targetColumn: 'user_id', show: ['username'] },
    },
    {
      name: 'depts',
      kind: 'refMany',
      label: '负责部门',
      ref: { resource: 'dept', labelField: 'name' },
      links: { table: 'team_depts', ownerColumn: 'team_id', targetColumn: 'dept_id', show: ['name'] },
    },
  ],
});

const USERS = [
  { id: 1, username: '张三' },
  { id: 2, username: '李四' },
  { id: 3, username: '王五' },
];
const DEPTS = [{ id: 10, name: '总部', pid: null, children: [{ id: 11, name: '财务部', pid: 10 }] }];

let calls: FakeCall[];

beforeAll(async () => {
  await setupI18n();
});

beforeEach(() => {
  localStorage.clear();
  calls = installFakeFetch((call) => {
    if (call.path === '/api/dictDetail/map') return { body: {} };
    if (call.path === '/api/team' && call.method === 'GET') {
      return page([{ id: 7, name: '一组', members: [USERS[0], USERS[1]], depts: [{ id: 11, name: '财务部' }] }]);
    }
    if (call.path === '/api/users' && call.method === 'GET') return page(USERS);
    if (call.path === '/api/dept' && call.method === 'GET') return page(DEPTS);
    if (call.path === '/api/team' && call.method === 'PUT') return { status: 204 };
    return undefined;
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('refMany on a generic screen', { timeout: 30_000 }, () => {
  it('lists the linked names and edits the set as ids', async () => {
    loginAs(['TEAM_ALL']);
    renderWithApp(<ResourcePage resource={teamDef} />);
    expect(await screen.findByText('张三, 李四')).toBeTruthy();
    expect(screen.getByText('财务部')).toBeTruthy();

    fireEvent.click(screen.getByTestId('crud-edit'));
    const dialog = (await screen.findByText('编辑小组')).closest('.ant-modal') as HTMLElement;
    // the chosen rows show by name once the options arrived (a tag per member, the department in the tree select)
    await waitFor(() => expect(within(dialog).getByText('李四')).toBeTruthy());
    expect(within(dialog).getByText('张三')).toBeTruthy();
    await waitFor(() => expect(within(dialog).getByText('财务部')).toBeTruthy());

    // remove 李四 by its tag's close icon, leave the departments, save
    const tag = within(dialog).getByText('李四').closest('.ant-select-selection-item') as HTMLElement;
    fireEvent.click(tag.querySelector('.ant-select-selection-item-remove') as HTMLElement);
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT').length).toBe(1));
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ id: 7, name: '一组', members: [1], depts: [11] });
  });
});
