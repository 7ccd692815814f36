import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeScreen, choose, type Harness, login, openDialog, openScreen, SCREENSHOT_DIR, screenshot, startHarness, tableRow, withoutFavicon } from './harness';

/**
 * 社保管理 › 增减员 (issue 24 item 3): a company whose month has one hire, one leaver and one base change against the
 * confirmed month before; the tabs with their counts, each list's rows, the download in the Beijing template, the
 * phone width, and 系统工具 › 社保模板 on the generic screen. Screenshots: si-changes-add, si-changes-remove,
 * si-changes-base, si-changes-390, si-change-templates, si-change-template-edit.
 */
describe('增减员', () => {
  let h: Harness;
  const companyName = '增减员测试单位';
  const pad = (n: number) => String(n).padStart(2, '0');
  const now = new Date();
  const month = `${now.getFullYear()}-${pad(now.getMonth() + 1)}`;
  const before = now.getMonth() === 0 ? `${now.getFullYear() - 1}-12` : `${now.getFullYear()}-${pad(now.getMonth())}`;

  beforeAll(async () => {
    h = await startHarness();
    const { adminToken, createCompany, createStaff } = await import('../../server/test/dispatch-fixtures.ts');
    const { api, runMonth, vectorStaff } = await import('../../server/test/payroll-fixtures.ts');
    const token = await adminToken(h.app);
    const call = api(h.app, token);
    const companyId = (await createCompany(h.app, token, { companyName })).id;
    const zhang = await createStaff(h.app, token, companyId, vectorStaff(8000, { staffName: '张三' }));
    const li = await createStaff(h.app, token, companyId, vectorStaff(7000, { staffName: '李四' }));
    await createStaff(h.app, token, companyId, vectorStaff(6000, { staffName: '赵六' }));
    await runMonth(call, companyId, before);
    const raise = { gjjBase: 9000.5, yanglaoBase: 9000.5, yiliaoBase: 9000.5, yiliaoBaseSelf: 9000.5, shiyeBase: 9000.5, gongshangBase: 9000.5, shengyuBase: 9000.5 };
    await call('PUT', '/api/accountsStaff', { ...zhang, ...raise });
    await call('PUT', '/api/accountsStaff', { ...li, jobState: '离职', leaveDate: `${month}-02` });
    const hired = `${month}-01`;
    await createStaff(h.app, token, companyId, vectorStaff(7500, { staffName: '王五', censusType: 'wainong', inductionDate: hired, dispatchDate: hired, insuredTime: hired, contractStart: hired, contractEnd: '2029-12-31' }));
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  it('lists 增员, 减员 and 基数变更 with their counts and downloads the Beijing file', { timeout: 120_000 }, async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    const s = await openScreen(page, '/social/siChanges', 'si-changes-page');
    await page.waitForLoadState('networkidle');
    await choose(page, s.getByTestId('si-changes-company').locator('.ant-select-selector, .ant-select-content').first(), companyName);
    const rows = s.getByTestId('si-changes-rows');
    await expect.poll(async () => (await s.getByTestId('si-changes-tab-add').textContent()) ?? '', { timeout: 10_000 }).toBe('增员 (1)');
    expect(await s.getByTestId('si-changes-tab-remove').textContent()).toBe('减员 (1)');
    expect(await s.getByTestId('si-changes-tab-base').textContent()).toBe('基数变更 (1)');
    await expect.poll(async () => (await tableRow(rows, '王五').textContent()) ?? '', { timeout: 10_000 }).toContain('新参保');
    expect(await tableRow(rows, '王五').textContent()).toContain('外农');
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden', timeout: 5_000 });
    await screenshot(page, 'si-changes-add');

    const download = page.waitForEvent('download', { timeout: 15_000 });
    await s.getByTestId('si-changes-download').click();
    expect((await download).suggestedFilename()).toBe(`北京社保增员_${companyName}_${month}.xls`);

    await s.getByTestId('si-changes-tab-remove').click();
    await expect.poll(async () => (await tableRow(rows, '李四').textContent()) ?? '', { timeout: 10_000 }).toContain('离职');
    expect(await tableRow(rows, '李四').textContent()).toContain('7,000.00');
    await screenshot(page, 'si-changes-remove');

    await s.getByTestId('si-changes-tab-base').click();
    await expect.poll(async () => (await tableRow(rows, '张三').textContent()) ?? '', { timeout: 10_000 }).toContain('9,000.50');
    expect(await tableRow(rows, '张三').textContent()).toContain('8,000.00');
    await screenshot(page, 'si-changes-base');

    // the fund centre's template: the same three people (all 五险一金)
    await choose(page, s.getByTestId('si-changes-template').locator('.ant-select-selector, .ant-select-content').first(), '深圳 公积金 汇缴变更');
    await expect.poll(async () => (await tableRow(rows, '张三').textContent()) ?? '', { timeout: 10_000 }).toContain('9,000.50');
    expect(withoutFavicon(h.errorsOf(page).console)).toEqual([]);
  });

  it('390 px: filters, tabs and rows fit the phone', { timeout: 90_000 }, async () => {
    const phone = await h.newPage({ width: 390, height: 844 });
    await login(phone);
    const s = await openScreen(phone, '/social/siChanges', 'si-changes-page');
    await phone.waitForLoadState('networkidle');
    await choose(phone, s.getByTestId('si-changes-company').locator('.ant-select-selector, .ant-select-content').first(), companyName);
    await expect.poll(async () => (await tableRow(s.getByTestId('si-changes-rows'), '王五').textContent()) ?? '', { timeout: 10_000 }).toContain('王五');
    await phone.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden', timeout: 5_000 });
    const box = await s.getByTestId('si-changes-download').boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box)).toBe(true);
    await phone.screenshot({ path: `${SCREENSHOT_DIR}/si-changes-390.png`, fullPage: true });
    expect(withoutFavicon(h.errorsOf(phone).console)).toEqual([]);
  });

  it('社保模板 on the generic screen with its field labels', { timeout: 90_000 }, async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    const s = await openScreen(page, '/tools/siChangeTemplate', 'crud-page-siChangeTemplate');
    await page.waitForLoadState('networkidle');
    const row = tableRow(s, '北京 社保 增减员');
    await row.waitFor({ timeout: 10_000 });
    expect(await row.textContent()).toContain('社保');
    await s.getByTestId('si-template-fields-button').click();
    const help = page.getByTestId('si-template-fields');
    await expect.poll(async () => (await help.textContent()) ?? '', { timeout: 10_000 }).toContain('停保');
    await page.waitForTimeout(400);
    await screenshot(page, 'si-change-templates');
    await openDialog(page).locator('.ant-modal-close').click();
    await help.waitFor({ state: 'hidden', timeout: 5_000 });
    await row.getByRole('button', { name: /编\s*辑/ }).click();
    const d = openDialog(page);
    await expect.poll(async () => (await d.textContent()) ?? '', { timeout: 10_000 }).toContain('基数变更列');
    await page.waitForTimeout(600);
    await screenshot(page, 'si-change-template-edit');
    expect(await activeScreen(page).count()).toBe(1);

    // the field list on a phone stays inside the screen
    const phone = await h.newPage({ width: 390, height: 844 });
    await login(phone);
    const ps = await openScreen(phone, '/tools/siChangeTemplate', 'crud-page-siChangeTemplate');
    await phone.waitForLoadState('networkidle');
    await ps.getByTestId('si-template-fields-button').click();
    const phoneHelp = phone.getByTestId('si-template-fields');
    await expect.poll(async () => (await phoneHelp.textContent()) ?? '', { timeout: 10_000 }).toContain('停保');
    await phone.waitForTimeout(400);
    await phone.screenshot({ path: `${SCREENSHOT_DIR}/si-change-templates-390.png`, fullPage: true });
    const box = await phoneHelp.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box)).toBe(true);
    expect(withoutFavicon(h.errorsOf(phone).console)).toEqual([]);
  });
});
