import fs from 'node:fs';
import iconv from 'iconv-lite';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeScreen, choose, type Harness, login, notice, openDialog, openDialogBy, screenshot, startHarness, withoutFavicon } from './harness';

/**
 * 数据管理 in a real browser: a GBK CSV data source by upload, the model dialog's parameter rules, a 单例 task over
 * the source, run once while paused with its progress, its run log, the model data with preview and all.zip, and
 * the home screen's statistics and top-10 chart.
 */

const OK = /确\s*[定认]/;

let h: Harness;
let page: Page;
beforeAll(async () => {
  h = await startHarness();
  page = await h.newPage({ width: 1600, height: 900 });
  await login(page);
});
afterAll(async () => {
  await h?.close();
});

describe('数据管理: models, tasks, model data, statistics', () => {
  it('creates a CSV source and a 单例 task, runs it, watches its progress, previews and downloads the model data', async () => {
    // names unique to this attempt: a retry after a failure part-way must not meet the first attempt's rows
    const run = Date.now().toString(36).slice(-5);
    const source = `员工学历样本${run}`;
    const task = `学历分布E2E${run}`;
    const failingTask = `缺字段E2E${run}`;
    // 1. the data source: a GBK CSV uploaded through 数据源管理
    await page.goto('/operations/dataSources');
    let s = activeScreen(page);
    await s.getByTestId('datasources-add').click();
    let d = openDialog(page);
    await d.getByTestId('datasource-name').waitFor({ state: 'visible' });
    await choose(page, d.getByTestId('datasource-type'), 'CSV');
    await d.getByTestId('datasource-name').fill(source);
    await choose(page, d.getByTestId('datasource-encoding'), 'GBK');
    const csv = iconv.encode('姓名,学历,companyName\r\n朱镕基,本科,甲公司\r\n李四,本科,甲公司\r\n王五,大专,乙公司\r\n赵六,硕士,乙公司\r\n', 'gbk');
    await d.locator('input[type=file]').setInputFiles({ name: '学历样本.csv', mimeType: 'text/csv', buffer: csv });
    await expect.poll(() => d.getByTestId('datasource-file').count(), { timeout: 10_000 }).toBe(1);
    await d.getByRole('button', { name: OK }).click();
    await expect.poll(() => notice(page, '添加成功').count(), { timeout: 10_000 }).toBeGreaterThan(0);

    // 2. 模型管理: the built-in catalogue and the parameter-row rules of the dialog
    await page.goto('/operations/models');
    s = activeScreen(page);
    await s.getByTestId('models-table').waitFor({ state: 'visible', timeout: 15_000 });
    await expect.poll(() => s.locator('tr.ant-table-row').count()).toBeGreaterThanOrEqual(7);
    const builtinRow = s.locator('tr.ant-table-row', { hasText: '单特征分布（单例）' });
    // on shelf: edit and delete disabled, 下架 enabled
    expect(await builtinRow.getByTestId('model-edit').isDisabled()).toBe(true);
    expect(await builtinRow.getByTestId('model-off').isEnabled()).toBe(true);
    await screenshot(page, 'operations-models');
    await s.getByTestId('models-add').click();
    d = openDialog(page);
    await d.getByTestId('param-add').waitFor({ state: 'visible' });
    await page.waitForTimeout(300); // the dialog's zoom-in
    const add = d.getByTestId('param-add');
    expect(await add.isDisabled()).toBe(true);
    await d.getByTestId('param-code').first().fill('topN');
    await d.getByTestId('param-name').first().fill('前N项');
    expect(await add.isDisabled()).toBe(true);
    await choose(page, d.getByTestId('param-type').first(), '整数');
    expect(await add.isEnabled()).toBe(true);
    await add.click();
    await d.getByTestId('param-code').nth(1).fill('topN');
    await d.getByTestId('param-name').nth(1).fill('前N项');
    await choose(page, d.getByTestId('param-type').nth(1), '整数');
    await add.click();
    await expect.poll(() => d.getByTestId('param-error').innerText()).toContain('参数编码/参数名称/参数类型不能相同');
    await screenshot(page, 'operations-model-dialog');
    await d.getByRole('button', { name: /取\s*消/ }).click();

    // 3. 任务管理: a 单例 task asks for the filter condition, offered from the source's fields
    await page.goto('/operations/tasks');
    s = activeScreen(page);
    await s.getByTestId('tasks-table').waitFor({ state: 'visible', timeout: 15_000 });
    await s.getByTestId('tasks-add').click();
    d = openDialog(page);
    await choose(page, d.getByTestId('task-model'), '单特征分布（单例）');
    await d.getByTestId('task-property').waitFor({ state: 'visible' });
    await d.getByTestId('task-name').fill(task);
    await choose(page, d.getByTestId('task-cron-presets'), '每天 02:00');
    await expect.poll(() => d.getByTestId('task-cron-preview').locator('.ant-tag').count(), { timeout: 10_000 }).toBe(5);
    await d.getByRole('button', { name: OK }).click();
    // the §5 messages for what is missing
    await expect.poll(() => d.locator('.ant-form-item-explain-error').allInnerTexts()).toEqual(expect.arrayContaining(['请选择数据源', '请选择过滤条件']));
    await choose(page, d.getByTestId('task-data'), source);
    await choose(page, d.getByTestId('task-property'), /^学历$/);
    await screenshot(page, 'operations-task-dialog');
    await d.getByRole('button', { name: OK }).click();
    await expect.poll(() => notice(page, '添加成功').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    const row = s.locator('tr.ant-table-row', { hasText: task }).first();
    await row.waitFor({ state: 'visible' });
    expect(await row.getByTestId('task-state').innerText()).toBe('启用');
    // isPause 0: 开始 and 暂停 enabled, 恢复 disabled; no progress bar for an enabled task
    expect(await row.getByTestId('task-resume').isDisabled()).toBe(true);
    await row.click();
    expect(await s.getByTestId('task-progress').count()).toBe(0);

    // pause it (the progress bar appears: isPause 1), then 开始 runs it once and it stays paused
    await row.getByTestId('task-pause').click();
    await expect.poll(() => notice(page, '任务暂停成功').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(() => row.getByTestId('task-state').innerText()).toBe('暂停');
    await s.getByTestId('task-progress').waitFor({ state: 'visible' });
    expect(await row.getByTestId('task-pause').isDisabled()).toBe(true);
    await row.getByTestId('task-start').click();
    await expect.poll(() => notice(page, '开启任务执行成功').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(() => s.getByTestId('task-progress-msg').innerText(), { timeout: 15_000 }).toContain('产出 2 个文件');
    // 100 % of a finished run: antd draws the success state (a check instead of the number)
    await expect.poll(() => row.getByTestId('task-state').innerText(), { timeout: 10_000 }).toBe('暂停');
    await expect.poll(() => s.getByTestId('task-progress-bar').getAttribute('class'), { timeout: 10_000 }).toContain('ant-progress-status-success');
    await page.waitForTimeout(400); // let the dialog and bar animations end
    await screenshot(page, 'operations-tasks-progress');

    // a cross-tab task whose row field the CSV lacks: its run fails with the field named
    await s.getByTestId('tasks-add').click();
    d = openDialog(page);
    await choose(page, d.getByTestId('task-model'), '交叉特征分析');
    await d.getByTestId('task-name').fill(failingTask);
    await choose(page, d.getByTestId('task-cron-presets'), '每天 02:00');
    await choose(page, d.getByTestId('task-data'), source);
    expect(await d.getByTestId('task-property').count()).toBe(0); // not a 单例 model
    await d.getByTestId('task-param-rowField').fill('部门');
    await d.getByRole('button', { name: OK }).click();
    const failing = s.locator('tr.ant-table-row', { hasText: failingTask }).first();
    await failing.waitFor({ state: 'visible', timeout: 10_000 });
    await failing.getByTestId('task-start').click();
    await expect.poll(() => failing.innerText(), { timeout: 10_000 }).toContain('失败');

    // the execution log: 成功 with read/produced rows; 失败 with its exception detail
    await s.getByTestId('tasks-logs').click();
    d = openDialog(page);
    const logRow = d.locator('tr.ant-table-row', { hasText: task }).first();
    await logRow.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await logRow.innerText()).toMatch(/手动[\s\S]*4 \/ \d+ 行[\s\S]*成功/);
    await page.waitForTimeout(400); // let the dialog and bar animations end
    await screenshot(page, 'operations-task-log');
    await choose(page, d.getByTestId('task-log-status'), '失败');
    await expect.poll(() => d.locator('tr.ant-table-row', { hasText: task }).count()).toBe(0);
    const failedRow = d.locator('tr.ant-table-row', { hasText: failingTask }).first();
    // the filtered page replaces the rows: a click on the row it is replacing opens nothing, so it is made again
    const detail = (await openDialogBy(page, failedRow.getByTestId('task-log-detail'), 'task-log-exception')).getByTestId('task-log-exception');
    expect(await detail.innerText()).toContain('部门');
    await page.waitForTimeout(400);
    await screenshot(page, 'operations-task-exception');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');

    // 4. 模型数据: the run's group under 单例, its files, a preview and all.zip
    await page.goto('/operations/modelData');
    s = activeScreen(page);
    await s.getByTestId('model-data-table').waitFor({ state: 'visible', timeout: 15_000 });
    await choose(page, s.getByTestId('model-data-kind'), '单例');
    await s.getByRole('button', { name: /搜\s*索/ }).click();
    const group = s.locator('tr.ant-table-row', { hasText: `${task}_` }).first();
    await group.waitFor({ state: 'visible', timeout: 10_000 });
    await group.locator('.ant-table-row-expand-icon').click();
    await expect.poll(() => s.getByTestId('model-data-file').allInnerTexts()).toEqual(['学历分布.xlsx', '学历分布_按单位.xlsx']);
    await s.getByTestId('model-data-preview-open').first().click();
    const preview = openDialog(page).getByTestId('model-data-preview');
    await preview.waitFor({ state: 'visible', timeout: 10_000 });
    const cells = await preview.locator('tbody tr.ant-table-row').allInnerTexts();
    expect(cells[0]).toMatch(/本科\s+2\s+50\s+50/);
    await page.waitForTimeout(400); // let the dialog and bar animations end
    await screenshot(page, 'operations-model-data-preview');
    await page.keyboard.press('Escape');
    await group.locator('.ant-checkbox-input').check();
    await expect.poll(() => s.getByTestId('model-data-export').isEnabled()).toBe(true);
    await page.waitForTimeout(300); // the checkbox's tick animation
    await screenshot(page, 'operations-model-data');
    await s.getByTestId('model-data-export').click();
    const confirm = page.locator('.ant-modal-confirm:visible');
    await expect.poll(() => confirm.innerText()).toContain('确定导出所有文件吗？');
    // the zip is built on the server: under CI load that takes a while; a click landing during the confirm's
    // opening animation can be lost, so OK is clicked until the confirm has gone
    const downloading = page.waitForEvent('download', { timeout: 60_000 });
    await expect
      .poll(
        async () => {
          if (await confirm.count()) await confirm.getByRole('button', { name: OK }).click({ timeout: 2000 }).catch(() => undefined);
          return confirm.count();
        },
        { timeout: 20_000 },
      )
      .toBe(0);
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('all.zip');
    const zip = fs.readFileSync((await download.path()) as string);
    expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(zip.includes(Buffer.from('/学历分布_按单位.xlsx'))).toBe(true);

    // 5. the home screen: statistics cards and the top-10 chart of the task that just ran
    await page.goto('/dashboard');
    s = activeScreen(page);
    await s.getByTestId('dashboard-volume').waitFor({ state: 'visible', timeout: 15_000 });
    // the cards show a skeleton until the figures arrive
    await expect.poll(() => s.getByTestId('dashboard-volume-sum').innerText(), { timeout: 10_000 }).toMatch(/产出[\s\S]*\d+条[\s\S]*计算[\s\S]*\d+条/); // a few rows read as 条, not 0.00 万条 (U10)
    // the two tasks that ran, the failed one without bars
    await expect.poll(() => s.getByTestId('dashboard-chart').count(), { timeout: 10_000 }).toBe(2);
    const chart = s.getByTestId('dashboard-chart').filter({ hasText: task });
    expect(await s.getByTestId('dashboard-chart').filter({ hasText: failingTask }).innerText()).toContain('该任务还没有成功运行的结果');
    await expect.poll(() => chart.locator('canvas').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.waitForTimeout(800); // the bars animate in
    await screenshot(page, 'operations-dashboard');
    await s.getByTestId('dashboard-settings').click();
    await openDialog(page).getByTestId('dashboard-settings-tasks').waitFor({ state: 'visible' });
    await page.waitForTimeout(400); // let the dialog and bar animations end
    await screenshot(page, 'operations-dashboard-settings');
    await openDialog(page).getByRole('button', { name: OK }).click();
    await expect.poll(() => notice(page, '保存成功').count(), { timeout: 10_000 }).toBeGreaterThan(0);

    expect(withoutFavicon(h.errorsOf(page).console)).toEqual([]);
    expect(h.errorsOf(page).page).toEqual([]);
  }, 60_000);
});
