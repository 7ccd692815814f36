import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type activeScreen, choose, expectNotice, type Harness, login, openDialog, openScreen, screenshot, startHarness, tableRow } from './harness';

/**
 * 薪资管理 › 个税申报 (issue 23 items 4-7): the agent and month pickers, the wage declaration download, ITS's result
 * uploaded with one planted difference and one person on each side only, a difference acknowledged with a reason,
 * the 代发工资 export held with the override dialog, and 增减员 from an ITS person list. Screenshots at 1440 and 390
 * px: iit-page, iit-reconcile, iit-ack, iit-changes, payout-override, payout-detail-override, iit-390.
 */
describe('个税申报', () => {
  let h: Harness;
  let companyId = 0;
  let batchId = 0;
  const companyName = '个税测试单位';
  const agent = '北京众信劳务派遣有限公司';
  const now = new Date(Date.now() + 8 * 3600_000);
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  let itsFile: Buffer;
  let personList: Buffer;

  beforeAll(async () => {
    h = await startHarness();
    const { adminToken, createCompany, createStaff, workbook } = await import('../../server/test/dispatch-fixtures.ts');
    const { api, runMonth, vectorStaff } = await import('../../server/test/payroll-fixtures.ts');
    const { luhnValid } = await import('@app/shared/payout/bankLayout');
    const card = (p: string) => [...'0123456789'].map((d) => p + d).find(luhnValid) as string;
    const token = await adminToken(h.app);
    const call = api(h.app, token);
    companyId = (await createCompany(h.app, token, { companyName, dispatchCompany: agent })).id;
    const people = [vectorStaff(30000, { staffName: '张三', bankcardNumber: card('622202020011223344') }), vectorStaff(25000, { staffName: '李四', bankcardNumber: card('621700001000123456') }), vectorStaff(20000, { staffName: '王五', bankcardNumber: card('621483000100000001') })];
    for (const p of people) await createStaff(h.app, token, companyId, p);
    const rows = await runMonth(call, companyId, month);
    const tax = (name: string) => Number(rows.find((r) => r.staffName === name)?.tax ?? 0);
    const templates = (await call('GET', '/api/bankTemplate?size=50')).body.content;
    batchId = (await call('POST', '/api/payout/generate', { companyId, month, templateId: templates.find((x: { templateName: string }) => x.templateName === '通用 CSV').id })).body.batch.id;
    // ITS's result: 张三 agrees, 李四 is 0.01 higher at ITS, 王五 is missing there, 孙八 only there
    itsFile = workbook([
      ['序号', '姓名', '证件类型', '证件号码', '本期收入', '累计个人养老金', '累计应补（退）税额'],
      [1, '张三', '居民身份证', people[0].idCard, 30000, 0, tax('张三').toFixed(2)],
      [2, '李四', '居民身份证', people[1].idCard, 25000, 0, (tax('李四') + 0.01).toFixed(2)],
      [3, '孙八', '居民身份证', '110101198001010011', 5000, 0, '12.30'],
    ]);
    personList = workbook([
      ['工号', '*姓名', '*证件类型', '*证件号码', '人员状态', '离职日期'],
      ['', '张三', '居民身份证', people[0].idCard, '正常', ''],
      ['', '孙八', '居民身份证', '110101198001010011', '正常', ''],
    ]);
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  const fileInput = (s: ReturnType<typeof activeScreen>, testId: string) => s.getByTestId(testId).locator('xpath=ancestor::span[contains(@class,"ant-upload")]').locator('input[type="file"]');

  it('exports, reconciles, acknowledges, holds the payout export and lists 增减员', async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    const s = await openScreen(page, '/salary/iit', 'iit-page');
    await choose(page, s.getByTestId('iit-agent').locator('.ant-select-selector, .ant-select-content').first(), agent);
    await s.getByTestId('iit-no-reconcile').waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot(page, 'iit-page');

    // the wage declaration downloads as a workbook
    const wage = page.waitForEvent('download', { timeout: 15_000 });
    await s.getByTestId('iit-export-wage').click();
    expect((await wage).suggestedFilename()).toBe(`正常工资薪金所得_${agent}_${month}.xlsx`);

    // ITS's result: three differences, the payout export is held
    await fileInput(s, 'iit-import-result').setInputFiles({ name: 'its.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: itsFile });
    const state = s.getByTestId('iit-reconcile-state');
    await expect.poll(async () => (await state.textContent().catch(() => '')) ?? '', { timeout: 10_000 }).toContain('还有 3 条差异未确认');
    const diffs = s.getByTestId('iit-diffs');
    await expect.poll(() => diffs.locator('tr.ant-table-row').count(), { timeout: 10_000 }).toBe(3);
    expect(await tableRow(diffs, '李四').textContent()).toContain('税额不一致');
    expect(await tableRow(diffs, '李四').textContent()).toContain('0.01');
    expect(await tableRow(diffs, '王五').textContent()).toContain('仅本系统有');
    expect(await tableRow(diffs, '孙八').textContent()).toContain('仅税局有');
    await page.waitForTimeout(400);
    await screenshot(page, 'iit-reconcile');

    // acknowledge 李四's difference with a reason
    await tableRow(diffs, '李四').getByRole('button').click();
    const ack = openDialog(page);
    await ack.getByTestId('iit-ack-reason').fill('税局已预填专项附加扣除');
    await page.waitForTimeout(400);
    await screenshot(page, 'iit-ack');
    await ack.getByTestId('iit-ack-ok').click();
    await expect.poll(async () => (await state.textContent()) ?? '', { timeout: 10_000 }).toContain('还有 2 条差异未确认');
    // the state line and the differences table are two answers: the table's row may come a moment after the count
    await expect.poll(async () => (await tableRow(diffs, '李四').textContent()) ?? '', { timeout: 10_000 }).toContain('税局已预填专项附加扣除');

    // 增减员 from ITS's person list: 李四 and 王五 are new to ITS
    await fileInput(s, 'iit-import-persons').setInputFiles({ name: 'persons.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: personList });
    await expect.poll(async () => (await s.getByTestId('iit-changes-state').textContent().catch(() => '')) ?? '', { timeout: 10_000 }).toContain('增员 2 人，离职待报 0 人');
    await screenshot(page, 'iit-changes');
    const changes = page.waitForEvent('download', { timeout: 15_000 });
    await s.getByTestId('iit-export-changes').click();
    expect((await changes).suggestedFilename()).toBe(`增减员_${agent}_${month}.xlsx`);

    // 代发工资: the export is held; the override needs a reason and then goes through
    const p = await openScreen(page, '/salary/payout', 'payout-page');
    await choose(page, p.getByTestId('payout-company').locator('.ant-select-selector, .ant-select-content').first(), companyName);
    const batches = p.getByTestId('payout-batches');
    await expect.poll(() => batches.locator('tr.ant-table-row').count(), { timeout: 10_000 }).toBe(1);
    await p.getByTestId(`payout-export-${batchId}`).click();
    await page.locator('.ant-popconfirm:visible .ant-btn-primary').click();
    const dialog = openDialog(page);
    await dialog.getByTestId('payout-override-warning').waitFor({ state: 'visible', timeout: 10_000 });
    expect(await dialog.textContent()).toContain('2条差异未确认');
    await dialog.getByTestId('payout-override-reason').fill('税局系统维护，先发工资');
    await page.waitForTimeout(600);
    await screenshot(page, 'payout-override');
    const file = page.waitForEvent('download', { timeout: 15_000 });
    await dialog.getByTestId('payout-override-ok').click();
    await file;
    await expect.poll(async () => (await tableRow(batches, companyName).textContent()) ?? '', { timeout: 10_000 }).toContain('已导出');
    const override = await h.app.ctx.db.selectFrom('accounts_iit_override').select(['reason', 'open_count']).execute();
    expect(override.map((o) => [o.reason, Number(o.open_count)])).toEqual([['税局系统维护，先发工资', 2]]);
    // the batch detail says it went out over open differences, with the reason
    await p.getByTestId(`payout-detail-${batchId}`).click();
    const detail = openDialog(page);
    await expect.poll(async () => (await detail.getByTestId('payout-detail-override').textContent().catch(() => '')) ?? '', { timeout: 10_000 }).toContain('税局系统维护，先发工资');
    await page.waitForTimeout(600);
    await screenshot(page, 'payout-detail-override');
    await expectNotice(page, /差异未确认/).catch(() => undefined);
    expect(h.errorsOf(page).console.filter((e) => !/favicon|409/.test(e))).toEqual([]);
  });

  it('fits a phone screen', async () => {
    const page = await h.newPage({ width: 390, height: 844 });
    await login(page);
    const s = await openScreen(page, '/salary/iit', 'iit-page');
    await choose(page, s.getByTestId('iit-agent').locator('.ant-select-selector, .ant-select-content').first(), agent);
    await s.getByTestId('iit-reconcile-state').waitFor({ state: 'visible', timeout: 10_000 });
    await page.waitForTimeout(400);
    await screenshot(page, 'iit-390');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
  });
});
