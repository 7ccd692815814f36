import { idCardCheckDigit } from '@app/shared/idcard';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeScreen, choose, type Harness, login, loginWithIssuedPassword, screenshot, staffBody, startHarness } from './harness';

/**
 * Issue 26, findings U3, U4, U5, U8, U17, U22 in a real browser: identity columns with a width, 应发/个税/实发 in
 * view at 1440 px with a 合计 row that adds up the page exactly, no 单位名称 column beside the chosen company,
 * headers that break only between words, a confirmed month readable in dark mode, no fixed columns at 390 px.
 */

type Json = Record<string, any>;
const COMPANY = 'E2E表格单位';
const idCard = (first17: string): string => first17 + idCardCheckDigit(first17);
const month = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 7);


/** '12,345.67' -> 1234567 fen, exactly. */
function fen(text: string): number {
  const m = /^(-?)([\d,]+)\.(\d{2})$/.exec(text.trim());
  if (!m) throw new Error(`not an amount: "${text}"`);
  return (m[1] ? -1 : 1) * (Number(m[2].replace(/,/g, '')) * 100 + Number(m[3]));
}

/** The column index (among the header cells) of the header reading `title`. */
async function headerIndex(s: Locator, title: RegExp): Promise<number> {
  const titles = await s.locator('.ant-table-thead th').allTextContents();
  return titles.findIndex((t) => title.test(t.trim()));
}

/** Is the header fully inside the table's visible area and not under a fixed column on the right? */
async function headerInView(s: Locator, title: RegExp): Promise<boolean> {
  return s.locator('.ant-table-container').first().evaluate((container, source) => {
    const re = new RegExp(source);
    const box = container.getBoundingClientRect();
    const ths = Array.from(container.querySelectorAll('.ant-table-thead th'));
    const th = ths.find((h) => re.test((h.textContent ?? '').trim()));
    if (!th) return false;
    const r = th.getBoundingClientRect();
    const fixedRight = ths.filter((h) => h.classList.contains('ant-table-cell-fix-right') || h.classList.contains('ant-table-cell-fix-end'));
    const limit = Math.min(box.right, ...fixedRight.filter((h) => h !== th).map((h) => h.getBoundingClientRect().left));
    return r.left >= box.left - 1 && r.right <= limit + 1;
  }, title.source);
}

/** The relative luminance (0 black .. 1 white) of an element's computed background. */
async function backgroundLuminance(el: Locator): Promise<number> {
  return el.evaluate((node) => {
    const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/.exec(getComputedStyle(node).backgroundColor);
    if (!m) return -1;
    const [r, g, b] = [m[1], m[2], m[3]].map((v) => Number(v) / 255);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  });
}

async function setLook(page: Page, dark: boolean): Promise<void> {
  await page.evaluate((d) => localStorage.setItem('dp-layout-settings', JSON.stringify({ darkMode: d })), dark);
}

