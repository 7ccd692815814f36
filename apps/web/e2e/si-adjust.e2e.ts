import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choose, expectNotice, type Harness, login, openDialog, openScreen, screenshot, startHarness, tableRow, withoutFavicon } from './harness';

/**
 * 社保管理 › 社保调基 and 社保平账 (issue 24 items 2 and 4). A company with 2025-12 confirmed (the prior year's average)
 * and 2026-07, 2026-08 confirmed: the wizard from the prior-year average from 2026-07 (甲 9,500.00; 乙 40,000 clamped
 * to the ceiling 35,811), the confirmation that states the 补差 rows and totals, the 补差 placed into 2026-09; then the
 * bureau's 2026-08 statement with one planted difference accepted with a reason. 1440 and 390 px.
 * Screenshots: si-adjust-source, si-adjust-preview, si-adjust-confirm, si-adjust-done, si-adjust-390,
 * si-recon-diff, si-recon-accept, si-recon-390.
 */
describe('社保调基 and 社保平账', () => {
  let h: Harness;
  const companyName = '调基平账测试单位';
  let idA = '';
  let idB = '';

  beforeAll(async () => {
    h = await startHarness();
    const { adminToken, createCompany, createStaff } = await import('../../server/test/dispatch-fixtures.ts');
    const { api, runMonth, vectorStaff } = await import('../../server/test/payroll-fixtures.ts');
    const token = await adminToken(h.app);
    const call = api(h.app, token);
    const companyId = (await createCompany(h.app, token, { companyName })).id;
    idA = (await createStaff(h.app, token, companyId, vectorStaff(8000, { staffName: '调基甲' }))).idCard;
    idB = (await createStaff(h.app, token, companyId, vectorStaff(40000, { staffName: '调基乙' }))).idCard;
    await runMonth(call, companyId, '2025-12', (rows) => [{ id: rows[0].id, jiaban: 1500 }]);
    for (const m of ['2026-07', '2026-08']) await runMonth(call, companyId, m);
  }, 240_000);
  afterAll(async () => {
    await h?.close();
  });

  it('调基: prior-year average, clamp markers, the confirmation with the 补差 rows and totals, the 补差 placed', { timeout: 150_000 }, async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    const s = await openScreen(page, '/social/siAdjust', 'si-adjust-page');
    await page.waitForLoadState('networkidle');
    await choose(page, s.getByTestId('si-adjust-company').locator('.ant-select-selector, .ant-select-content').first(), companyName);
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden', timeout: 5_000 });
    await screenshot(page, 'si-adjust-source');
    await s.getByTestId('si-adjust-preview').click();
    const table = s.getByTestId('si-adjust-preview-table');
    await expect.poll(async () => (await tableRow(table, '调基甲').textContent()) ?? '', { timeout: 15_000 }).toContain('9,500.00');
    const rowB = (await tableRow(table, '调基乙').textContent()) ?? '';
    expect(rowB).toContain('35,811.00');
    expect(rowB).toContain('上限');
    // 甲 8,000 → 9,500 for July and August: personal 养老 120 + 医疗 30 + 失业 7.50 + 公积金 180 = 337.50 a month
    const summary = (await s.getByTestId('si-adjust-summary').textContent()) ?? '';
    expect(summary).toContain('2026-07、2026-08');
    expect(summary).toContain('2026-09');
    await screenshot(page, 'si-adjust-preview');

    await s.getByTestId('si-adjust-next').click();
    await s.getByTestId('si-adjust-apply').click();
    const dialog = openDialog(page);
    await dialog.getByTestId('si-adjust-confirm-text').waitFor();
    const text = (await dialog.getByTestId('si-adjust-confirm-text').textContent()) ?? '';
    expect(text).toContain('2026-09');
    expect(text).toMatch(/生成 \d+ 条补差/);
    expect(text).toContain('补缴社保个人合计');
    await screenshot(page, 'si-adjust-confirm');
    await dialog.getByTestId('si-adjust-confirm-ok').click();
    await expectNotice(page, /调基已应用/);
    await s.getByTestId('si-adjust-done').waitFor();
    const items = s.getByTestId('si-adjust-items');
    await expect.poll(async () => (await tableRow(items, '调基甲').textContent()) ?? '', { timeout: 10_000 }).toContain('2026-09');
    await screenshot(page, 'si-adjust-done');
    expect(withoutFavicon(h.errorsOf(page).console)).toEqual([]);
  });

  it('社保平账: the planted difference listed, accepted with a reason into the next open month', { timeout: 150_000 }, async () => {
    const { workbook } = await import('../../server/test/dispatch-fixtures.ts');
    // the bureau bills 2026-08 at the new bases (甲 9,500: our confirmed row at 8,000 plus the 补差 placed), 乙 at the
    // ceiling 35,811; one planted difference: 乙's employer pension 5,730.06 instead of 5,729.76
    const person = (id: string, name: string, amounts: [string, number, number][]) => amounts.map(([ins, self, company]) => [id, name, ins, self, company]);
    const file = workbook([
      ['公民身份号码', '姓名', '险种', '个人应缴金额', '单位应缴金额'],
      ...person(idA, '调基甲', [['基本养老保险', 760, 1520], ['基本医疗保险', 193, 931], ['失业保险', 47.5, 47.5], ['工伤保险', 0, 38], ['住房公积金', 1140, 1140]]),
      ...person(idB, '调基乙', [['基本养老保险', 2864.88, 5730.06], ['基本医疗保险', 719.22, 3509.48], ['失业保险', 179.06, 179.06], ['工伤保险', 0, 143.24], ['住房公积金', 4297, 4297]]),
    ]);
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    const s = await openScreen(page, '/social/siRecon', 'si-recon-page');
    await page.waitForLoadState('networkidle');
    await choose(page, s.getByTestId('si-recon-company').locator('.ant-select-selector, .ant-select-content').first(), companyName);
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden', timeout: 5_000 });
    await s.getByTestId('si-recon-month').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2026-08');
    await page.keyboard.press('Enter');
    await s.locator('input[type=file]').setInputFiles({ name: '应缴明细_2026-08.xlsx', mimeType: 'application/octet-stream', buffer: file });
    await expectNotice(page, /比对完成/);
    const summary = s.getByTestId('si-recon-summary');
    await expect.poll(async () => (await summary.textContent()) ?? '', { timeout: 10_000 }).toContain('差异 1');
    const rows = s.getByTestId('si-recon-lines');
    const planted = tableRow(rows, '调基乙');
    await expect.poll(async () => (await planted.textContent()) ?? '', { timeout: 10_000 }).toContain('5,730.06');
    expect(await planted.textContent()).toContain('0.30');
    await screenshot(page, 'si-recon-diff');

    await planted.locator('input[type=checkbox]').check();
    await s.getByTestId('si-recon-accept').click();
    const dialog = openDialog(page);
    await dialog.getByTestId('si-recon-reason').fill('经办机构核定金额为准');
    expect((await dialog.getByTestId('si-recon-confirm-text').textContent()) ?? '').toContain('0.30');
    await screenshot(page, 'si-recon-accept');
    await dialog.getByTestId('si-recon-confirm-ok').click();
    await expectNotice(page, /补差计入 2026-09/);
    await expect.poll(async () => (await tableRow(rows, '调基乙').textContent()) ?? '', { timeout: 10_000 }).toContain('已确认');
    expect(withoutFavicon(h.errorsOf(page).console)).toEqual([]);
  });

  it('390 px: both screens fit the phone', { timeout: 120_000 }, async () => {
    const phone = await h.newPage({ width: 390, height: 844 });
    await login(phone);
    const s = await openScreen(phone, '/social/siAdjust', 'si-adjust-page');
    await phone.waitForLoadState('networkidle');
    await choose(phone, s.getByTestId('si-adjust-company').locator('.ant-select-selector, .ant-select-content').first(), companyName);
    await phone.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden', timeout: 5_000 });
    await s.getByTestId('si-adjust-preview').click();
    await expect.poll(async () => (await tableRow(s.getByTestId('si-adjust-preview-table'), '调基甲').textContent()) ?? '', { timeout: 15_000 }).toContain('9,500.00');
    // the same bases again: nothing more is owed, and the accepted 平账 difference is not undone
    expect((await s.getByTestId('si-adjust-summary').textContent()) ?? '').toContain('0 条');
    await screenshot(phone, 'si-adjust-390');
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    const r = await openScreen(phone, '/social/siRecon', 'si-recon-page');
    await choose(phone, r.getByTestId('si-recon-company').locator('.ant-select-selector, .ant-select-content').first(), companyName);
    await phone.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden', timeout: 5_000 });
    await r.getByTestId('si-recon-month').click();
    await phone.keyboard.press('Control+A');
    await phone.keyboard.type('2026-08');
    await phone.keyboard.press('Enter');
    await expect.poll(async () => (await r.getByTestId('si-recon-summary').textContent()) ?? '', { timeout: 10_000 }).toContain('已确认 1');
    await phone.keyboard.press('Escape');
    await phone.locator('.ant-picker-dropdown:visible').waitFor({ state: 'hidden', timeout: 5_000 });
    await screenshot(phone, 'si-recon-390');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });
});
