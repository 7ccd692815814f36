import iconv from 'iconv-lite';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeScreen, choose, dialogsClosed, expectNotice, type Harness, openDialog, screenshot, startLoggedIn, withoutFavicon } from './harness';

/**
 * 数据管理 › 数据源管理 and 自定义数据源 in a real browser against the real server: create a CSV data source by
 * uploading a GBK file (the dialog's fields follow the type), see its fields and preview in the detail drawer,
 * and add a custom data source over the staff roster.
 */

let h: Harness;
let page: Page;
beforeAll(async () => {
  ({ h, page } = await startLoggedIn());
}, 120_000);
afterAll(() => h?.close());

/** choose, then wait for the dropdown to close (the next field's dropdown must not be confused with it). */
async function chooseAndClose(p: Page, select: Locator, option: string) {
  await choose(p, select, option);
  await expect.poll(() => p.locator('.ant-select-dropdown:visible').count(), { timeout: 5_000 }).toBe(0);
}

describe('数据源管理', () => {
  it('creates a CSV data source by upload and shows its fields and preview', async () => {
    await page.goto('/operations/dataSources');
    const s = activeScreen(page);
    await s.getByTestId('datasources-page').waitFor({ state: 'visible', timeout: 15_000 });
    await s.getByTestId('datasources-add').click();
    const d = openDialog(page);
    await d.getByTestId('datasource-name').waitFor({ state: 'visible' });
    // the type decides the fields: SQL shows the connection, CSV a file upload
    await chooseAndClose(page, d.getByTestId('datasource-type'), 'SQL');
    await d.getByTestId('datasource-test').waitFor({ state: 'visible' });
    await screenshot(page, 'datasource-dialog-sql');
    await chooseAndClose(page, d.getByTestId('datasource-type'), 'CSV');
    await d.getByTestId('datasource-upload').waitFor({ state: 'visible' });
    expect(await d.getByTestId('datasource-test').count()).toBe(0);

    await d.getByTestId('datasource-name').fill('十一月考勤（GBK）');
    await chooseAndClose(page, d.getByTestId('datasource-encoding'), 'GBK');
    const csv = iconv.encode('姓名,身份证号,出勤天数\r\n朱镕基,110101199001011234,21.5\r\n李四,11010119900101123X,20\r\n', 'gbk');
    await d.locator('input[type=file]').setInputFiles({ name: '十一月考勤.csv', mimeType: 'text/csv', buffer: csv });
    await expect.poll(() => d.getByTestId('datasource-file').count(), { timeout: 10_000 }).toBe(1);
    expect(await d.getByTestId('datasource-file').innerText()).toBe('十一月考勤.csv');
    await screenshot(page, 'datasource-dialog-csv');
    await d.getByRole('button', { name: /确\s*定/ }).click();
    await expectNotice(page, '添加成功');
    await dialogsClosed(page, 5_000);

    const row = s.locator('[data-testid="datasources-table"] tbody tr.ant-table-row', { hasText: '十一月考勤（GBK）' });
    await row.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await row.innerText()).toContain('十一月考勤.csv');
    await screenshot(page, 'datasources-list');

    await row.getByTestId('datasource-details').click();
    const drawer = page.locator('.ant-drawer:visible');
    const preview = drawer.getByTestId('datasource-preview');
    await preview.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await drawer.getByTestId('datasource-fields').innerText()).toMatch(/姓名[\s\S]*身份证号[\s\S]*出勤天数/);
    const cells = await preview.locator('tbody tr.ant-table-row').allInnerTexts();
    expect(cells).toHaveLength(2);
    expect(cells[0]).toMatch(/朱镕基\s+110101199001011234\s+21\.5/);
    await screenshot(page, 'datasource-details');
    await drawer.locator('.ant-drawer-close').click();

    expect(withoutFavicon(h.errorsOf(page).console)).toEqual([]);
    expect(h.errorsOf(page).page).toEqual([]);
  }, 45_000);

  it('自定义数据源: adds a projection of the staff roster', async () => {
    await page.goto('/operations/customDatasource');
    const s = activeScreen(page);
    await s.getByTestId('custom-datasource-page').waitFor({ state: 'visible', timeout: 15_000 });
    await s.getByTestId('custom-add').click();
    const d = openDialog(page);
    await d.locator('input').first().fill('员工花名册（基本信息）');
    await chooseAndClose(page, d.locator('.ant-form-item', { hasText: '数据集' }).locator('.ant-select'), '员工花名册');
    await expect.poll(() => d.locator('.ant-checkbox-wrapper-checked').count(), { timeout: 5_000 }).toBeGreaterThan(0);
    await screenshot(page, 'custom-datasource-dialog');
    await d.getByRole('button', { name: /确\s*定/ }).click();
    await expectNotice(page, '添加成功');
    const row = s.locator('[data-testid="custom-table"] tbody tr.ant-table-row', { hasText: '员工花名册（基本信息）' });
    await row.waitFor({ state: 'visible', timeout: 10_000 });
    await dialogsClosed(page, 5_000);
    expect(await row.innerText()).toMatch(/姓名[\s\S]*身份证号/);
    await screenshot(page, 'custom-datasource-list');
    expect(withoutFavicon(h.errorsOf(page).console)).toEqual([]);
    expect(h.errorsOf(page).page).toEqual([]);
  }, 45_000);
});
