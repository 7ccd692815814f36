import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeCall, batchDeleteRows, installFakeFetch, loginAs, page, renderWithApp, setupI18n } from '../../crud/testUtils';
import { contractEndProblem, contractStartProblem } from './StaffDialog';
import ContractWarnPage from './ContractWarnPage';
import StaffPage from './StaffPage';

const COMPANIES = [
  { id: 7, companyName: '甲公司', dispatchCompany: '派遣一部', gjjBase: 5000, yanglaoBase: 4000, yilaoBase: 4100, shiyeBase: 4200, gongshangBase: 4300, shengyuBase: 4400 },
  { id: 3, companyName: '乙公司', dispatchCompany: '派遣二部', gjjBase: 6000, yanglaoBase: 6100, yilaoBase: 6200, shiyeBase: 6300, gongshangBase: 6400, shengyuBase: 6500 },
];
const DICTS: Record<string, { label: string; value: string }[]> = {
  census_type: [{ label: '本农', value: 'bennong' }],
  dispatch_company: [
    { label: '派遣一部', value: '0.004' },
    { label: '派遣二部', value: '0.006' },
  ],
  bennong: [
    { label: 'gjjRatio', value: '0.12' },
    { label: 'yanglaoRatioCompany', value: '0.16' },
    { label: 'yanglaoRatioSelf', value: '0.08' },
    { label: 'shiyeRatioSelf', value: '0.005' },
    { label: 'floor', value: '3000' },
  ],
};

let calls: FakeCall[];
const staffCalls = () => calls.filter((c) => c.method === 'GET' && c.path === '/api/accountsStaff');
const input = (name: string) => document.getElementById(`crud-accountsStaff_${name}`) as HTMLInputElement;

beforeAll(async () => {
  await setupI18n();
});

