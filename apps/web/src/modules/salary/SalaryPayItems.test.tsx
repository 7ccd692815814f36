import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import dayjs from 'dayjs';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeCall, type FakeHandler, installFakeFetch, loginAs, page, renderWithApp, setupI18n } from '../../crud/testUtils';
import SalaryPage from './SalaryPage';

// 补发 / 补扣 with their months and 经济补偿金 (issue 20 item 7) are edited with the row's inline edit.

// the page opens on the current month: the row belongs to it, the referred months are the two before
const MONTH = dayjs().format('YYYY-MM');
const BEFORE = dayjs().subtract(2, 'month').format('YYYY-MM');
const LAST = dayjs().subtract(1, 'month').format('YYYY-MM');
const ROW = { id: 5, companyId: 3, companyName: '甲公司', month: MONTH, staffName: '张三', idCard: '110101199003074518', salary: 8000, jiaban: 0, koukuan: 0, tag: 0 };

beforeAll(async () => {
  await setupI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function salaryFetch(put: FakeHandler): FakeCall[] {
  return installFakeFetch(async (call) => {
    if (call.path === '/api/accountsSalary' && call.method === 'PUT') return put(call);
    if (call.path === '/api/accountsCompany/all') return { body: [{ id: 3, companyName: '甲公司' }] };
    if (call.path === '/api/dictDetail/map') return { body: {} };
    if (call.path === '/api/accountsSalary' && call.method === 'GET') return page([ROW]);
    if (call.path === '/api/accountsConfirmLog') return page([]);
    return undefined;
  });
}

const spin = (testId: string) => screen.getByTestId(testId);
function pickMonth(label: string, value: string) {
  const input = screen.getByLabelText(label) as HTMLInputElement;
  fireEvent.mouseDown(input);
  fireEvent.change(input, { target: { value } });
  fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
}
async function startEdit() {
  // the page reads ?companyId=&month= (links from 首页)
  renderWithApp(
    <MemoryRouter>
      <SalaryPage />
    </MemoryRouter>,
  );
  // the first render of the screen in a file takes longest (seen over 8 s on a loaded 2-core machine)
  expect(await screen.findByText('张三', {}, { timeout: 20_000 })).toBeTruthy();
  fireEvent.click(screen.getByTestId('salary-edit'));
  expect((await screen.findByTestId('salary-pay-items')).textContent).toContain('张三 的补发、补扣和经济补偿金');
}

describe('SalaryPage: 补发/补扣/经济补偿金', { timeout: 60_000 }, () => {
  it('edits them with their months in the row’s edit and sends them with 加班费/扣款', async () => {
    const calls = salaryFetch(() => ({ status: 204 }));
    loginAs(['ACCOUNTSSALARY_EDIT']);
    await startEdit();
    // the row's button saves the edit: it says 保存, not 确认 (the month's lock, on the same screen)
    expect(screen.getByTestId('salary-save').textContent).toBe('保存');
    fireEvent.change(spin('salary-input-backPay'), { target: { value: '2000' } });
    pickMonth('补发所属月份', BEFORE);
    fireEvent.change(spin('salary-input-backDeduct'), { target: { value: '300.5' } });
    pickMonth('补扣所属月份', LAST);
    fireEvent.change(spin('salary-input-severance'), { target: { value: '12000' } });
    fireEvent.click(screen.getByTestId('salary-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      id: 5,
      jiaban: 0,
      koukuan: 0,
      backPay: 2000,
      backPayMonth: BEFORE,
      backDeduct: 300.5,
      backDeductMonth: LAST,
      severance: 12000,
    });
    await waitFor(() => expect(screen.queryByTestId('salary-pay-items')).toBeNull());
  });

  it('an amount without its month is refused on the month field before any call', async () => {
    const calls = salaryFetch(() => ({ status: 204 }));
    loginAs(['ACCOUNTSSALARY_EDIT']);
    await startEdit();
    fireEvent.change(spin('salary-input-backDeduct'), { target: { value: '100' } });
    fireEvent.click(screen.getByTestId('salary-save'));
    expect(await screen.findByText('请选择所属月份')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('the server’s refusal shows on the field it concerns', async () => {
    const refusal = `补发所属月份（${BEFORE}）应早于工资月份（${MONTH}）`;
    const calls = salaryFetch(() => ({ status: 400, body: { status: 400, message: refusal } }));
    loginAs(['ACCOUNTSSALARY_EDIT']);
    await startEdit();
    fireEvent.change(spin('salary-input-backPay'), { target: { value: '10' } });
    pickMonth('补发所属月份', BEFORE);
    fireEvent.click(screen.getByTestId('salary-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const field = (screen.getByTestId('salary-input-backPayMonth').closest('.ant-form-item') as HTMLElement) ?? document.body;
    await waitFor(() => expect(field.textContent).toContain(refusal));
    // a long refusal wraps inside the panel instead of widening the item (and the page) past the screen
    expect(field.style.maxWidth).toBe('100%');
    // the row stays in edit to be corrected
    expect(screen.getByTestId('salary-pay-items')).toBeTruthy();
  });
});
