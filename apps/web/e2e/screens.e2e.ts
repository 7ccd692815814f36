import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeScreen, type Harness, login, loginWithIssuedPassword, openDialog, openScreen, screenshot, startHarness } from './harness';

/**
 * Findings W3, W4, W7, W8, W10, W12 in a real browser: the long company dialog keeps 确定 on screen and scrolls
 * to the first refused field; list columns not cut; toolbar gaps; the dark sidebar; the new columns.
 */

const OK = /确\s*定/;

/** Is the element's box inside the viewport? */
async function inView(page: Page, el: Locator): Promise<boolean> {
  const box = await el.boundingBox();
  const vp = page.viewportSize();
  return !!box && !!vp && box.y >= 0 && box.y + box.height <= vp.height && box.x >= 0 && box.x + box.width <= vp.width;
}

describe('screens (findings W3–W12)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  for (const [width, height] of [
    [1440, 900],
    [800, 700],
  ] as const) {
    it(`company dialog at ${width} px: 确定 always visible, the first error scrolled into view (W7)`, async () => {
      const page = await h.newPage({ width, height });
      await login(page);
      const s = await openScreen(page, '/accounts/company', 'crud-page-accountsCompany', 20_000);
      await screenshot(page, `w3-company-list-${width}`);
      await s.getByTestId('crud-add').click();
      const d = openDialog(page);
      await d.getByRole('button', { name: OK }).waitFor({ state: 'visible' });
      // scroll the body to the end: the footer stays
      await d.locator('.ant-modal-body').evaluate((el) => {
        el.scrollTop = el.scrollHeight;
      });
      expect(await inView(page, d.getByRole('button', { name: OK }))).toBe(true);
      await screenshot(page, `w7-company-dialog-bottom-${width}`);
      await d.getByRole('button', { name: OK }).click();
      const firstError = d.locator('.ant-form-item-has-error').first();
      await firstError.waitFor({ state: 'visible' });
      await expect.poll(() => inView(page, firstError.locator('label').first()), { timeout: 5_000 }).toBe(true);
      expect(await inView(page, d.getByRole('button', { name: OK }))).toBe(true);
      await screenshot(page, `w7-company-dialog-error-${width}`);
    });
  }

  it('an ordinary employee without payslips: forbidden URLs lead to the payslips, an empty state, a pinned tab (W1, W10)', async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    // the session token sits in an HttpOnly cookie (S6): out of the page's reach, not of the test's
    const token = (await page.context().cookies()).find((c) => c.name === 'dp_session')?.value;
    const call = async (method: string, url: string, body?: unknown): Promise<any> => {
      const res = await fetch(`${h.baseUrl}${url}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : {};
    };
    const jobs = await call('GET', '/api/job?name=普通员工&size=50');
    const job = jobs.content.find((j: { name: string }) => j.name === '普通员工');
    const roles = await call('GET', '/api/roles/all');
    const role = (Array.isArray(roles) ? roles : roles.content).find((r: { name: string }) => r.name === '普通员工');
    const username = '11010119900307003X';
    const user = await call('POST', '/api/users', {
      username,
      cname: '无工资条',
      email: 'nopayslip@example.com',
      phone: '13912345600',
      enabled: true,
      dept: { id: job.dept?.id ?? job.deptId },
      job: { id: job.id },
      roles: [{ id: role.id }],
    });

    const emp = await h.newPage({ width: 1440, height: 900 });
    await loginWithIssuedPassword(emp, username, user.defaultPassword, 'No-Payslip-2026');
    await emp.waitForURL((u) => u.pathname === '/acPayslip/index', { timeout: 15_000 });
    for (const path of ['/system/user', '/accounts/company', '/salary/accountsSalary']) {
      await emp.goto(path);
      await emp.waitForURL((u) => u.pathname === '/acPayslip/index', { timeout: 15_000 });
    }
    const s = activeScreen(emp);
    await s.getByTestId('payslip-empty').waitFor({ timeout: 15_000 });
    expect(await s.locator('th', { hasText: '操作' }).count()).toBe(0);
    expect(await emp.locator('.app-tags .ant-tabs-tab-remove').count()).toBe(0);
    await screenshot(emp, 'w10-employee-empty');
  });

  it('HR record and overtime lists: 身份证号 readable, 实习总结 listed; toolbar gaps; dark sidebar; home 首页', async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    let s = await openScreen(page, '/accounts/staffExtra', 'crud-page-accountsStaffExtra', 20_000);
    const header = s.locator('th', { hasText: '身份证号' }).first();
    expect((await header.boundingBox())!.width).toBeGreaterThanOrEqual(170);
    // 导入 | 导出 | 模板下载 and 搜索 | 重置 have a gap
    const gap = async (a: string, b: string) => {
      const ra = (await s.getByTestId(a).boundingBox())!;
      const rb = (await s.getByTestId(b).boundingBox())!;
      return rb.x - (ra.x + ra.width);
    };
    expect(await gap('crud-search', 'crud-reset')).toBeGreaterThanOrEqual(4);
    if ((await s.getByTestId('crud-import').count()) > 0) expect(await gap('crud-import', 'crud-export')).toBeGreaterThanOrEqual(4);
    await screenshot(page, 'w3-staff-extra');

    s = await openScreen(page, '/records/accIntern', 'crud-page-accIntern', 20_000);
    expect(await s.locator('th', { hasText: '实习总结' }).count()).toBe(1);
    await screenshot(page, 'w12-intern');
    s = await openScreen(page, '/records/accDepart', 'crud-page-accDepart', 20_000);
    expect(await s.locator('th', { hasText: '交接内容' }).count()).toBe(1);

    // dark mode: the sidebar is not slate blue
    await page.evaluate(() => localStorage.setItem('dp-layout-settings', JSON.stringify({ darkMode: true })));
    await openScreen(page, '/records/accSalary', 'crud-page-accSalary', 20_000);
    const bg = await page.locator('.app-sider').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(bg).not.toBe('rgb(48, 65, 86)');
    await screenshot(page, 'w8-dark-salary-records');
    expect(await page.locator('.app-sidebar-menu').getByText('首页', { exact: true }).count()).toBe(1);
  });
  it('wide lists keep the row name on the left while the rest scrolls (W2)', async () => {
    const db = h.app.ctx.db;
    const now = new Date().toISOString();
    await db.insertInto('accounts_company').values({ company_name: '宽表测试单位有限公司', dispatch_company: '北京华派人力资源有限公司', create_time: now, update_time: now } as never).execute();
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    const s = await openScreen(page, '/accounts/company', 'crud-page-accountsCompany', 20_000);
    await s.getByText('宽表测试单位有限公司').first().waitFor({ state: 'visible' });
    // scroll the table to its right end: 单位名称 stays in view, left of the scrolled columns
    await s.locator('.ant-table-content, .ant-table-body').first().evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await page.waitForTimeout(300);
    const name = s.getByText('宽表测试单位有限公司').first();
    expect(await inView(page, name)).toBe(true);
    const header = s.locator('th', { hasText: '单位名称' }).first();
    expect(await header.getAttribute('class')).toMatch(/ant-table-cell-fix-(left|start)/);
    await screenshot(page, 'w2-company-list-scrolled-1440');
  });
});
