import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeScreen, expectNotice, type Harness, login, openDialog, screenshot, startHarness } from './harness';

/** 系统工具 › 定时任务 in a real browser: create a job with a registered handler, run it once, read its run log. */

const OK = /确\s*[定认]/;

describe('scheduled jobs screen', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('creates a job, executes it once and shows its run-log row', async () => {
    const page = await h.newPage({ width: 1600, height: 900 });
    await login(page);
    await page.goto('/tools/timing');
    const s = activeScreen(page);
    await s.getByTestId('jobs-table').waitFor({ state: 'visible', timeout: 15_000 });
    await expect.poll(() => s.locator('tr.ant-table-row', { hasText: '合同到期提醒' }).count()).toBe(1); // seeded
    await screenshot(page, 'tools-jobs');

    await s.getByTestId('jobs-add').click();
    const d = openDialog(page);
    await d.getByTestId('job-name').fill('浏览器测试任务');
    await d.getByTestId('job-handler').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'jobLogRetentionTask.run' }).first().click();
    await d.getByTestId('job-cron').fill('0 0/5 * * * ?');
    await d.getByTestId('job-params').fill('{"days": 30}');
    await expect.poll(() => d.getByTestId('job-cron-preview').locator('.ant-tag').count(), { timeout: 10_000 }).toBe(5);
    await screenshot(page, 'tools-jobs-dialog');
    await d.getByRole('button', { name: OK }).click();
    await expectNotice(page, '添加成功');
    const row = s.locator('tr.ant-table-row', { hasText: '浏览器测试任务' }).first();
    await row.waitFor({ state: 'visible' });

    await row.getByTestId('job-exec').click();
    await expectNotice(page, '执行成功');
    await expect.poll(async () => ((await row.textContent()) ?? '').includes('成功'), { timeout: 10_000 }).toBe(true);

    await s.getByTestId('jobs-logs').click();
    const logs = openDialog(page);
    const logRow = logs.locator('tr.ant-table-row', { hasText: '浏览器测试任务' }).first();
    await logRow.waitFor({ state: 'visible', timeout: 10_000 });
    expect((await logRow.textContent()) ?? '').toMatch(/jobLogRetentionTask\.run[\s\S]*手动[\s\S]*成功[\s\S]*删除 30 天前的执行日志 \d+ 条/);
    await page.waitForTimeout(300);
    await screenshot(page, 'tools-jobs-log');
    // the 失败 filter leaves it out
    await logs.getByTestId('job-log-status').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '失败' }).first().click();
    await expect.poll(() => logs.locator('tr.ant-table-row', { hasText: '浏览器测试任务' }).count()).toBe(0);
    expect(h.errorsOf(page).console.filter((e) => !/favicon/.test(e))).toEqual([]);
  });
});