beforeEach(() => {
  loginAs(['ACCOUNTSSTAFF_ALL']);
  calls = installFakeFetch((call) => {
    if (call.path === '/api/accountsCompany/all') return page(COMPANIES);
    if (call.path === '/api/dictDetail/map') {
      const names = String(call.query.dictName ?? '').split(',');
      return { body: Object.fromEntries(names.map((n) => [n, DICTS[n] ?? []])) };
    }
    if (call.path === '/api/accountsStaff' && call.method === 'GET')
      return page([
        { id: 1, staffName: '张三', idCard: '11010519491231002X', companyName: '甲公司' },
        { id: 2, staffName: '李四', idCard: '110105194912310029', companyName: '甲公司' },
      ]);
    if (call.path.startsWith('/api/accountsStaff') && call.method === 'DELETE') return { body: {} };
    return undefined;
  });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Open an antd select by its input and click the option with `text`. */
async function pick(selectInput: HTMLElement, text: string) {
  fireEvent.mouseDown(selectInput);
  const option = await waitFor(() => {
    const found = Array.from(document.querySelectorAll('.ant-select-item-option')).find((o) => o.textContent === text);
    if (!found) throw new Error(`no option ${text}`);
    return found;
  });
  fireEvent.click(option);
}

describe('staff list', () => {
  it('preselects the first company and loads only with a company', async () => {
    renderWithApp(<StaffPage />);
    await screen.findByText('张三', {}, { timeout: 8000 });
    expect(staffCalls().every((c) => c.query.companyId === '7')).toBe(true);
  });

  it("shows '请选择一个单位' and stops loading when the company is cleared", async () => {
    renderWithApp(<StaffPage />);
    await screen.findByText('张三', {}, { timeout: 8000 });
    const before = staffCalls().length;
    const select = screen.getByTestId('company-select');
    const clear = select.querySelector('.ant-select-clear') as HTMLElement;
    fireEvent.mouseDown(clear);
    fireEvent.click(clear);
    expect((await screen.findByTestId('choose-company-hint')).textContent).toContain('请选择一个单位');
    await waitFor(() => expect(document.querySelector('.ant-notification-notice')?.textContent).toContain('请选择一个单位'));
    expect(staffCalls().length).toBe(before);
    expect(screen.queryByText('张三')).toBeNull();
  });

  it('batch deletes the checked staff with the generic page\'s confirmation (DELETE with the id array)', async () => {
    renderWithApp(<StaffPage />);
    await screen.findByText('李四', {}, { timeout: 8000 });
    expect(screen.getAllByRole('checkbox').filter((c) => c.closest('tr.ant-table-row')).length).toBe(2);
    await batchDeleteRows([0, 1]);
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')).toMatchObject({ path: '/api/accountsStaff', body: [1, 2] }));
    expect(await screen.findByText('删除成功')).toBeTruthy();
  });

  it('offers no batch delete without the delete code', async () => {
    loginAs(['ACCOUNTSSTAFF_SELECT']);
    renderWithApp(<StaffPage />);
    await screen.findByText('张三', {}, { timeout: 8000 });
    expect(screen.queryByTestId('crud-batch-delete')).toBeNull();
    expect(screen.queryAllByRole('checkbox').filter((c) => c.closest('tr.ant-table-row')).length).toBe(0);
  });
});

describe('contract reminder screen', () => {
  it('always asks for 已提醒 rows of the chosen company', async () => {
    renderWithApp(<ContractWarnPage />);
    await screen.findByText('张三', {}, { timeout: 8000 });
    expect(staffCalls().length).toBeGreaterThan(0);
    for (const c of staffCalls()) {
      expect(c.query.contractWarnState).toBe('已提醒');
      expect(c.query.companyId).toBe('7');
    }
    expect(screen.queryByTestId('crud-filter-contractWarnState')).toBeNull();
    expect(screen.queryByTestId('crud-batch-delete')).toBeNull();
  });
});

describe('staff dialog derivations', () => {
  async function openDialog() {
    renderWithApp(<StaffPage />);
    await screen.findByText('张三', {}, { timeout: 8000 });
    await act(async () => {
      fireEvent.click(screen.getByTestId('crud-add'));
    });
    return screen.findByTestId('staff-dialog');
  }

  it('copies the bases and injury ratio of the company', async () => {
    const dialog = await openDialog();
    await waitFor(() => expect(input('gjjBase').value).toBe('5000'));
    expect(input('yiliaoBase').value).toBe('4100');
    expect(input('yiliaoBaseSelf').value).toBe('4100');
    expect(input('gongshangRatioCompany').value).toBe('0.4'); // shown as a percentage (U20)
    await pick(within(dialog).getByTestId('staff-company').querySelector('input') as HTMLElement, '乙公司');
    await waitFor(() => expect(input('gjjBase').value).toBe('6000'));
    expect(input('shengyuBase').value).toBe('6500');
    expect(input('gongshangRatioCompany').value).toBe('0.6');
  });

  it('fills sex, birth date and age from a valid ID card', async () => {
    await openDialog();
    fireEvent.change(input('idCard'), { target: { value: '110105194912310' } });
    fireEvent.change(input('idCard'), { target: { value: '11010519491231002X' } });
    await waitFor(() => expect((screen.getByTestId('staff-derived-sex') as HTMLInputElement).value).toBe('女'));
    expect((screen.getByTestId('staff-derived-born') as HTMLInputElement).value).toBe('1949-12-31');
    expect(Number((screen.getByTestId('staff-derived-age') as HTMLInputElement).value)).toBeGreaterThanOrEqual(75);
  });

  it('fills the ratios from the census type rate dictionary', async () => {
    await openDialog();
    await pick(input('censusType'), '本农');
    await waitFor(() => expect(input('gjjRatio').value).toBe('12'));
    expect(input('yanglaoRatioCompany').value).toBe('16');
    expect(input('yanglaoRatioSelf').value).toBe('8');
    expect(input('shiyeRatioSelf').value).toBe('0.5');
    expect(calls.some((c) => c.path === '/api/dictDetail/map' && c.query.dictName === 'bennong')).toBe(true);
  });

  it('shows the validation message of an empty required field', async () => {
    const dialog = await openDialog();
    fireEvent.change(input('staffName'), { target: { value: 'x' } });
    fireEvent.change(input('staffName'), { target: { value: '' } });
    expect(await within(dialog).findByText('请输入员工姓名')).toBeTruthy();
  });
});

describe('contract date rules', () => {
  it('refuses a start after the end and an end before the start', () => {
    expect(contractStartProblem('2025-05-01', '2025-04-01')).toBe('合同开始日期不能晚于结束日期');
    expect(contractEndProblem('2025-05-01', '2025-04-01')).toBe('合同结束日期不能早于开始日期');
    expect(contractStartProblem('2025-01-01', '2026-01-01')).toBeNull();
    expect(contractStartProblem('2999-01-01', null)).toBe('合同开始日期不能晚于今天');
  });
});