describe('tables a clerk can read (issue 26 items 1 and 2)', () => {
  let h: Harness;
  let companyId = 0;
  let employee = { username: '', password: '' };

  beforeAll(async () => {
    h = await startHarness();
    const page = await h.newPage();
    await login(page);
    const token = (await page.context().cookies()).find((c) => c.name === 'dp_session')?.value;
    const call = async (method: string, url: string, body?: unknown): Promise<Json> => {
      const res = await fetch(`${h.baseUrl}${url}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : {};
    };
    const company = await call('POST', '/api/accountsCompany', {
      companyName: COMPANY,
      serviceType: '劳务派遣',
      feeType: '按人头',
      fee: 100,
      disabledPay: 0,
      dispatchCompany: '北京华派人力资源有限公司',
      contact: '王经理',
      phone: '010-88886666',
      gjjBase: 8000,
      yanglaoBase: 7162,
      yilaoBase: 7162,
      yilaoBaseSelf: 7162,
      shiyeBase: 7162,
      gongshangBase: 7162,
      shengyuBase: 7162,
    });
    companyId = company.id;
    // amounts whose cents do not add up exactly as floating point numbers
    await call('POST', '/api/accountsStaff', staffBody(companyId, '表格甲', idCard('11010119900307211'), 9000.1));
    await call('POST', '/api/accountsStaff', staffBody(companyId, '表格乙', idCard('11010119880517313'), 12000.2));
    await call('POST', '/api/accountsStaff', staffBody(companyId, '欧阳表格丙', idCard('11010119850101415'), 7777.7));
    await call('POST', '/api/accountsSalary/generator', { companyId, month, companyName: COMPANY });
    await call('POST', '/api/accountsSalary/calculate', { companyId, month, companyName: COMPANY });
    await call('POST', '/api/accountsSalary/confirm', { companyId, month, companyName: COMPANY, acknowledgeWarnings: true });
    await call('POST', '/api/acPayslip/generate', { companyId, month });
    // 表格甲 gets a login of their own (job and role 普通员工): they see only their payslips
    const jobs = await call('GET', '/api/job?name=普通员工&size=50');
    const job = jobs.content.find((j: { name: string }) => j.name === '普通员工');
    const roles = await call('GET', '/api/roles/all');
    const role = (Array.isArray(roles) ? roles : roles.content).find((r: { name: string }) => r.name === '普通员工');
    const username = idCard('11010119900307211');
    const user = await call('POST', '/api/users', {
      username,
      cname: '表格甲',
      email: 'biaoge@example.com',
      phone: '13912345601',
      enabled: true,
      dept: { id: job.dept?.id ?? job.deptId },
      job: { id: job.id },
      roles: [{ id: role.id }],
    });
    employee = { username, password: user.defaultPassword };
    await page.close();
  }, 180_000);

  afterAll(async () => {
    await h?.close();
  });

  async function openSalary(page: Page): Promise<Locator> {
    await page.goto('/salary/accountsSalary');
    const s = activeScreen(page);
    await s.getByTestId('salary-page').waitFor({ state: 'visible', timeout: 45_000 });
    await choose(page, s.getByTestId('salary-company'), COMPANY);
    await s.locator('tr.ant-table-row', { hasText: '表格甲' }).first().waitFor({ state: 'visible', timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    // the company list closes with an animation
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    return s;
  }

  /** The 合计 row's amount under `title` equals the exact sum of the column's cells. */
  async function expectExactTotal(s: Locator, title: RegExp): Promise<void> {
    const i = await headerIndex(s, title);
    expect(i, `header ${title}`).toBeGreaterThanOrEqual(0);
    const cells = await s.locator('tr.ant-table-row').evaluateAll((rows, col) => rows.map((r) => (r.children[col]?.textContent ?? '').trim()), i);
    const total = await s.locator('tr.crud-page-totals').evaluate((row, col) => (row.children[col]?.textContent ?? '').trim(), i);
    expect(cells.length).toBeGreaterThan(0);
    expect(fen(total)).toBe(cells.reduce((sum, c) => sum + (c === '' ? 0 : fen(c)), 0));
  }

  for (const look of [
    { lng: 'zh', locale: 'zh-CN', dark: false, total: /^合计$/, gross: /^应发工资$/, tax: /^个人所得税$/, net: /^实发工资$/ },
    { lng: 'en', locale: 'en-US', dark: true, total: /^Total$/, gross: /^Gross/, tax: /tax/i, net: /^Net/ },
  ] as const) {
    it(`月度工资 at 1440 px, ${look.lng}, ${look.dark ? 'dark' : 'light'}: 应发/个税/实发 in view, no 单位名称, exact 合计, a readable locked month`, { timeout: 120_000 }, async () => {
      const page = await h.newPage({ width: 1440, height: 900, locale: look.locale });
      await login(page);
      await setLook(page, look.dark);
      const s = await openSalary(page);
      await screenshot(page, `u5-salary-1440-${look.lng}-${look.dark ? 'dark' : 'light'}`);
      for (const title of [look.gross, look.tax, look.net]) expect(await headerInView(s, title), `${title} in view`).toBe(true);
      expect(await headerIndex(s, /^(单位名称|Company name|Company)$/)).toBe(-1);
      expect(((await s.getByTestId('page-totals-label').textContent()) ?? '').trim()).toMatch(look.total);
      await expectExactTotal(s, look.gross);
      await expectExactTotal(s, look.net);
      // Chinese headers on one line (专项附加扣⏎除, U17); English ones break between words only (headerWidth.ts)
      const heights = await s.locator('.ant-table-thead th').evaluateAll((ths) => ths.map((th) => th.getBoundingClientRect().height));
      if (look.lng === 'zh') expect(Math.max(...heights)).toBeLessThan(75); // two lines at most: 五险一金⏎(个人)
      // the month is confirmed: its rows follow the theme (U4), the fixed action cell included
      const cell = s.locator('tr.salary-row-locked td').nth(2);
      expect(await backgroundLuminance(s.locator('tr.salary-row-locked td').last())).toBeCloseTo(await backgroundLuminance(cell), 2);
      const lum = await backgroundLuminance(cell);
      if (look.dark) expect(lum).toBeLessThan(0.3);
      else expect(lum).toBeGreaterThan(0.8);
    });
  }

  for (const look of [
    { lng: 'zh', locale: 'zh-CN', dark: true },
    { lng: 'en', locale: 'en-US', dark: false },
  ] as const) {
    it(`月度工资 and 工资条 at 390 px, ${look.lng}, ${look.dark ? 'dark' : 'light'}: no fixed column over the others (U8)`, { timeout: 120_000 }, async () => {
      const page = await h.newPage({ width: 390, height: 844, locale: look.locale });
      await login(page);
      await setLook(page, look.dark);
      const s = await openSalary(page);
      await screenshot(page, `u8-salary-390-${look.lng}-${look.dark ? 'dark' : 'light'}`);
      expect(await s.locator('.ant-table-cell-fix-left, .ant-table-cell-fix-right, .ant-table-cell-fix-start, .ant-table-cell-fix-end').count()).toBe(0);
      await page.goto('/acPayslip/index');
      const p = activeScreen(page);
      await p.locator('tr.ant-table-row').first().waitFor({ state: 'visible', timeout: 20_000 });
      await screenshot(page, `u8-payslip-390-${look.lng}-${look.dark ? 'dark' : 'light'}`);
      expect(await p.locator('.ant-table-cell-fix-left, .ant-table-cell-fix-right, .ant-table-cell-fix-start, .ant-table-cell-fix-end').count()).toBe(0);
    });
  }

  it("an employee's own payslips at 390 px: the month and 实发 first, in view (U8)", { timeout: 120_000 }, async () => {
    const page = await h.newPage({ width: 390, height: 844 });
    await loginWithIssuedPassword(page, employee.username, employee.password, 'Biaoge-Own-2026');
    await page.waitForURL((u) => u.pathname === '/acPayslip/index', { timeout: 30_000 });
    const s = activeScreen(page);
    await s.locator('tr.ant-table-row').first().waitFor({ state: 'visible', timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'u8-own-payslips-390');
    const titles = (await s.locator('.ant-table-thead th').allTextContents()).map((t) => t.trim()).filter(Boolean);
    expect(titles.slice(0, 2)).toEqual(['月份', '实发']);
    expect(await headerInView(s, /^实发$/)).toBe(true);
    expect(((await s.locator('tr.ant-table-row').first().textContent()) ?? '')).toContain('7,285.09');
  });

  it('工资条 at 1440 px: 实发 in view beside the action column, exact 合计 (U5)', { timeout: 120_000 }, async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    await page.goto('/acPayslip/index');
    const s = activeScreen(page);
    await s.locator('tr.ant-table-row').first().waitFor({ state: 'visible', timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'u5-payslip-1440');
    for (const title of [/^本期应发$/, /^应纳税额$/, /^实发$/]) expect(await headerInView(s, title), `${title} in view`).toBe(true);
    await expectExactTotal(s, /^本期应发$/);
    await expectExactTotal(s, /^实发$/);
  });

  it('en: dictionary values in English (U26); zh: enabled jobs read 启用 (U12)', { timeout: 120_000 }, async () => {
    const page = await h.newPage({ width: 1440, height: 900, locale: 'en-US' });
    await login(page);
    await page.goto('/accounts/staff');
    const s = activeScreen(page);
    await s.locator('tr.ant-table-row', { hasText: '表格甲' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'u26-staff-en');
    const row = (await s.locator('tr.ant-table-row', { hasText: '表格甲' }).first().textContent()) ?? '';
    expect(row).toContain('Employed');
    expect(row).not.toContain('在职');
    const zh = await h.newPage({ width: 1440, height: 900 });
    await login(zh);
    await zh.goto('/tools/timing');
    const jobs = activeScreen(zh);
    await jobs.locator('tr.ant-table-row').first().waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(zh, 'u12-jobs-zh');
    expect((await jobs.locator('.ant-table-tbody').textContent()) ?? '').not.toContain('运行中');
    // U19: the tools screens' search is a labelled filter row like the CRUD screens'
    expect(((await jobs.locator('.crud-search .crud-search-label').first().textContent()) ?? '').trim()).toBe('任务名称');
    expect(await jobs.locator('.crud-toolbar').count()).toBe(1);
  });

  it('identity columns have a width, the first filter is a name (U3, U22)', { timeout: 120_000 }, async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    for (const [path, testId, title] of [
      ['/salary/taxOpening', 'crud-page-taxOpening', /^姓名$/],
      ['/records/accSalary', 'crud-page-accSalary', /^姓名$/],
    ] as const) {
      await page.goto(path);
      const s = activeScreen(page);
      await s.getByTestId(testId).waitFor({ state: 'visible', timeout: 20_000 });
      await page.waitForLoadState('networkidle');
      const i = await headerIndex(s, title);
      expect(i, `${path} has 姓名`).toBeGreaterThanOrEqual(0);
      const width = await s.locator('.ant-table-thead th').nth(i).evaluate((th) => th.getBoundingClientRect().width);
      expect(width, `${path} 姓名 width`).toBeGreaterThanOrEqual(80);
      await screenshot(page, `u3-${testId}`);
    }
    await page.goto('/accounts/company');
    const company = activeScreen(page);
    await company.getByTestId('crud-page-accountsCompany').waitFor({ state: 'visible', timeout: 20_000 });
    expect(((await company.locator('.crud-search-label').first().textContent()) ?? '').trim()).toBe('单位名称');
    await page.goto('/accounts/staffExtra');
    const extra = activeScreen(page);
    await extra.getByTestId('crud-page-accountsStaffExtra').waitFor({ state: 'visible', timeout: 20_000 });
    await expect.poll(() => extra.locator('.crud-search .ant-select').first().textContent()).toContain('员工姓名');
    await screenshot(page, 'u22-staff-extra');
  });
});
