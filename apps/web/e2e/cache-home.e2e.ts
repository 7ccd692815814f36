import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../server/src/core/auth/tokens.ts';
import { chinaToday } from '../../server/src/modules/dispatch/lookups.ts';
import { addDays } from '../../server/src/modules/home/actions.ts';
import { activeScreen, type Harness, login, screenshot, startHarness, withoutFavicon } from './harness';

/**
 * The home screen's action lists (all companies, W4) and 系统监控 › 缓存管理 in a real browser: search,
 * namespace filter, a protected key that cannot be deleted, and 清空缓存 with its confirmation.
 */
const OK = /确\s*定/;

async function open(page: Page, path: string, testId: string): Promise<Locator> {
  await page.goto(path);
  const s = activeScreen(page);
  await s.getByTestId(testId).first().waitFor({ state: 'visible', timeout: 15_000 });
  await page.waitForLoadState('networkidle');
  return s;
}

describe('home actions and cache manager', () => {
  let h: Harness;
  let call: (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) => Promise<any>;
  const today = chinaToday();
  let secondToken: () => string;

  beforeAll(async () => {
    h = await startHarness();
    const admin = await h.app.ctx.db.selectFrom('sys_user').select(['id', 'token_version']).where('username', '=', 'admin').executeTakeFirstOrThrow();
    const { token } = signToken(h.app.ctx.keys.tokenSecret, Number(admin.id), Number(admin.token_version), 3600);
    secondToken = () => signToken(h.app.ctx.keys.tokenSecret, Number(admin.id), Number(admin.token_version), 3600).token;
    call = async (method, url, payload) => {
      const res = await h.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.body ? res.json() : undefined;
    };
    const { companyBody, staffBody, idCard } = await import('../../server/test/dispatch-fixtures.ts');
    const companies: number[] = [];
    for (const name of ['东方物业', '华北制造']) companies.push((await call('POST', '/api/accountsCompany', companyBody({ companyName: name }))).id);
    let seq = 301;
    const staff = (companyId: number, staffName: string, contractEnd: string) =>
      call('POST', '/api/accountsStaff', staffBody(companyId, { staffName, idCard: idCard('1991-02-03', (seq += 2)), contractEnd }));
    await staff(companies[0], '赵一', addDays(today, 6));
    await staff(companies[0], '钱二', addDays(today, -3));
    await staff(companies[1], '孙三', addDays(today, 25));
    await staff(companies[1], '李四', addDays(today, 300));
    // a salary month generated and not confirmed, as the salary flow leaves it
    for (let i = 0; i < 2; i++) {
      await h.app.ctx.db
        .insertInto('accounts_salary')
        .values({ company_id: companies[1], company_name: '华北制造', month: '2025-10', id_card: idCard('1985-01-01', 500 + i * 2), calc_state: 0, tag: 0 } as never)
        .execute();
    }
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('shows what a clerk must act on across companies, then manages the cache', async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    // S6: the token is in an HttpOnly cookie, out of the page's reach; nothing stored by scripts
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'dp_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(cookies.find((c) => c.name === 'dp_csrf')).toMatchObject({ httpOnly: false, sameSite: 'Strict' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('dp_session');
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toMatch(/eyJ/);
    let s = await open(page, '/dashboard', 'home-actions');
    const contracts = s.getByTestId('home-contracts');
    await expect.poll(() => contracts.locator('tr.ant-table-row').count()).toBe(3);
    expect(await contracts.locator('tr.ant-table-row').first().textContent()).toContain('钱二');
    expect(await contracts.locator('tr.ant-table-row', { hasText: '李四' }).count()).toBe(0);
    expect(await s.getByTestId('dashboard-count').textContent()).toContain('3');
    await expect.poll(() => contracts.getByText('已到期 3 天').isVisible()).toBe(true);
    const months = s.getByTestId('home-months');
    await expect.poll(() => months.locator('tr.ant-table-row', { hasText: '2025-10' }).count()).toBe(1);
    expect(await months.locator('tr.ant-table-row').first().textContent()).toContain('华北制造');
    await screenshot(page, 'home-actions');
    // one company's contracts
    await s.getByTestId('home-contracts-companies').getByText(/华北制造/).click();
    await expect.poll(() => contracts.locator('tr.ant-table-row').count()).toBe(1);
    expect(await contracts.locator('tr.ant-table-row').first().textContent()).toContain('孙三');

    // ---- cache manager ----
    // a second session logged out: its revocation mark is a protected key
    await call('DELETE', '/api/redis/all'); // start from the protected keys and the epoch this write sets again
    await h.app.inject({ method: 'DELETE', url: '/auth/logout', headers: { authorization: `Bearer ${secondToken()}` } });
    s = await open(page, '/monitor/redis', 'cache-page');
    await expect.poll(() => s.getByTestId('cache-table').locator('tr.ant-table-row').count()).toBeGreaterThan(0);
    await expect.poll(() => s.getByTestId('cache-info').textContent()).toContain('进程内存');
    await s.getByTestId('cache-search').fill('authz');
    await s.getByTestId('cache-search-button').click();
    await expect.poll(() => s.getByTestId('cache-table').locator('tr.ant-table-row').count()).toBe(1);
    expect(await s.getByTestId('cache-table').locator('tr.ant-table-row').first().textContent()).toContain('可重建');
    await screenshot(page, 'cache-manager-search');

    // 清空缓存 asks first, then clears the rebuildable keys only
    await s.getByTestId('cache-clear-all').click();
    const ask = page.locator('.ant-modal-confirm:visible').last();
    await expect.poll(() => ask.textContent()).toContain('你确定要清空缓存数据吗？');
    await ask.getByRole('button', { name: OK }).click();
    await expect.poll(() => page.locator('.ant-notification-notice').last().textContent()).toMatch(/已删除 \d+ 个键/);
    // the logged-out session's mark is still there, masked, and cannot be deleted
    await s.getByTestId('cache-search').fill('revoked');
    await s.getByTestId('cache-search-button').click();
    await expect.poll(() => s.getByTestId('cache-table').locator('tr.ant-table-row').count()).toBe(1);
    const revoked = s.getByTestId('cache-table').locator('tr.ant-table-row').first();
    expect(await revoked.textContent()).toContain('受保护');
    expect(await revoked.textContent()).toContain('******');
    expect(await revoked.getByRole('button', { name: /删\s*除/ }).isDisabled()).toBe(true);
    await screenshot(page, 'cache-manager');

    const errors = h.errorsOf(page);
    expect(withoutFavicon(errors.page)).toEqual([]);
    expect(withoutFavicon(errors.console)).toEqual([]);
  });
});
