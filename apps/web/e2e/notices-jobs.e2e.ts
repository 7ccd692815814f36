import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeScreen, clearNotices, choose, expectNotice, type Harness, login, openDialog, openScreen, SCREENSHOT_DIR, screenshot, startLoggedIn, tableRow, withoutFavicon } from './harness';

/**
 * Issue 25 item 2 in a real browser: the 定时任务 dialog's run options (重试次数/间隔, 错过策略 补跑一次/跳过, 允许并发) are
 * saved and shown again when the job is reopened; a run that fails after its retries becomes a notice in the
 * header's bell (unread count, panel), and opening the notice marks it read and goes to the job list.
 */

const OK = /确\s*定/;
const JOB = '对账数据同步';
const REASON = '对账数据源连接失败：连接被拒绝';

/** The radio of the form item labelled `label` holding `option`. */
const radio = (d: Locator, label: string, option: string): Locator =>
  d.locator('.ant-form-item', { has: d.page().locator(`label[title="${label}"]`) }).locator('label.ant-radio-wrapper', { hasText: new RegExp(`^${option}$`) });
const isChecked = async (r: Locator): Promise<boolean> => ((await r.getAttribute('class')) ?? '').includes('ant-radio-wrapper-checked');

/** Let an opening animation end (a picture taken during it is washed out). */
const settled = (page: Page) => page.waitForTimeout(450);

