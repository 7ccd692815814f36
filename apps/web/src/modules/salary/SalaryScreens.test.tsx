import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeCall, type FakeHandler, installFakeFetch, loginAs, page, renderWithApp, setupI18n } from '../../crud/testUtils';
import PayslipPage from './PayslipPage';
import SalaryPage from './SalaryPage';
import SalaryReportPage from './SalaryReportPage';

/** The salary screen reads its company and month from the address (links from the home screen): inside a router, as in the app. */
const renderSalaryPage = () => renderWithApp(
  <MemoryRouter>
    <SalaryPage />
  </MemoryRouter>,
);

const COMPANIES = [{ id: 3, companyName: '甲公司' }];
const ROW = {
  id: 5,
  companyId: 3,
  companyName: '甲公司',
  month: '2026-11',
  staffName: '张三',
  idCard: '110101199003074518',
  phone: '13800000000',
  salary: 8000,
  fiveOne: 1780,
  deduct: 0,
  jiaban: 0,
  koukuan: 0,
  tax: 12.6,
  realSalary: 6207.4,
  tag: 0,
};

beforeAll(async () => {
  await setupI18n();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function salaryFetch(rows: unknown[], log: unknown[], extra?: FakeHandler): FakeCall[] {
  return installFakeFetch(async (call) => {
    const more = await extra?.(call);
    if (more) return more;
    if (call.path === '/api/accountsCompany/all') return { body: COMPANIES };
    if (call.path === '/api/dictDetail/map') return { body: {} };
    if (call.path === '/api/accountsSalary' && call.method === 'GET') return page(rows);
    if (call.path === '/api/accountsConfirmLog') return page(log);
    return undefined;
  });
}

const button = (id: string) => screen.getByTestId(id) as HTMLButtonElement;

describe('SalaryPage', { timeout: 30_000 }, () => {
  it('shows the lock with who and when and disables edit, calculate, confirm and delete', async () => {
    const calls = salaryFetch([{ ...ROW, tag: 1 }], [{ companyId: 3, month: '2026-11', cname: '李会计', username: 'li', rowCount: 1, createTime: '2026-11-20T08:30:00' }]);
    loginAs(['ADMIN']);
    renderSalaryPage();
    expect(await screen.findByText('张三', {}, { timeout: 8000 })).toBeTruthy();
    const banner = await screen.findByTestId('salary-lock-banner');
    expect(banner.textContent).toContain('李会计');
    expect(banner.textContent).toMatch(/2026-11-20 \d\d:30:00/);
    expect(screen.getByTestId('salary-lock-tag')).toBeTruthy();
    expect(button('salary-calculate').disabled).toBe(true);
    expect(button('salary-confirm').disabled).toBe(true);
    expect(button('salary-edit').disabled).toBe(true);
    expect(button('salary-delete').disabled).toBe(true);
    // the list and the log are asked for the first company and the current month
    const list = calls.find((c) => c.path === '/api/accountsSalary');
    expect(list?.query.companyId).toBe('3');
    expect(list?.query.month).toMatch(/^\d{4}-\d{2}$/);
    expect(calls.find((c) => c.path === '/api/accountsConfirmLog')?.query).toMatchObject({ companyId: '3', month: list?.query.month });
  });

  it('反确认 of a locked month asks for a reason and posts it; only with the right', async () => {
    const locked = [{ companyId: 3, month: '2026-11', cname: '李会计', username: 'li', rowCount: 1, createTime: '2026-11-20T08:30:00' }];
    const calls = salaryFetch([{ ...ROW, tag: 1 }], locked, (call) => (call.path === '/api/accountsSalary/unconfirm' ? { body: { message: '反确认成功，共1条' } } : undefined));
    loginAs(['ACCOUNTSSALARY_SELECT', 'ACCOUNTSSALARY_UNCONFIRM']);
    renderSalaryPage();
    fireEvent.click(await screen.findByTestId('salary-unconfirm', {}, { timeout: 8000 }));
    fireEvent.click(await screen.findByTestId('salary-unconfirm-ok'));
    expect(await screen.findByText('请填写反确认原因')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/accountsSalary/unconfirm')).toBe(false);
    fireEvent.change(screen.getByTestId('salary-unconfirm-reason'), { target: { value: '加班费漏报' } });
    fireEvent.click(screen.getByTestId('salary-unconfirm-ok'));
    await waitFor(() => expect(calls.find((c) => c.path === '/api/accountsSalary/unconfirm')?.body).toMatchObject({ companyId: 3, reason: '加班费漏报' }));
    expect(await screen.findByText('反确认成功，共1条')).toBeTruthy();
    cleanup();
    salaryFetch([{ ...ROW, tag: 1 }], locked);
    loginAs(['ACCOUNTSSALARY_EDIT']);
    renderSalaryPage();
    await screen.findByTestId('salary-lock-tag', {}, { timeout: 8000 });
    expect(screen.queryByTestId('salary-unconfirm')).toBeNull();
  });

  it('disables confirm and calculate while there are no rows', async () => {
    salaryFetch([], []);
    loginAs(['ACCOUNTSSALARY_ALL']);
    renderSalaryPage();
    await waitFor(() => expect(screen.getByTestId('salary-open-tag')).toBeTruthy());
    await waitFor(() => expect(button('salary-confirm').disabled).toBe(true));
    expect(button('salary-calculate').disabled).toBe(true);
    expect(button('salary-generate').disabled).toBe(false);
    expect(screen.queryByTestId('salary-lock-banner')).toBeNull();
  });

  it('asks before confirming and shows the server message', async () => {
    const calls = salaryFetch([ROW], [], (call) => {
      if (call.path === '/api/accountsSalary/summary') return { body: { rows: 1, calculated: 1, editedRows: 0, manualRows: 0, confirmed: false } };
      return call.path === '/api/accountsSalary/confirm' ? { body: { message: '确认成功，共1条' } } : undefined;
    });
    loginAs(['ACCOUNTSSALARY_ALL']);
    renderSalaryPage();
    expect(await screen.findByText('张三', {}, { timeout: 8000 })).toBeTruthy();
    await waitFor(() => expect(button('salary-confirm').disabled).toBe(false));
    fireEvent.click(button('salary-confirm'));
    expect(await screen.findByText('你确定执行确认工资操作吗？')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/accountsSalary/confirm')).toBe(true));
    expect(calls.find((c) => c.path === '/api/accountsSalary/confirm')?.body).toMatchObject({ companyId: 3, companyName: '甲公司', acknowledgeWarnings: false });
    expect(await screen.findByText('确认成功，共1条')).toBeTruthy();
  });

  it('U15: 确认 stays disabled until every row is calculated', async () => {
    salaryFetch([ROW], [], (call) => (call.path === '/api/accountsSalary/summary' ? { body: { rows: 1, calculated: 0, editedRows: 0, manualRows: 0, confirmed: false } } : undefined));
    loginAs(['ACCOUNTSSALARY_ALL']);
    renderSalaryPage();
    expect(await screen.findByText('张三', {}, { timeout: 8000 })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('salary-steps').textContent).toContain('0 / 1'));
    expect(button('salary-confirm').disabled).toBe(true);
    expect(button('salary-calculate').disabled).toBe(false);
  });

  it('U2: open items stay above the table, tag the row, and 确认 needs the tick', async () => {
    const items = [
      { kind: 'taxDeduction', staffName: '张三', idCard: ROW.idCard, month: '2026-11', months: null, savedUnder: '甲公司', code: 'PAYROLL_INPUT_AGENT_UNKNOWN', reason: '保存在“甲公司”名下，但“甲公司”不是派遣单位' },
      { kind: 'unrecordedMonths', staffName: '张三', idCard: ROW.idCard, month: '2026-11', months: 10, savedUnder: '乙派遣', code: 'PAYROLL_UNRECORDED_MONTHS', reason: '本年在本派遣单位有10个任职月份未录入工资' },
    ];
    const calls = salaryFetch([ROW], [], (call) => {
      if (call.path === '/api/accountsSalary/summary') return { body: { rows: 1, calculated: 1, editedRows: 0, manualRows: 0, confirmed: false } };
      if (call.path === '/api/accountsSalary/report') return { body: { items } };
      return call.path === '/api/accountsSalary/confirm' ? { body: { message: '确认成功，共1条' } } : undefined;
    });
    loginAs(['ACCOUNTSSALARY_ALL']);
    renderSalaryPage();
    const alert = await screen.findByTestId('salary-open-alert', {}, { timeout: 8000 });
    expect(alert.textContent).toContain('本月计算有 2 项需要核对');
    expect(alert.textContent).toContain('专项附加扣除');
    expect(alert.textContent).toContain('10 个月');
    expect(alert.textContent).toContain('录入在“甲公司”名下');
    expect(await screen.findByTestId('salary-row-open-tag')).toBeTruthy();
    await waitFor(() => expect(button('salary-confirm').disabled).toBe(false));
    fireEvent.click(button('salary-confirm'));
    const dialog = await screen.findByTestId('salary-confirm-dialog');
    expect(dialog.textContent).toContain('我已核对以上 2 项，仍然确认');
    const ok = screen.getByTestId('salary-confirm-ok') as HTMLButtonElement;
    expect(ok.disabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('checkbox'));
    await waitFor(() => expect(ok.disabled).toBe(false));
    fireEvent.click(ok);
    await waitFor(() => expect(calls.find((c) => c.path === '/api/accountsSalary/confirm')?.body).toMatchObject({ companyId: 3, acknowledgeWarnings: true }));
  });

  it('generates an empty month at once, but asks before generating again and names the hand edits kept', async () => {
    let summary = { rows: 0, calculated: 0, editedRows: 0, manualRows: 0, confirmed: false };
    const calls = salaryFetch([ROW], [], (call) => {
      if (call.path === '/api/accountsSalary/summary') return { body: summary };
      if (call.path === '/api/accountsSalary/generator') return { body: { message: '生成成功，共1条' } };
      return undefined;
    });
    loginAs(['ACCOUNTSSALARY_ALL']);
    renderSalaryPage();
    expect(await screen.findByText('张三', {}, { timeout: 8000 })).toBeTruthy();
    const generated = () => calls.filter((c) => c.path === '/api/accountsSalary/generator').length;
    fireEvent.click(button('salary-generate'));
    await waitFor(() => expect(generated()).toBe(1));
    expect(calls.find((c) => c.path === '/api/accountsSalary/summary')?.query).toMatchObject({ companyId: '3' });

    summary = { rows: 7, calculated: 7, editedRows: 5, manualRows: 1, confirmed: false };
    fireEvent.click(button('salary-generate'));
    expect(await screen.findByText(/本月已有 7 条工资数据.*其中 5 条人工修改的加班费\/扣款和 1 条手工添加的数据将保留/)).toBeTruthy();
    expect(generated()).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(generated()).toBe(2));
  });

  it('shows where the month stands: generated, calculated with counts, confirmed', async () => {
    salaryFetch([ROW], [], (call) => (call.path === '/api/accountsSalary/summary' ? { body: { rows: 7, calculated: 5, editedRows: 0, manualRows: 0, confirmed: false } } : undefined));
    loginAs(['ACCOUNTSSALARY_ALL']);
    renderSalaryPage();
    const steps = await screen.findByTestId('salary-steps', {}, { timeout: 8000 });
    await waitFor(() => expect(steps.textContent).toContain('5 / 7 条'));
    expect(steps.textContent).toContain('7 条');
    expect(steps.textContent).toContain('已确认');
    // the second step is the current one: generated, not all calculated yet
    expect(steps.querySelectorAll('.ant-steps-item-finish')).toHaveLength(1);
  });

  it('edits overtime and deduction inline and saves them as numbers', async () => {
    const calls = salaryFetch([ROW], [], (call) => (call.path === '/api/accountsSalary' && call.method === 'PUT' ? { body: { ...ROW, jiaban: 150.5, koukuan: 20 } } : undefined));
    loginAs(['ACCOUNTSSALARY_EDIT']);
    renderSalaryPage();
    expect(await screen.findByText('张三', {}, { timeout: 8000 })).toBeTruthy();
    // no delete code -> no delete button
    expect(screen.queryByTestId('salary-delete')).toBeNull();
    fireEvent.click(button('salary-edit'));
    const jiaban = within(await screen.findByTestId('salary-input-jiaban')).queryByRole('spinbutton') ?? screen.getByLabelText('jiaban');
    const koukuan = within(screen.getByTestId('salary-input-koukuan')).queryByRole('spinbutton') ?? screen.getByLabelText('koukuan');
    fireEvent.change(jiaban, { target: { value: '150.5' } });
    fireEvent.change(koukuan, { target: { value: '20' } });
    fireEvent.click(screen.getByTestId('salary-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const body = calls.find((c) => c.method === 'PUT')?.body as Record<string, unknown>;
    // 补发/补扣/经济补偿金 go along as the row has them (none here)
    expect(body).toEqual({ id: 5, jiaban: 150.5, koukuan: 20, backPay: 0, backPayMonth: null, backDeduct: 0, backDeductMonth: null, severance: 0 });
    expect(typeof body.jiaban).toBe('number');
    await waitFor(() => expect(screen.queryByTestId('salary-save')).toBeNull());
  });

  it('cancel leaves the row unchanged without a call', async () => {
    const calls = salaryFetch([ROW], []);
    loginAs(['ACCOUNTSSALARY_EDIT']);
    renderSalaryPage();
    expect(await screen.findByText('张三', {}, { timeout: 8000 })).toBeTruthy();
    fireEvent.click(button('salary-edit'));
    fireEvent.click(await screen.findByTestId('salary-cancel'));
    await waitFor(() => expect(screen.queryByTestId('salary-input-jiaban')).toBeNull());
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    // money is shown with two decimals: in the row and in the page's 合计 (U5) of this one row
    expect(screen.getAllByText('6,207.40')).toHaveLength(2);
    expect(screen.getByTestId('page-totals-label').textContent).toBe('合计');
  });
});

describe('PayslipPage for an ordinary employee', { timeout: 30_000 }, () => {
  it('hides the name/idCard search and shows only the columns that carry data', async () => {
    const me = '110101199003074518';
    const calls = installFakeFetch((call) => {
      if (call.path === '/api/acPayslip') return page([{ id: 1, month: '2026-10', name: '张三', idCard: me, jichu: 8000, benqi: 8150.5, yanglao: 640, shifa: 6207.4, gonghao: null, beizhu: '加班费150.50元' }]);
      return undefined;
    });
    loginAs(['ACPAYSLIP_SELECT'], { username: me, job: '普通员工' });
    renderWithApp(<PayslipPage />);
    expect(await screen.findByText('2026-10', {}, { timeout: 8000 })).toBeTruthy();
    expect(screen.queryByTestId('crud-filter-name')).toBeNull();
    expect(screen.queryByTestId('crud-filter-idCard')).toBeNull();
    expect(screen.getByTestId('crud-filter-month')).toBeTruthy();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent ?? '');
    // U8: the month and what was paid first; their own name and ID card are not columns
    expect(headers.filter(Boolean).slice(0, 2)).toEqual(['月份', '实发']);
    expect(headers.some((h) => h.includes('姓名') || h.includes('身份证号'))).toBe(false);
    expect(headers.some((h) => h.includes('基础工资'))).toBe(true);
    expect(headers.some((h) => h.includes('养老'))).toBe(true);
    expect(headers.some((h) => h.includes('工号'))).toBe(false);
    expect(headers.some((h) => h.includes('应纳税额'))).toBe(false);
    // own payslips only, newest month first
    const list = calls.find((c) => c.path === '/api/acPayslip');
    expect(list?.query).toMatchObject({ isFilter: '1', idCard: me, sort: ['month,desc', 'idCard,asc'] });
    // no import, no generate, single-person export
    expect(screen.queryByTestId('crud-import')).toBeNull();
    expect(screen.queryByTestId('payslip-generate')).toBeNull();
    expect(screen.getByTestId('payslip-export-one')).toBeTruthy();
    // the printable sheet lists only items with an amount
    fireEvent.click(screen.getByTestId('payslip-view'));
    const sheet = await screen.findByTestId('payslip-sheet');
    expect(sheet.querySelector('[data-item="jichu"]')).not.toBeNull();
    expect(sheet.querySelector('[data-item="yanglao"]')).not.toBeNull();
    expect(sheet.querySelector('[data-item="gonghui"]')).toBeNull();
    expect(within(sheet).getByTestId('payslip-net').textContent).toContain('6,207.40');
    const print = vi.fn();
    vi.stubGlobal('print', print);
    fireEvent.click(screen.getByTestId('payslip-print'));
    expect(print).toHaveBeenCalled();
  });
});

describe('SalaryReportPage', { timeout: 30_000 }, () => {
  it('lists the labour cost of each client company for the month, with a totals row', async () => {
    const calls = installFakeFetch((call) => {
      if (call.path === '/api/accountsCompany/all') return { body: COMPANIES };
      if (call.path === '/api/accountsSalary/costSummary')
        return {
          body: {
            month: call.query.month,
            companies: [
              { companyId: 3, companyName: '甲公司', rows: 2, gross: 17500, employerTotal: 6579, labourCost: 24079, confirmed: true },
              { companyId: 4, companyName: '乙公司', rows: 1, gross: 8000, employerTotal: 3096, labourCost: 11096, confirmed: false },
            ],
            total: { rows: 3, gross: 25500, employerTotal: 9675, labourCost: 35175 },
          },
        };
      return undefined;
    });
    loginAs(['ACCOUNTSSALARY_ALL'], { cname: '李会计' });
    renderWithApp(<SalaryReportPage />);
    const table = await screen.findByTestId('salary-cost', {}, { timeout: 8000 });
    await waitFor(() => expect(table.textContent).toContain('乙公司'));
    expect(table.textContent).toContain('24,079.00');
    expect(table.textContent).toContain('35,175.00');
    expect(calls.find((c) => c.path === '/api/accountsSalary/costSummary')?.query.month).toMatch(/^\d{4}-\d{2}$/);
  });

  it('posts company, month and cname; a JSON answer shows its message; 405 shows 接口异常', async () => {
    let status = 200;
    const calls = installFakeFetch((call) => {
      if (call.path === '/api/accountsCompany/all') return { body: COMPANIES };
      if (call.path === '/api/export/accountsSalary') return status === 200 ? { body: { message: '该单位本月没有工资数据，无法导出报表' } } : { status: 405, body: undefined };
      return undefined;
    });
    loginAs(['ACCOUNTSSALARY_ALL'], { cname: '李会计' });
    renderWithApp(<SalaryReportPage />);
    await waitFor(() => expect(screen.getByText('甲公司')).toBeTruthy(), { timeout: 8000 });
    fireEvent.click(screen.getByTestId('report-download'));
    expect(await screen.findByText('该单位本月没有工资数据，无法导出报表')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/export/accountsSalary')).toMatchObject({ method: 'POST', body: { companyId: 3, cname: '李会计' } });
    status = 405;
    fireEvent.click(screen.getByTestId('report-download'));
    expect(await screen.findByText('接口异常，请联系管理员！')).toBeTruthy();
  });
});
