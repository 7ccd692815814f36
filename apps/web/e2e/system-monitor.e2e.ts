import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeScreen, type Harness, login, screenshot, startHarness, tableRow } from './harness';

/** 系统监控 › 在线用户 (强退 ends another session at its next request) and 服务监控, in a real browser. */
describe('系统监控 screens', () => {
  let h: Harness;
  let otherToken = '';
  beforeAll(async () => {
    h = await startHarness();
    const { login: apiLogin, DEV_ADMIN_PASSWORD } = await import('../../server/test/helpers.ts');
    otherToken = await apiLogin(h.app, 'admin', DEV_ADMIN_PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('lists the sessions, forces another one out, and shows the server', async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    const info = () => h.app.inject({ method: 'GET', url: '/auth/info', headers: { authorization: `Bearer ${otherToken}` } });
    expect((await info()).statusCode).toBe(200);
    await page.goto('/monitor/online');
    const s = activeScreen(page);
    await s.getByTestId('online-page').waitFor({ state: 'visible', timeout: 15_000 });
    await expect.poll(() => s.locator('tr.ant-table-row').count()).toBe(2);
    expect(await tableRow(s, '当前会话').textContent()).toContain('admin');
    await screenshot(page, 'monitor-online');
    await s.getByTestId('online-kick-admin').click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await expect.poll(() => s.locator('tr.ant-table-row').count()).toBe(1);
    expect((await info()).statusCode).toBe(401);

    await page.goto('/monitor/server');
    const m = activeScreen(page);
    await m.getByTestId('server-monitor-page').waitFor({ state: 'visible', timeout: 15_000 });
    await expect.poll(async () => (await m.textContent()) ?? '').toContain('sqlite');
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'monitor-server');
  });
});
