import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeScreen, choose, confirmBy, expectNotice, type Harness, login, openDialog, openDialogBy, openScreen, screenshot, SCREENSHOT_DIR, startHarness, tableRow, typeDate } from './harness';

/**
 * Month close I (issue 22) in the browser: one client company through 生成 → 发送 → 客户确认 → 开票 → 登记回款 on
 * 薪资管理 › 结算单, then the receipt on 回款登记 and the month on 应收台账. The salary month is confirmed and the
 * terms and VAT regime are entered through the API first; the terms are then edited in 单位管理's dialog (结算条款:
 * an edit, a new version, a delete), and the statement is printed for the client.
 */
describe('settlement statements', () => {
  let h: Harness;
  const company = '结算测试物业';
  let companyId = 0;
  let confirmCurrentMonth: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    h = await startHarness();
    const { adminToken, companyBody, createStaff } = await import('../../server/test/dispatch-fixtures.ts');
    const { api, runMonth, vectorStaff } = await import('../../server/test/payroll-fixtures.ts');
    const token = await adminToken(h.app);
    const call = api(h.app, token);
    const c = (await call('POST', '/api/accountsCompany', companyBody({ companyName: company }))).body;
    companyId = c.id;
    // this month (China time) confirmed: 首页 then has a statement to generate
    confirmCurrentMonth = async () => {
      await runMonth(call, c.id, new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 7));
    };
    await createStaff(h.app, token, c.id, vectorStaff(9000, { staffName: '结算张三' }));
    await createStaff(h.app, token, c.id, vectorStaff(7500.5, { staffName: '结算李四' }));
    await runMonth(call, c.id, '2026-01');
    const terms = await call('POST', '/api/settlementTerms', { companyId: c.id, validFrom: '2026-01', feeMode: 'PER_HEAD', feeAmount: 150, feeTaxMode: 'INCLUSIVE', siBillingLag: '0', disabledShareMode: 'NONE', unionFeeRatio: 0.02, perHeadItems: '商保:30' });
    if (terms.status >= 300) throw new Error(JSON.stringify(terms.body));
    await call('POST', '/api/vatRegime', { dispatchCompany: '北京华派人力资源有限公司', validFrom: '2026-01', regime: 'GENERAL_6', rate: 0.06, surtaxRatio: 0.12 });
  }, 240_000);
  afterAll(async () => {
    await h?.close();
  });

  it('edits the terms in the company dialog: versions newest first, an edit, a new version, a delete', async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    const s = await openScreen(page, '/accounts/company', 'crud-page-accountsCompany');
    await tableRow(s, company).getByTestId('crud-edit').click();
    const d = openDialog(page);
    const terms = d.getByTestId('company-terms');
    await expect.poll(() => terms.locator('tr.ant-table-row').count()).toBe(1);
    expect(await terms.textContent()).toContain('商保:30');

    // an edit of the 2026-01 version: a second per-head item
    await terms.getByTestId('company-terms-edit-2026-01').click();
    let v = openDialog(page);
    await v.locator('#crud-settlementTerms_perHeadItems').fill('商保:30; 体检:15.5');
    await v.getByRole('button', { name: /确\s*定/ }).click();
    await expectNotice(page, '修改成功');
    await expect.poll(async () => (await terms.locator('tr.ant-table-row').first().textContent()) ?? '').toContain('体检:15.5');

    // a new version from a later month (copied from the newest), listed first; then deleted after the question
    await terms.getByTestId('company-terms-add').click();
    v = openDialog(page);
    const from = await v.locator('#crud-settlementTerms_validFrom').inputValue();
    expect(from > '2026-01').toBe(true);
    await v.getByRole('button', { name: /确\s*定/ }).click();
    await expect.poll(() => terms.locator('tr.ant-table-row').count()).toBe(2);
    expect(await terms.locator('tr.ant-table-row').first().textContent()).toContain(from);
    await page.waitForTimeout(300);
    await screenshot(page, 'settlement-company-terms-1440');
    await terms.scrollIntoViewIfNeeded();
    await terms.screenshot({ path: `${SCREENSHOT_DIR}/settlement-company-terms-section-1440.png` });
    await terms.getByTestId(`company-terms-delete-${from}`).click();
    await page.locator('.ant-popconfirm .ant-btn-primary').last().click();
    await expect.poll(() => terms.locator('tr.ant-table-row').count()).toBe(1);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    await terms.scrollIntoViewIfNeeded();
    await screenshot(page, 'settlement-company-terms-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    await d.getByRole('button', { name: /取\s*消/ }).click();
  });

  it('generate → send → confirm → invoice → receipt', async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    const s = await openScreen(page, '/salary/settlement', 'settlement-page');
    await choose(page, s.getByTestId('settlement-generate-form').locator('.ant-select').first(), company);
    await typeDate(s.getByTestId('settlement-generate-form').locator('.ant-picker input'), '2026-01');
    await s.getByTestId('settlement-generate').click();
    await expectNotice(page, '已生成结算单');
    const drawer = page.getByTestId('settlement-detail');
    await drawer.waitFor({ state: 'visible', timeout: 20_000 });
    await drawer.getByTestId('settlement-lines').waitFor({ state: 'visible' });
    await expect.poll(() => drawer.locator('[data-testid="settlement-lines"] tr.ant-table-row').count()).toBe(2);
    expect(await drawer.getByTestId('state-DRAFT').count()).toBe(1);
    // the terms as edited in the company dialog: 体检 15.50 a head
    expect(await drawer.getByTestId('settlement-lines').textContent()).toContain('体检');
    await screenshot(page, 'settlement-draft');

    const action = (a: string) => drawer.getByTestId(`settlement-action-${a}`);
    await confirmBy(page, action('SENT'));
    await drawer.getByTestId('state-SENT').waitFor();
    await confirmBy(page, action('CONFIRMED'));
    await drawer.getByTestId('state-CONFIRMED').waitFor();
    let dialog = await openDialogBy(page, action('INVOICED'), 'settlement-invoice-no');
    await dialog.getByTestId('settlement-invoice-no').fill('FP20260205');
    await dialog.getByTestId('settlement-date').click();
    await page.keyboard.type('2026-02-05');
    await page.keyboard.press('Enter');
    await dialog.locator('.ant-btn-primary').click();
    await drawer.getByTestId('state-INVOICED').waitFor();
    const totalDue = (await drawer.getByTestId('settlement-total-due').textContent())?.replace(/,/g, '') ?? '';
    dialog = await openDialogBy(page, action('RECEIPT'), 'settlement-amount');
    await dialog.getByTestId('settlement-date').click();
    await page.keyboard.type('2026-02-10');
    await page.keyboard.press('Enter');
    await dialog.getByTestId('settlement-amount').fill(totalDue);
    await dialog.locator('.ant-btn-primary').click();
    await drawer.getByTestId('state-SETTLED').waitFor();
    await screenshot(page, 'settlement-settled');

    // the lines are paged by the server: a search by name leaves one line, the totals row stays the statement's
    await drawer.getByTestId('settlement-line-search').locator('input').fill('李四');
    await drawer.getByTestId('settlement-line-search').locator('input').press('Enter');
    await expect.poll(() => drawer.locator('[data-testid="settlement-lines"] tr.ant-table-row').count()).toBe(1);
    expect(await drawer.getByTestId('settlement-lines').textContent()).toContain('全部2行');

    // the printable page for the client, in its own tab: header, both lines, totals, the signature block
    const [print] = await Promise.all([page.context().waitForEvent('page'), drawer.getByTestId('settlement-print').click()]);
    await print.getByTestId('settlement-print-sign').waitFor({ timeout: 20_000 });
    const printed = (await print.getByTestId('settlement-print').textContent()) ?? '';
    expect(printed).toContain(`${company} 2026-01 结算单`);
    expect(printed).toContain('用工单位（盖章）');
    expect(printed).toContain('北京华派人力资源有限公司');
    expect(await print.locator('[data-testid="settlement-print-lines"] tbody tr').count()).toBe(2);
    expect((await print.getByTestId('settlement-print-header').textContent())?.replace(/,/g, '')).toContain(totalDue);
    await print.setViewportSize({ width: 1440, height: 900 });
    await screenshot(print, 'settlement-print-1440');
    await print.setViewportSize({ width: 390, height: 844 });
    await screenshot(print, 'settlement-print-390');
    // as printed: A4 landscape is about 1123 × 794 CSS pixels; the print button is not on paper
    await print.setViewportSize({ width: 1123, height: 794 });
    await print.emulateMedia({ media: 'print' });
    expect(await print.getByTestId('settlement-print-now').isVisible()).toBe(false);
    await screenshot(print, 'settlement-print-a4');
    await print.close();
    await page.keyboard.press('Escape');

    const r = await openScreen(page, '/salary/settlementReceipts', 'receipts-page');
    await expect.poll(() => r.locator('[data-testid="receipts-table"] tr.ant-table-row').count()).toBe(1);
    expect(await r.getByTestId('receipts-table').textContent()).toContain(company);
    await screenshot(page, 'settlement-receipts');
    const l = await openScreen(page, '/salary/receivables', 'receivables-page');
    await expect.poll(() => l.locator('[data-testid="receivables-table"] tr.ant-table-row').count()).toBe(1);
    expect(await l.getByTestId('receivables-table').textContent()).toContain('已结清');
    await screenshot(page, 'settlement-receivables');
    expect(activeScreen(page)).toBeDefined();
  });

  it('首页 shows the month close: a confirmed month without its statement is 待生成 and opens 结算单', async () => {
    expect(companyId).toBeGreaterThan(0);
    await confirmCurrentMonth();
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    await page.goto('/dashboard');
    const s = activeScreen(page);
    const line = s.getByTestId('home-settlement');
    await line.waitFor({ state: 'visible', timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    expect(await line.getByTestId('home-settlement-toGenerate').textContent()).toBe('待生成 1');
    // January was paid in full: nothing unpaid
    expect(await line.getByTestId('home-settlement-unpaid').count()).toBe(0);
    await screenshot(page, 'settlement-home-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    await screenshot(page, 'settlement-home-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    await line.getByTestId('home-settlement-toGenerate').click();
    await activeScreen(page).getByTestId('settlement-page').waitFor({ timeout: 15_000 });
  });
});
