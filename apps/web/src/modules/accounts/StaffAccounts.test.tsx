import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeCall, installFakeFetch, loginAs, page, renderWithApp, setupI18n } from '../../crud/testUtils';
import { accountsCsv, STAFF_ACCOUNTS_URL, type StaffAccountsResult } from './StaffAccounts';
import StaffPage from './StaffPage';

// 为员工开通账号 on the staff list: shown only with both codes, asked first, the one-time passwords shown with
// copy and export, the skipped rows with their reasons.

const ID_A = '11010519491231002X';
const ID_B = '110105194912310029';
const RESULT: StaffAccountsResult = {
  message: '已开通1个账号，跳过1人',
  created: [{ staffId: 1, staffName: '张三', username: ID_A, password: 'Kp7mQ2xZr9Ta' }],
  skipped: [{ staffId: 2, staffName: '李四', reasonCode: 'ACCOUNT_EXISTS', reason: '账号已存在' }],
};

let calls: FakeCall[];
const accountCalls = () => calls.filter((c) => c.method === 'POST' && c.path === STAFF_ACCOUNTS_URL);

beforeAll(async () => {
  await setupI18n();
});

beforeEach(() => {
  calls = installFakeFetch((call) => {
    if (call.path === '/api/accountsCompany/all') return page([{ id: 7, companyName: '甲公司' }]);
    if (call.path === '/api/dictDetail/map') return { body: {} };
    if (call.path === '/api/accountsStaff' && call.method === 'GET')
      return page([
        { id: 1, staffName: '张三', idCard: ID_A, companyName: '甲公司' },
        { id: 2, staffName: '李四', idCard: ID_B, companyName: '甲公司' },
      ]);
    if (call.path === STAFF_ACCOUNTS_URL && call.method === 'POST') return { body: RESULT };
    return undefined;
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const confirmPopover = async (title: string) => {
  expect(await screen.findByText(title)).toBeTruthy();
  const pop = document.querySelector('.ant-popconfirm:not(.ant-popover-hidden)') as HTMLElement;
  fireEvent.click(within(pop).getByRole('button', { name: /确\s*定/ }));
};

describe('为员工开通账号 on the staff list', { timeout: 30_000 }, () => {
  it('is offered only to a user who may create users and read staff', async () => {
    loginAs(['ACCOUNTSSTAFF_ALL']);
    renderWithApp(<StaffPage />);
    await screen.findByText('张三', {}, { timeout: 8000 });
    expect(screen.queryByTestId('staff-accounts-batch')).toBeNull();
    expect(screen.queryByTestId('staff-account-row')).toBeNull();
  });

  it('opens logins for the checked rows after a confirmation and shows the passwords once, with copy and export', async () => {
    loginAs(['ACCOUNTSSTAFF_SELECT', 'USER_CREATE']);
    const writeText = vi.fn(async (_: string) => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blobs.push(b as Blob);
      return 'blob:fake';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    // jsdom cannot follow the download link
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderWithApp(<StaffPage />);
    await screen.findByText('张三', {}, { timeout: 8000 });

    // without delete rights there are still checkboxes, but no 删除
    expect(screen.queryByTestId('crud-batch-delete')).toBeNull();
    const batch = screen.getByTestId('staff-accounts-batch') as HTMLButtonElement;
    expect(batch.disabled).toBe(true);
    fireEvent.mouseOver(screen.getByTestId('staff-accounts-batch-hint'));
    expect(await screen.findByText('请先勾选要开通账号的员工')).toBeTruthy();

    const boxes = screen.getAllByRole('checkbox').filter((c) => c.closest('tr.ant-table-row'));
    fireEvent.click(boxes[0]);
    fireEvent.click(boxes[1]);
    await waitFor(() => expect((screen.getByTestId('staff-accounts-batch') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('staff-accounts-batch'));
    expect(accountCalls()).toHaveLength(0);
    await confirmPopover('确定为选中的 2 名员工开通登录账号吗？');
    await waitFor(() => expect(accountCalls()).toHaveLength(1));
    expect(accountCalls()[0].body).toEqual({ ids: [1, 2] });

    const dialog = await screen.findByTestId('staff-accounts-result');
    expect(within(dialog).getByTestId('staff-accounts-summary').textContent).toBe('已开通1个账号，跳过1人');
    expect(within(dialog).getByText(/初始密码只显示这一次/)).toBeTruthy();
    const created = within(dialog).getByTestId('staff-accounts-created');
    expect(within(created).getByText(ID_A)).toBeTruthy();
    expect(within(created).getByText('Kp7mQ2xZr9Ta')).toBeTruthy();
    const skipped = within(dialog).getByTestId('staff-accounts-skipped');
    expect(within(skipped).getByText('李四')).toBeTruthy();
    expect(within(skipped).getByText('账号已存在')).toBeTruthy();

    fireEvent.click(within(dialog).getByTestId('staff-accounts-copy'));
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
    expect(writeText.mock.calls[0][0]).toBe(`姓名\t用户名（身份证号）\t初始密码\n张三\t${ID_A}\tKp7mQ2xZr9Ta`);

    fireEvent.click(within(dialog).getByTestId('staff-accounts-export'));
    expect(blobs).toHaveLength(1);
    expect(clicked).toHaveBeenCalledTimes(1);
    // ignoreBOM: keep the byte-order mark in the text instead of eating it
    const csv = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await blobs[0].arrayBuffer());
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv).toContain(`"张三",="${ID_A}","Kp7mQ2xZr9Ta"`);

    // closed, the passwords are gone; the selection was cleared
    fireEvent.click(screen.getByTestId('staff-accounts-close'));
    await waitFor(() => expect(screen.queryByText('Kp7mQ2xZr9Ta')).toBeNull());
    await waitFor(() => expect((screen.getByTestId('staff-accounts-batch') as HTMLButtonElement).disabled).toBe(true));
  });

  it('opens one login from the row button, asking first with the name', async () => {
    loginAs(['ACCOUNTSSTAFF_ALL', 'USER_ALL']);
    renderWithApp(<StaffPage />);
    await screen.findByText('张三', {}, { timeout: 8000 });
    const rowButton = screen.getAllByTestId('staff-account-row')[1];
    fireEvent.mouseEnter(rowButton);
    fireEvent.click(rowButton);
    await screen.findByText('确定为“李四”开通登录账号吗？');
    // the hover hint does not stay over the confirmation's buttons (U24)
    await waitFor(() => expect(document.querySelector('.ant-tooltip:not(.ant-tooltip-hidden)')).toBeNull());
    await confirmPopover('确定为“李四”开通登录账号吗？');
    await waitFor(() => expect(accountCalls()).toHaveLength(1));
    expect(accountCalls()[0].body).toEqual({ ids: [2] });
    expect(await screen.findByTestId('staff-accounts-result')).toBeTruthy();
  });
});

describe('accountsCsv', () => {
  it('keeps ID cards as text, quotes names and defuses formulas', () => {
    const csv = accountsCsv(
      [
        { staffId: 1, staffName: '=HYPERLINK("x")', username: '110101199003070011', password: 'abc"def' },
        { staffId: 2, staffName: '王五', username: 'wang.wu', password: 'p' },
      ],
      ['姓名', '用户名', '初始密码'],
    );
    expect(csv).toBe('\uFEFF"姓名","用户名","初始密码"\r\n"\'=HYPERLINK(""x"")",="110101199003070011","abc""def"\r\n"王五","wang.wu","p"\r\n');
  });
});
