import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { type FakeCall, installFakeFetch, loginAs, page, renderWithApp, setupI18n } from '../../crud/testUtils';
import { CompanyTermsSection, nextValidFrom } from './CompanyTermsSection';
import CompanyPage from './CompanyPage';

// 单位管理's dialog › 结算条款 (issue 22 item 1) against a fake server: the versions newest first, a new version
// copied from the newest, the refusals in the form, a delete asked first, a new company told its terms follow the save.

const DICTS: Record<string, { label: string; value: string }[]> = {
  settlement_fee_mode: [
    { label: '按人头（元/人/月）', value: 'PER_HEAD' },
    { label: '按应发工资比例', value: 'PCT_WAGE' },
  ],
  settlement_fee_tax_mode: [
    { label: '含税', value: 'INCLUSIVE' },
    { label: '不含税（另加税金）', value: 'EXCLUSIVE' },
  ],
  settlement_si_lag: [
    { label: '当月收当月', value: '0' },
    { label: '当月收下月', value: '1' },
  ],
  settlement_disabled_share: [
    { label: '不分摊', value: 'NONE' },
    { label: '按人头', value: 'PER_HEAD' },
    { label: '按应发工资比例', value: 'PCT_WAGE' },
  ],
  dispatch_company: [{ label: '北京华派人力资源有限公司', value: '0.004' }],
};
const TERMS = [
  { id: 12, companyId: 5, validFrom: '2026-03', feeMode: 'PCT_WAGE', feeAmount: 0, feeRate: 0.05, feeTaxMode: 'EXCLUSIVE', siBillingLag: '1', disabledShareMode: 'PCT_WAGE', disabledShareAmount: 0, disabledShareRate: 0.015, unionFeeRatio: 0.02, perHeadItems: '商保:30.00; 体检:15.50' },
  { id: 11, companyId: 5, validFrom: '2025-12', feeMode: 'PER_HEAD', feeAmount: 150, feeRate: 0, feeTaxMode: 'INCLUSIVE', siBillingLag: '0', disabledShareMode: 'PER_HEAD', disabledShareAmount: 12.34, disabledShareRate: 0, unionFeeRatio: 0, perHeadItems: '' },
];

let calls: FakeCall[];
const termCalls = (method: string) => calls.filter((c) => c.method === method && c.path.startsWith('/api/settlementTerms'));

beforeAll(async () => {
  await setupI18n();
});
beforeEach(() => {
  loginAs(['SETTLEMENTTERMS_ALL', 'ACCOUNTSCOMPANY_ALL']);
  calls = installFakeFetch((call) => {
    if (call.path === '/api/dictDetail/map') {
      const names = String(call.query.dictName ?? '').split(',');
      return { body: Object.fromEntries(names.map((n) => [n, DICTS[n] ?? []])) };
    }
    if (call.path === '/api/settlementTerms' && call.method === 'GET') return page(call.query.companyId === '5' ? TERMS : []);
    if (call.path === '/api/settlementTerms' && call.method === 'POST') {
      const body = call.body as Record<string, unknown>;
      // the server's own check (terms.ts): 工会经费 is 0 or 2 % of 应发
      if (![0, 0.02].includes(Number(body.unionFeeRatio))) return { status: 400, body: { status: 400, message: '工会经费比例只能是0或0.02', fieldErrors: { unionFeeRatio: '工会经费比例只能是0或0.02' } } };
      return { body: { id: 13, ...body } };
    }
    if (call.path.startsWith('/api/settlementTerms') && (call.method === 'PUT' || call.method === 'DELETE')) return { body: {} };
    if (call.path === '/api/accountsCompany' && call.method === 'GET') return page([]);
    if (call.path === '/api/accountsCompany' && call.method === 'POST') return { body: { id: 42, ...(call.body as object) } };
    return undefined;
  });
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await changeLanguage('zh');
});

const rowsText = () => Array.from(screen.getByTestId('company-terms-table').querySelectorAll('tr.ant-table-row')).map((r) => r.textContent ?? '');

