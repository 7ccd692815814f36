import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../../server/test/storageFixtures.ts';
import { activeScreen, expectNotice, type Harness, openDialog, screenshot, startLoggedIn, withoutFavicon } from './harness';

/**
 * 系统工具 › 存储管理 and 图床管理 in a real browser against the real server: save the local-storage
 * configuration, upload a file through the upload dialog, download it (the signed link serves the same bytes),
 * upload a picture and see it rendered from its URL.
 */

let h: Harness;
let page: Page;
beforeAll(async () => {
  ({ h, page } = await startLoggedIn());
}, 120_000);
afterAll(() => h?.close());

describe('存储管理', () => {
  it('configures local storage, uploads a file and downloads the same bytes', async () => {
    await page.goto('/tools/storage');
    const s = activeScreen(page);
    await s.getByTestId('storage-page').waitFor({ state: 'visible', timeout: 15_000 });

    await s.locator('.ant-tabs-tab', { hasText: '配置' }).click();
    await s.getByTestId('storage-config-form').waitFor({ state: 'visible' });
    await s.getByTestId('storage-provider').getByText('对象存储').click();
    await s.getByTestId('storage-bucket').waitFor({ state: 'visible' });
    await screenshot(page, 'storage-config-s3');
    await s.getByTestId('storage-provider').getByText('本地存储').click();
    await s.getByTestId('storage-config-save').click();
    await expectNotice(page, '配置已保存');
    const row = await h.app.ctx.db.selectFrom('tool_storage_config' as never).selectAll().executeTakeFirst();
    expect(row).toMatchObject({ provider: 'local' });

    await s.locator('.ant-tabs-tab', { hasText: '文件列表' }).click();
    await s.getByTestId('storage-upload').click();
    const d = openDialog(page);
    const content = Buffer.from('姓名,实发\n张三,5230.00\n');
    await d.locator('input[type=file]').setInputFiles({ name: '十一月工资.csv', mimeType: 'text/csv', buffer: content });
    await expectNotice(page, '上传文件成功');
    await screenshot(page, 'storage-upload-dialog');
    await d.getByRole('button', { name: /确\s*定/ }).click();
    const firstRow = s.locator('[data-testid="storage-files"] tbody tr.ant-table-row').first();
    await expect.poll(() => firstRow.innerText(), { timeout: 10_000 }).toContain('十一月工资.csv');
    await screenshot(page, 'storage-files');

    // the download button opens the signed link of our own route; it serves the uploaded bytes as an attachment
    const linkRequest = page.context().waitForEvent('request', (r) => r.url().includes('/api/storage/object?'));
    await firstRow.getByTestId('storage-download').click();
    const link = (await linkRequest).url();
    const got = await fetch(link);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(content)).toBe(true);
    expect(got.headers.get('content-disposition')).toMatch(/^attachment/);
    for (const p of page.context().pages()) if (p !== page) await p.close();

    await s.locator('.ant-tabs-tab', { hasText: '使用说明' }).click();
    await s.getByTestId('storage-usage').waitFor({ state: 'visible' });
    await screenshot(page, 'storage-usage');
    expect(withoutFavicon(h.errorsOf(page).console)).toEqual([]);
    expect(h.errorsOf(page).page).toEqual([]);
  }, 45_000);

  it('图床管理: uploads a picture that renders from its URL', async () => {
    await page.goto('/tools/pictures');
    const s = activeScreen(page);
    await s.getByTestId('picture-page').waitFor({ state: 'visible', timeout: 15_000 });
    await s.getByTestId('picture-upload').click();
    const d = openDialog(page);
    await d.locator('input[type=file]').setInputFiles({ name: '公司印章.png', mimeType: 'image/png', buffer: png(120, 80) });
    await expectNotice(page, '上传文件成功');
    await d.getByRole('button', { name: /确\s*定/ }).click();
    const firstRow = s.locator('tbody tr.ant-table-row').first();
    await expect.poll(() => firstRow.innerText(), { timeout: 10_000 }).toContain('公司印章.png');
    expect(await firstRow.innerText()).toContain('120 × 80');
    const img = firstRow.locator('img').first();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth), { timeout: 10_000 }).toBe(120);
    await screenshot(page, 'storage-pictures');
    expect(withoutFavicon(h.errorsOf(page).console)).toEqual([]);
    expect(h.errorsOf(page).page).toEqual([]);
  }, 30_000);
});
