import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeScreen, choose, expectNotice, type Harness, login, openDialog, screenshot, startHarness, tableRow } from './harness';

/**
 * 薪资管理 › 代发工资 (issue 23): the pre-check problems row by row with a Luhn failure confirmed on the screen, the
 * batch, its export (locks it), the bank's return file uploaded with 2 failed rows, the batch detail and the card
 * correction dialog. Screenshots: payout-problems, payout-batch, payout-return, payout-detail, payout-correct.
 */
describe('代发工资', () => {
  let h: Harness;
  let companyId = 0;
  const companyName = '代发测试单位';
  const now = new Date(Date.now() + 8 * 3600_000);
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);

  beforeAll(async () => {
    h = await startHarness();
    const { adminToken, createCompany, createStaff } = await import('../../server/test/dispatch-fixtures.ts');
    const { api, runMonth, vectorStaff } = await import('../../server/test/payroll-fixtures.ts');
    const { luhnValid } = await import('@app/shared/payout/bankLayout');
    const card = (p: string) => [...'0123456789'].map((d) => p + d).find(luhnValid) as string;
    const token = await adminToken(h.app);
    companyId = (await createCompany(h.app, token, { companyName })).id;
    const good = ['622202020011223344', '621700001000123456', '621483000100000001'].map(card);
    const older = card('622588000000000002');
    const luhnFails = older.slice(0, -1) + String((Number(older.at(-1)) + 1) % 10);
    await createStaff(h.app, token, companyId, vectorStaff(9000, { staffName: '张三', bankcardNumber: good[0] }));
    await createStaff(h.app, token, companyId, vectorStaff(8000, { staffName: '李四', bankcardNumber: good[1] }));
    await createStaff(h.app, token, companyId, vectorStaff(7000, { staffName: '王五', bankcardNumber: good[2] }));
    await createStaff(h.app, token, companyId, vectorStaff(6000, { staffName: '赵六', bankcardNumber: luhnFails }));
    await runMonth(api(h.app, token), companyId, month);
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  it('generates with a confirmed Luhn failure, exports, imports the return file and opens a correction', async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    await page.goto('/salary/payout');
    const s = activeScreen(page);
    await s.getByTestId('payout-page').waitFor({ state: 'visible', timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    await choose(page, s.getByTestId('payout-company').locator('.ant-select-selector, .ant-select-content').first(), companyName);
    await choose(page, s.getByTestId('payout-template').locator('.ant-select-selector, .ant-select-content').first(), '通用 CSV');

    // 赵六's older card fails Luhn: listed, confirmable
    await s.getByTestId('payout-generate').click();
    const problems = s.getByTestId('payout-problems');
    await problems.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await problems.textContent()).toContain('赵六');
    expect(await problems.textContent()).toContain('Luhn');
    await screenshot(page, 'payout-problems');
    await problems.locator('input[type="checkbox"]').first().check();
    await s.getByTestId('payout-generate-accepted').click();
    await expectNotice(page, '已生成代发批次，共4笔');
    const batches = s.getByTestId('payout-batches');
    await expect.poll(() => batches.locator('tr.ant-table-row').count(), { timeout: 10_000 }).toBe(1);
    expect(await tableRow(batches, companyName).textContent()).toContain('待导出');

    // export: confirmation, then the batch is locked
    const batchId = Number(await tableRow(batches, companyName).locator('td').first().textContent());
    await s.getByTestId(`payout-export-${batchId}`).click();
    const download = page.waitForEvent('download', { timeout: 15_000 }).catch(() => null);
    await page.locator('.ant-popconfirm:visible .ant-btn-primary').click();
    await download;
    await expect.poll(async () => (await tableRow(batches, companyName).textContent()) ?? '', { timeout: 10_000 }).toContain('已导出');
    expect(await tableRow(batches, companyName).textContent()).not.toContain('returned an object');
    await screenshot(page, 'payout-batch');

    // the bank's answer: rows 2 and 4 failed
    const { bearer } = await import('../../server/test/helpers.ts');
    const { adminToken } = await import('../../server/test/dispatch-fixtures.ts');
    const file = await h.app.inject({ method: 'GET', url: `/api/export/payout/${batchId}`, headers: bearer(await adminToken(h.app)) });
    const lines = file.rawPayload.subarray(3).toString('utf8').split('\r\n').filter(Boolean);
    const answer = lines.map((l, i) => (i === 0 ? `${l},状态,原因` : i === 2 ? `${l},失败,账号不存在` : i === 4 ? `${l},失败,户名不符` : `${l},成功,`)).join('\r\n');
    await s.getByTestId(`payout-import-${batchId}`).locator('xpath=ancestor::span[contains(@class,"ant-upload")]').locator('input[type="file"]').setInputFiles({ name: 'return.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${answer}\r\n`, 'utf8') });
    const result = openDialog(page);
    await expect.poll(async () => (await result.textContent()) ?? '', { timeout: 10_000 }).toContain('成功 2 笔，失败 2 笔');
    await page.waitForTimeout(600);
    await screenshot(page, 'payout-return');
    await result.locator('.ant-btn-primary').click();
    await expect.poll(async () => (await tableRow(batches, companyName).textContent()) ?? '', { timeout: 10_000 }).toContain('部分失败');

    // the detail: failed rows with the bank's reason, and the correction dialog
    await s.getByTestId(`payout-detail-${batchId}`).click();
    const detail = openDialog(page);
    await expect.poll(async () => (await detail.textContent()) ?? '', { timeout: 10_000 }).toContain('账号不存在');
    await page.waitForTimeout(600); // the dialog's zoom-in
    await screenshot(page, 'payout-detail');
    await detail.getByTestId('payout-correct-2').click();
    const correct = openDialog(page);
    await expect.poll(async () => (await correct.textContent()) ?? '').toContain('更正 李四 的银行卡号');
    await page.waitForTimeout(600);
    await screenshot(page, 'payout-correct');
    expect(h.errorsOf(page).console.filter((e) => !/favicon/.test(e))).toEqual([]);
  });
});