describe('结算条款 in the company dialog', () => {
  it('lists the company’s versions newest first with fee, tax mode, SI month, 残保金, 工会经费 and per-head items', async () => {
    renderWithApp(<CompanyTermsSection companyId={5} />);
    await waitFor(() => expect(rowsText()).toHaveLength(2));
    const list = termCalls('GET').at(-1);
    expect(list?.query).toMatchObject({ companyId: '5', sort: 'validFrom,desc' });
    const [newest, older] = rowsText();
    expect(newest).toContain('2026-03');
    expect(newest).toContain('按应发工资比例 5%');
    expect(newest).toContain('不含税（另加税金）');
    expect(newest).toContain('当月收下月');
    expect(newest).toContain('按应发工资比例 1.5%');
    expect(newest).toContain('2%');
    expect(newest).toContain('商保:30.00; 体检:15.50');
    expect(older).toContain('2025-12');
    expect(older).toContain('按人头（元/人/月） 150.00');
    expect(older).toContain('按人头 12.34');
  });

  it('adds a version copied from the newest, from the month after it, for this company only', async () => {
    renderWithApp(<CompanyTermsSection companyId={5} />);
    await waitFor(() => expect(rowsText()).toHaveLength(2));
    fireEvent.click(screen.getByTestId('company-terms-add'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('新增结算条款版本')).toBeTruthy();
    // the company is this one: not asked
    expect(document.getElementById('crud-settlementTerms_companyId')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(termCalls('POST')).toHaveLength(1));
    expect(termCalls('POST')[0].body).toMatchObject({ companyId: 5, validFrom: nextValidFrom(TERMS), feeMode: 'PCT_WAGE', feeRate: 0.05, siBillingLag: '1', unionFeeRatio: 0.02, perHeadItems: '商保:30.00; 体检:15.50' });
    expect(nextValidFrom(TERMS, dayjs('2026-01-15'))).toBe('2026-04');
    expect(nextValidFrom(TERMS, dayjs('2026-07-01'))).toBe('2026-07');
    expect(nextValidFrom([], dayjs('2026-07-01'))).toBe('2026-07');
  });

  it('refuses an empty 生效月份 in the dialog, in Chinese and in English', async () => {
    renderWithApp(<CompanyTermsSection companyId={5} />);
    await waitFor(() => expect(rowsText()).toHaveLength(2));
    fireEvent.click(screen.getByTestId('company-terms-edit-2026-03'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('编辑2026-03起的结算条款')).toBeTruthy();
    const month = document.getElementById('crud-settlementTerms_validFrom') as HTMLInputElement;
    expect(month.value).toBe('2026-03');
    fireEvent.mouseDown(month);
    const clear = dialog.querySelector('.ant-picker-clear') as HTMLElement;
    fireEvent.mouseDown(clear);
    fireEvent.mouseUp(clear);
    fireEvent.click(clear);
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('请选择生效月份')).toBeTruthy();
    expect(termCalls('PUT')).toHaveLength(0);

    await changeLanguage('en');
    fireEvent.click(within(dialog).getByRole('button', { name: /OK|确\s*定/ }));
    await waitFor(() => expect(within(dialog).getByText(/Valid from/, { selector: '.ant-form-item-explain-error' })).toBeTruthy());
    expect(termCalls('PUT')).toHaveLength(0);
  });

  it('shows the server’s refusal of a union ratio other than 0 or 2 % on its field', async () => {
    renderWithApp(<CompanyTermsSection companyId={5} />);
    await waitFor(() => expect(rowsText()).toHaveLength(2));
    fireEvent.click(screen.getByTestId('company-terms-add'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(document.getElementById('crud-settlementTerms_unionFeeRatio') as HTMLInputElement, { target: { value: '3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(termCalls('POST')).toHaveLength(1));
    expect(termCalls('POST')[0].body).toMatchObject({ unionFeeRatio: '0.03' });
    expect(await within(dialog).findByText('工会经费比例只能是0或0.02', { selector: '.ant-form-item-explain-error' })).toBeTruthy();
  });

  it('saves an edit of one version with its id', async () => {
    renderWithApp(<CompanyTermsSection companyId={5} />);
    await waitFor(() => expect(rowsText()).toHaveLength(2));
    fireEvent.click(screen.getByTestId('company-terms-edit-2025-12'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(document.getElementById('crud-settlementTerms_perHeadItems') as HTMLInputElement, { target: { value: '体检:20' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(termCalls('PUT')).toHaveLength(1));
    expect(termCalls('PUT')[0].body).toMatchObject({ id: 11, companyId: 5, validFrom: '2025-12', feeAmount: 150, perHeadItems: '体检:20' });
  });

  it('deletes a version only after the confirmation', async () => {
    renderWithApp(<CompanyTermsSection companyId={5} />);
    await waitFor(() => expect(rowsText()).toHaveLength(2));
    fireEvent.click(screen.getByTestId('company-terms-delete-2025-12'));
    expect(await screen.findByText('确定删除本条数据吗？')).toBeTruthy();
    expect(termCalls('DELETE')).toHaveLength(0);
    const pop = document.querySelector('.ant-popconfirm') as HTMLElement;
    fireEvent.click(within(pop).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(termCalls('DELETE').map((c) => c.path)).toEqual(['/api/settlementTerms/11']));
  });

  it('a company without terms is told so; a user without the code sees no section', async () => {
    renderWithApp(<CompanyTermsSection companyId={6} />);
    expect(await screen.findByTestId('company-terms-none')).toBeTruthy();
    cleanup();
    loginAs(['ACCOUNTSCOMPANY_ALL']);
    renderWithApp(<CompanyTermsSection companyId={5} />);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('company-terms')).toBeNull();
    expect(termCalls('GET')).toHaveLength(1);
  });

  it('a new company’s dialog says its terms follow once it is saved (CompanyPage keeps it open: ResourcePage.test)', async () => {
    renderWithApp(<CompanyPage />);
    fireEvent.click(await screen.findByTestId('crud-add'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('company-terms-after-save').textContent).toContain('保存单位后');
    expect(termCalls('GET')).toHaveLength(0);
  });
});
