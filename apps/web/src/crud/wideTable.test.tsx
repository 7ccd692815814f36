import { companyResource } from '@app/shared/resources/company';
import { payslipResource } from '@app/shared/resources/payslip';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ResourcePage } from './ResourcePage';
import { installFakeFetch, loginAs, page, renderWithApp, setupI18n } from './testUtils';

beforeAll(async () => {
  await setupI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Finding W2: on a wide table the row's name stays on the left (with the selection boxes) while the rest scrolls. */
describe('wide tables keep the row identity on the left (W2)', { timeout: 30_000 }, () => {
  const headerCell = (text: string) => screen.getAllByRole('columnheader').find((th) => th.textContent === text);

  it('工资条: 姓名 first and fixed left', async () => {
    installFakeFetch((call) => {
      if (call.path === '/api/dictDetail/map') return { body: {} };
      if (call.path === '/api/acPayslip') return page([{ id: 1, month: '2026-01', name: '张三', idCard: '110101199001011234', jichu: 8000, shifa: 6549.09 }]);
      return undefined;
    });
    loginAs(['ACPAYSLIP_ALL']);
    renderWithApp(<ResourcePage resource={payslipResource} />);
    await screen.findByText('张三');
    await waitFor(() => expect(headerCell('姓名')?.className).toMatch(/ant-table-cell-fix-(left|start)/));
    // after the expand and selection columns, 姓名 comes first
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers.filter(Boolean)[0]).toBe('姓名');
  });

  it('单位管理: 单位名称 is the identity when there is no person', async () => {
    installFakeFetch((call) => {
      if (call.path === '/api/dictDetail/map') return { body: {} };
      if (call.path === '/api/accountsCompany') return page([{ id: 1, companyName: '甲单位' }]);
      return undefined;
    });
    loginAs(['ACCOUNTSCOMPANY_ALL']);
    renderWithApp(<ResourcePage resource={companyResource} />);
    await screen.findByText('甲单位');
    await waitFor(() => expect(headerCell('单位名称')?.className).toMatch(/ant-table-cell-fix-(left|start)/));
  });
});
