import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeCall, installFakeFetch, loginAs, page, renderWithApp, setupI18n } from '../../crud/testUtils';
import DictPage from './DictPage';
import UserPage, { roleDisabled } from './UserPage';

let calls: FakeCall[];

const DEPTS = [{ id: 1, pid: 0, name: '总公司', enabled: true, children: [{ id: 2, pid: 1, name: '业务部', enabled: true }] }];
const ROLES = [
  { id: 1, name: '超级管理员', level: 1 },
  { id: 2, name: '普通管理员', level: 2 },
  { id: 3, name: '普通员工', level: 3 },
];

beforeAll(async () => {
  await setupI18n();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('role levels in the user dialog', () => {
  it('disables roles at or above my level unless my level is 1', () => {
    expect(roleDisabled(1, 1)).toBe(false);
    expect(roleDisabled(2, 1)).toBe(false);
    expect(roleDisabled(1, 2)).toBe(true);
    expect(roleDisabled(2, 2)).toBe(true);
    expect(roleDisabled(3, 2)).toBe(false);
    expect(roleDisabled(3, null)).toBe(true);
  });
});

describe('UserPage', { timeout: 30_000 }, () => {
  it('filters by the chosen department, disables higher roles and applies the user rules', async () => {
    calls = installFakeFetch((call) => {
      if (call.path === '/api/dept') return page(DEPTS);
      if (call.path === '/api/dictDetail/map') return { body: { user_status: [{ label: '激活', value: 'true' }, { label: '锁定', value: 'false' }] } };
      if (call.path === '/api/users' && call.method === 'GET') return page([{ id: 7, username: 'li', cname: '李', enabled: true, dept: { id: 2, name: '业务部' }, job: { id: 3, name: '专员' }, roles: [] }]);
      if (call.path === '/api/users' && call.method === 'POST') return { status: 201, body: { id: 8, username: 'wang', defaultPassword: 'Xy7#pQ2k9' } };
      if (call.path === '/api/roles/level') return { body: { level: 2 } };
      if (call.path === '/api/roles/all') return { body: ROLES };
      if (call.path === '/api/job') return page([{ id: 3, name: '专员' }]);
      return undefined;
    });
    loginAs(['USER_ALL'], { level: 2 });
    renderWithApp(<UserPage />);
    expect(await screen.findByText('li')).toBeTruthy();
    expect(screen.getByText('业务部 / 专员')).toBeTruthy();
    // no export for non-admins
    expect(screen.queryByTestId('user-export')).toBeNull();

    // clicking a department filters the list by it
    fireEvent.click(await screen.findByText('业务部', { selector: '.ant-tree-title' }));
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/users').at(-1)?.query).toMatchObject({ deptId: '2', page: '0' }));

    fireEvent.click(screen.getByTestId('crud-add'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByTestId('user-roles').querySelector('.ant-select-content, .ant-select-selector') ?? within(dialog).getByTestId('user-roles'));
    const option = async (name: string) => (await screen.findByText(name, { selector: '.ant-select-item-option-content' })).closest('.ant-select-item-option')!;
    expect((await option('超级管理员')).className).toContain('disabled');
    expect((await option('普通管理员')).className).toContain('disabled');
    expect((await option('普通员工')).className).not.toContain('disabled');

    // the spec's messages for missing values
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('请输入用户名')).toBeTruthy();
    expect(within(dialog).getByText('部门不能为空')).toBeTruthy();
    expect(within(dialog).getByText('岗位不能为空')).toBeTruthy();
    expect(within(dialog).getByText('角色不能为空')).toBeTruthy();
    expect(within(dialog).getByText('请输入邮箱地址')).toBeTruthy(); // every login but an employee's needs one
    fireEvent.change(within(dialog).getByLabelText('电话'), { target: { value: '12345678901' } });
    expect(await within(dialog).findByText('请输入正确的11位手机号码')).toBeTruthy();
  });

  it('edits and locks an employee login without an e-mail (U6)', async () => {
    const employee = { id: 9, username: '110105199001010011', cname: '陈涛', phone: '13800138000', email: null, enabled: true, dept: { id: 2, name: '业务部' }, job: { id: 4, name: '普通员工' }, roles: [{ id: 3, name: '普通员工', level: 3 }] };
    calls = installFakeFetch((call) => {
      if (call.path === '/api/dept') return page(DEPTS);
      if (call.path === '/api/dictDetail/map') return { body: { user_status: [{ label: '激活', value: 'true' }, { label: '锁定', value: 'false' }] } };
      if (call.path === '/api/users' && call.method === 'GET') return page([employee]);
      if (call.path === '/api/users' && call.method === 'PUT') return { status: 204, body: '' };
      if (call.path === '/api/roles/level') return { body: { level: 1 } };
      if (call.path === '/api/roles/all') return { body: ROLES };
      if (call.path === '/api/job') return page([{ id: 3, name: '专员' }, { id: 4, name: '普通员工' }]);
      return undefined;
    });
    loginAs(['ADMIN'], { level: 1 });
    renderWithApp(<UserPage />);
    expect(await screen.findByText('陈涛')).toBeTruthy();
    fireEvent.click(screen.getByTestId('crud-edit'));
    const dialog = await screen.findByRole('dialog');
    // no asterisk on 邮箱 for an employee login
    await waitFor(() => expect(within(dialog).getByText('邮箱').closest('label')?.className ?? '').not.toContain('required'));
    fireEvent.click(within(dialog).getByLabelText('锁定'));
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.path === '/api/users')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT' && c.path === '/api/users')!;
    expect(put.body).toMatchObject({ id: 9, enabled: 'false', jobId: 4 });
    expect(within(dialog).queryByText('请输入邮箱地址')).toBeNull();
  });

  it('shows the default password after 添加成功', async () => {
    calls = installFakeFetch((call) => {
      if (call.path === '/api/dept') return page(DEPTS);
      if (call.path === '/api/dictDetail/map') return { body: { user_status: [{ label: '激活', value: 'true' }, { label: '锁定', value: 'false' }] } };
      if (call.path === '/api/users' && call.method === 'GET') return page([]);
      if (call.path === '/api/roles/level') return { body: { level: 1 } };
      if (call.path === '/api/roles/all') return { body: ROLES };
      if (call.path === '/api/job') return page([{ id: 3, name: '专员' }]);
      if (call.path === '/api/users' && call.method === 'POST') return { status: 201, body: { id: 8, username: 'wang', defaultPassword: 'Xy7#pQ2k9' } };
      return undefined;
    });
    loginAs(['ADMIN'], { level: 1 });
    renderWithApp(<UserPage />);
    fireEvent.click(await screen.findByTestId('crud-add'));
    const dialog = await screen.findByRole('dialog');
    const open = (label: string) => {
      const input = within(dialog).getByLabelText(label);
      fireEvent.mouseDown(input.closest('.ant-select') ?? input);
    };
    fireEvent.change(within(dialog).getByLabelText('用户名'), { target: { value: 'wang' } });
    fireEvent.change(within(dialog).getByLabelText('中文名'), { target: { value: '王五' } });
    fireEvent.change(within(dialog).getByLabelText('电话'), { target: { value: '13812345678' } });
    fireEvent.change(within(dialog).getByLabelText('邮箱'), { target: { value: 'wang@example.com' } });
    open('部门');
    await waitFor(() => expect(document.querySelector('.ant-select-tree')).toBeTruthy());
    fireEvent.click(await screen.findByText('业务部', { selector: '.ant-select-tree-title' }));
    await waitFor(() => expect(within(dialog).getByLabelText('岗位').closest('.ant-select')!.className).not.toContain('disabled'));
    open('岗位');
    fireEvent.click(await screen.findByText('专员', { selector: '.ant-select-item-option-content' }));
    // a new user's 状态 is 激活 unless the admin picks 锁定
    expect((within(dialog).getByLabelText('激活') as HTMLInputElement).checked).toBe(true);
    fireEvent.mouseDown(within(within(dialog).getByTestId('user-roles').parentElement!).getByRole('combobox'));
    fireEvent.click(await screen.findByText('普通员工', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/users')).toBe(true));
    const body = calls.find((c) => c.method === 'POST')!.body as Record<string, unknown>;
    expect(body).toMatchObject({ username: 'wang', deptId: 2, jobId: 3, roles: [{ id: 3 }], enabled: 'true' });
    expect(await screen.findByText('添加成功')).toBeTruthy();
    const shown = await screen.findByTestId('user-default-password');
    expect(shown.textContent).toContain('Xy7#pQ2k9');
  });
});

describe('DictPage', { timeout: 30_000 }, () => {
  it('shows a hint until a dictionary is chosen, then its entries and the add button', async () => {
    calls = installFakeFetch((call) => {
      if (call.path === '/api/dict') return page([{ id: 5, name: 'sex', remark: '性别' }]);
      if (call.path === '/api/dictDetail' && call.method === 'GET') return page([{ id: 1, label: '男', value: '男', sort: 1, dict: { id: 5, name: 'sex' } }]);
      return undefined;
    });
    loginAs(['DICT_ALL']);
    renderWithApp(<DictPage />);
    expect(await screen.findByText('sex')).toBeTruthy();
    expect(screen.getByText('点击左侧字典查看详情')).toBeTruthy();
    expect(screen.queryByTestId('dict-detail-add')).toBeNull();
    fireEvent.click(screen.getByText('sex'));
    expect(await screen.findByTestId('dict-detail-add')).toBeTruthy();
    await waitFor(() => expect(calls.find((c) => c.path === '/api/dictDetail')?.query).toMatchObject({ dictName: 'sex', page: '0', sort: 'sort,asc' }));
    const details = screen.getByTestId('dict-details');
    expect((await within(details).findAllByText('男', { selector: 'td' })).length).toBe(2);
    // the dictionary delete asks the dictionary's own question
    fireEvent.click(within(screen.getByTestId('dict-page')).getAllByTestId('crud-delete')[0]);
    expect(await screen.findByText('此操作将删除字典与对应的字典详情，确定要删除吗？')).toBeTruthy();
  });
});
