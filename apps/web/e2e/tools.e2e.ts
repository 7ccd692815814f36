import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeScreen, choose, expectNotice, type Harness, openDialog, screenshot, startLoggedIn, withoutFavicon } from './harness';

/**
 * 系统工具 in a real browser against the real server: the code generator (search a table, change a column's
 * query type and label in the column dialog, save, preview the generated files) and the SQL monitor (cards and
 * statements, the window switch, reset with confirmation).
 */

let h: Harness;
let page: Page;
beforeAll(async () => {
  ({ h, page } = await startLoggedIn());
}, 120_000);
afterAll(() => h?.close());

describe('系统工具', () => {
  it('代码生成: search, configure a column, preview', async () => {
    await page.goto('/tools/generator');
    const s = activeScreen(page);
    await s.getByTestId('generator-page').waitFor({ state: 'visible', timeout: 15_000 });
    await s.getByTestId('gen-search').fill('accounts_staff');
    await s.getByTestId('gen-search').press('Enter');
    await expect.poll(() => s.locator('[data-testid="gen-tables"] tbody tr.ant-table-row').count(), { timeout: 10_000 }).toBe(2); // accounts_staff, accounts_staff_extra
    await screenshot(page, 'tools-generator');

    await s.getByTestId('gen-columns-accounts_staff').click();
    const d = openDialog(page);
    await d.getByTestId('gen-label-staff_name').waitFor({ state: 'visible', timeout: 10_000 });
    await d.getByTestId('gen-label-staff_name').fill('员工名');
    await d.getByTestId('gen-query-staff_name').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^模糊$/ }).click();
    await screenshot(page, 'tools-generator-columns');
    await d.getByTestId('gen-columns-save').click();
    await expectNotice(page, '保存成功');
    // what the dialog saved is what the server stored
    const stored = await h.app.ctx.db.selectFrom('gen_column').select(['label', 'column_query']).where('table_name', '=', 'accounts_staff').where('column_name', '=', 'staff_name').executeTakeFirst();
    expect(stored).toMatchObject({ label: '员工名', column_query: '1' });

    await s.getByTestId('gen-preview-accounts_staff').click();
    const p = openDialog(page);
    await p.getByTestId('gen-preview-code').first().waitFor({ state: 'visible', timeout: 10_000 });
    const code = await p.getByTestId('gen-preview-code').first().textContent();
    expect(code).toContain('defineResource');
    expect(code).toMatch(/name: 'staffName', kind: 'string', label: '员工名'.*filter: 'like'/);
    expect(await p.locator('.ant-tabs-tab').count()).toBeGreaterThanOrEqual(4);
    // a click during the dialog's opening animation can get lost: click the migration's tab until its code shows
    const migrationTab = p.locator('.ant-tabs-tab', { hasText: /^\d{4}_accounts_staff\.ts$/ });
    const migrationCode = p.getByTestId('gen-preview-code').filter({ hasText: 'createTable(db, dialect' });
    await expect
      .poll(
        async () => {
          await migrationTab.click();
          return migrationCode.isVisible();
        },
        { timeout: 10_000, interval: 300 },
      )
      .toBe(true);
    // U18: in a 1440×900 window the whole dialog fits (footer visible) and no two tabs share a name
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.waitForTimeout(300);
    const footer = await p.getByTestId('gen-download').boundingBox();
    expect(footer && footer.y + footer.height).toBeLessThanOrEqual(900);
    const names = await p.locator('.ant-tabs-tab').allTextContents();
    expect(new Set(names).size).toBe(names.length);
    await screenshot(page, 'tools-generator-preview');
    await page.keyboard.press('Escape');
    expect(withoutFavicon(h.errorsOf(page).console)).toEqual([]);
    expect(h.errorsOf(page).page).toEqual([]);
  }, 60_000);

  it('SQL监控: statements, window switch, reset', async () => {
    await page.goto('/tools/sqlMonitor');
    const s = activeScreen(page);
    await s.getByTestId('sql-monitor-page').waitFor({ state: 'visible', timeout: 15_000 });
    await expect.poll(() => s.locator('[data-testid="sql-statements"] tbody tr.ant-table-row').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await s.getByTestId('sql-card-queries').textContent()).toMatch(/\d/);
    await screenshot(page, 'tools-sql-monitor');
    await choose(page, s.getByTestId('sql-window'), '最近5分钟');
    await expect.poll(() => s.locator('[data-testid="sql-statements"] tbody tr.ant-table-row').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await s.getByTestId('sql-reset').click();
    await page.locator('.ant-popover:visible .ant-popconfirm-buttons').getByRole('button', { name: /确\s*定/ }).click();
    await expectNotice(page, '已重置');
    expect(withoutFavicon(h.errorsOf(page).console)).toEqual([]);
    expect(h.errorsOf(page).page).toEqual([]);
  }, 45_000);
});