describe('notice bell and job run options (issue 25)', () => {
  let h: Harness;
  let page: Page;
  const bell = () => page.getByTestId('notice-bell');
  const badge = (p: Page) => p.getByTestId('notice-bell').locator('.ant-badge-count');

  beforeAll(async () => {
    ({ h, page } = await startLoggedIn());
    // a handler whose source is down: every attempt fails, as a real import job's would (the server test does the same)
    h.app.scheduler.registerHandler({
      name: 'reconcileSync.run',
      title: '对账数据同步',
      async run() {
        throw new Error(REASON);
      },
    });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('the job dialog keeps retry count and interval, misfire policy and overlap', { timeout: 150_000 }, async () => {
    const s = await openScreen(page, '/tools/timing', 'jobs-table');
    await s.getByTestId('jobs-add').click();
    let d = openDialog(page);
    await d.getByTestId('job-name').fill(JOB);
    await choose(page, d.getByTestId('job-handler'), 'reconcileSync.run');
    await d.getByTestId('job-cron').fill('0 0 2 * * ?');
    // a new job's defaults: no retry, 补跑一次, no overlap
    expect(await d.getByTestId('job-retry-count').inputValue()).toBe('0');
    expect(await isChecked(radio(d, '错过策略', '补跑一次'))).toBe(true);
    expect(await isChecked(radio(d, '允许并发', '不允许'))).toBe(true);
    await d.getByTestId('job-retry-count').fill('1');
    await d.getByTestId('job-retry-interval').fill('1');
    await radio(d, '错过策略', '跳过').click();
    await radio(d, '允许并发', '允许').click();
    // paused: nothing fires on its own while the test runs
    await radio(d, '状态', '暂停').click();
    await expect.poll(() => d.getByTestId('job-cron-preview').locator('.ant-tag').count(), { timeout: 10_000 }).toBe(5);
    await page.mouse.move(5, 5);
    await settled(page);
    await screenshot(page, 'jobs-run-options-dialog');
    await d.getByRole('button', { name: OK }).click();
    await expectNotice(page, '添加成功');
    await clearNotices(page);
    const row = tableRow(s, JOB);
    await row.waitFor({ timeout: 10_000 });

    // reopened: what was chosen is what is shown
    await row.getByTestId('job-edit').click();
    d = openDialog(page);
    await expect.poll(() => d.getByTestId('job-name').inputValue(), { timeout: 10_000 }).toBe(JOB);
    expect(await d.getByTestId('job-retry-count').inputValue()).toBe('1');
    expect(await d.getByTestId('job-retry-interval').inputValue()).toBe('1');
    expect(await isChecked(radio(d, '错过策略', '跳过'))).toBe(true);
    expect(await isChecked(radio(d, '允许并发', '允许'))).toBe(true);
    expect(await isChecked(radio(d, '允许并发', '不允许'))).toBe(false);
    await settled(page);
    await screenshot(page, 'jobs-run-options-reopened');
    // changed again and saved: the server holds the new values
    await d.getByTestId('job-retry-count').fill('2');
    await radio(d, '错过策略', '补跑一次').click();
    await d.getByRole('button', { name: OK }).click();
    await expectNotice(page, '修改成功');
    await clearNotices(page);
    const saved = await h.app.ctx.db.selectFrom('sys_scheduled_job').selectAll().where('job_name', '=', JOB).executeTakeFirstOrThrow();
    expect(saved).toMatchObject({ retry_count: 2, retry_interval_sec: 1, misfire_policy: 'once' });
    expect(Number(saved.allow_overlap)).toBe(1);
    await row.getByTestId('job-edit').click();
    d = openDialog(page);
    await expect.poll(() => d.getByTestId('job-retry-count').inputValue(), { timeout: 10_000 }).toBe('2');
    expect(await isChecked(radio(d, '错过策略', '补跑一次'))).toBe(true);
    await d.getByRole('button', { name: /取\s*消/ }).click();
    expect(withoutFavicon(h.errorsOf(page).console)).toEqual([]);
  });

  it('a run that fails after its retries rings the bell; opening the notice marks it read and goes to the job list', { timeout: 150_000 }, async () => {
    const s = await openScreen(page, '/tools/timing', 'jobs-table');
    expect(await badge(page).count()).toBe(0);
    await bell().click();
    const panel = page.getByTestId('notice-panel');
    await panel.waitFor({ timeout: 10_000 });
    expect(await panel.textContent()).toContain('暂无通知');
    await page.keyboard.press('Escape');
    await page.mouse.click(700, 500);

    const row = tableRow(s, JOB);
    await row.getByTestId('job-exec').click();
    await expectNotice(page, '执行成功');
    // three attempts (retry count 2, one second apart), all failed: one failed run
    await expect
      .poll(async () => (await h.app.ctx.db.selectFrom('sys_notice').select('id').where('title', 'like', `%${JOB}%`).execute()).length, { timeout: 20_000 })
      .toBeGreaterThan(0);
    await clearNotices(page);

    // the clerk is elsewhere; the bell (polled every minute, and on focus) shows the count on the next screen
    await openScreen(page, '/salary/accountsSalary', 'salary-page');
    await expect.poll(() => badge(page).textContent(), { timeout: 15_000 }).toBe('1');
    await screenshot(page, 'notice-bell-unread');
    await bell().click();
    await panel.waitFor({ timeout: 10_000 });
    const item = panel.getByTestId('notice-item').first();
    await item.waitFor();
    expect(await panel.getByTestId('notice-item').count()).toBe(1);
    expect(await item.textContent()).toContain(`定时任务「${JOB}」运行失败`);
    expect(await item.textContent()).toContain(REASON);
    expect(await item.textContent()).toContain('共尝试 3 次');
    expect(await item.getAttribute('class')).toContain('app-notice-unread');
    await settled(page);
    await screenshot(page, 'notice-bell-panel');

    await item.click();
    await page.waitForURL((u) => u.pathname === '/tools/timing', { timeout: 10_000 });
    await activeScreen(page).getByTestId('jobs-table').waitFor();
    await expect.poll(() => badge(page).count(), { timeout: 10_000 }).toBe(0);
    const stored = await h.app.ctx.db.selectFrom('sys_notice').select(['is_read']).where('title', 'like', `%${JOB}%`).execute();
    expect(stored.map((n) => Number(n.is_read))).toEqual([1]);
    // the job's row says how its last run went
    await expect.poll(async () => (await tableRow(activeScreen(page), JOB).textContent()) ?? '', { timeout: 10_000 }).toContain('失败');
    await screenshot(page, 'notice-bell-opened-jobs');
    // the panel keeps it, read
    await bell().click();
    await expect.poll(() => panel.getByTestId('notice-item').first().getAttribute('class')).toContain('app-notice-read');
    await page.keyboard.press('Escape');
    expect(withoutFavicon(h.errorsOf(page).page)).toEqual([]);
    expect(withoutFavicon(h.errorsOf(page).console)).toEqual([]);
  });

  it('390 px: the bell and its panel', { timeout: 120_000 }, async () => {
    // a second failure, so the phone shows one unread beside the read one
    const row = tableRow(activeScreen(page), JOB);
    await row.getByTestId('job-exec').click();
    await expect
      .poll(async () => (await h.app.ctx.db.selectFrom('sys_notice').select('id').where('title', 'like', `%${JOB}%`).execute()).length, { timeout: 20_000 })
      .toBe(2);
    const phone = await h.newPage({ width: 390, height: 844 });
    await login(phone);
    await phone.waitForLoadState('networkidle');
    await expect.poll(() => badge(phone).textContent(), { timeout: 15_000 }).toBe('1');
    await phone.getByTestId('notice-bell').click();
    const panel = phone.getByTestId('notice-panel');
    await panel.waitFor({ timeout: 10_000 });
    expect(await panel.getByTestId('notice-item').count()).toBe(2);
    await settled(phone);
    // the popover fits the phone's width
    const popover = phone.locator('.ant-popover:visible').last();
    const box = await popover.boundingBox();
    await phone.screenshot({ path: `${SCREENSHOT_DIR}/notice-bell-panel-390.png` });
    expect(box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box)).toBe(true);
    expect(withoutFavicon(h.errorsOf(phone).page)).toEqual([]);
    expect(withoutFavicon(h.errorsOf(phone).console)).toEqual([]);
  });
});
