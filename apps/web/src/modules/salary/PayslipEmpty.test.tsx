import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { installFakeFetch, loginAs, page, renderWithApp, setupI18n } from '../../crud/testUtils';
import PayslipPage from './PayslipPage';

beforeAll(async () => {
  await setupI18n();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('PayslipPage for an ordinary employee without payslips (findings W10)', { timeout: 30_000 }, () => {
  it('says there are no payslips yet instead of showing a table with only an 操作 header', async () => {
    installFakeFetch((call) => {
      if (call.path === '/api/dictDetail/map') return { body: {} };
      if (call.path === '/api/acPayslip') return page([], 0);
      return undefined;
    });
    loginAs(['ACPAYSLIP_SELECT'], { username: '110101199003070011', job: '普通员工' });
    renderWithApp(<PayslipPage />);
    expect(await screen.findByText('还没有您的工资条，工资发放后会显示在这里')).toBeTruthy();
    expect(screen.queryByText('操作')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
