import { idCardCheckDigit } from '@app/shared/idcard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeScreen, choose, clearNotices, expectNotice, type Harness, login, loginWithIssuedPassword, openScreen, staffBody, screenshot, startHarness, tableRow, withoutFavicon } from './harness';

/**
 * The payroll screens in a real browser against the real server: a company and two staff (made through the
 * API), the monthly salary flow (generate, inline overtime edit, calculate, confirm, lock), the Excel report,
 * payslip generation, and an ordinary employee who sees only their own payslip and its printable sheet.
 */

const OK = /确\s*定/;
type Json = Record<string, any>;

/** An 18-digit ID card with a correct check character (GB 11643). */
const idCard = (first17: string): string => first17 + idCardCheckDigit(first17);


describe('payroll screens', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('runs a month from generation to the payslip of an ordinary employee', { timeout: 240_000 }, async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    // the session token sits in an HttpOnly cookie (S6): out of the page's reach, not of the test's
    const token = (await page.context().cookies()).find((c) => c.name === 'dp_session')?.value;
    expect(token).toBeTruthy();
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

    // ---- a company and two staff through the API ----
    const now = new Date(Date.now() + 8 * 3600_000);
    const month = now.toISOString().slice(0, 7);
    expect(month >= '2025-07').toBe(true);
    const companyName = 'E2E薪资单位';
    const company = await call('POST', '/api/accountsCompany', {
      companyName,
      serviceType: '劳务派遣',
      feeType: '按人头',
      fee: 100,
      disabledPay: 0,
      dispatchCompany: '北京华派人力资源有限公司',
      contact: '王经理',
      phone: '010-88886666',
      email: 'hr@example.com',
      gjjBase: 8000,
      yanglaoBase: 7162,
      yilaoBase: 7162,
      yilaoBaseSelf: 7162,
      shiyeBase: 7162,
      gongshangBase: 7162,
      shengyuBase: 7162,
    });
    const cardA = idCard('11010119900307211');
    const cardB = idCard('11010119880517313');
    await call('POST', '/api/accountsStaff', staffBody(company.id, '薪资甲', cardA, 9000));
    await call('POST', '/api/accountsStaff', staffBody(company.id, '薪资乙', cardB, 12000));

    // ---- monthly salary: generate ----
    let s = await openScreen(page, '/salary/accountsSalary', 'salary-page');
    await choose(page, s.getByTestId('salary-company'), companyName);
    await page.waitForLoadState('networkidle');
    expect(await s.getByTestId('salary-confirm').isDisabled()).toBe(true);
    await s.getByTestId('salary-generate').click();
    await expectNotice(page, '生成成功', 15_000);
    await expect.poll(() => tableRow(s, '薪资甲').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await tableRow(s, '薪资乙').isVisible()).toBe(true);
    await clearNotices(page);

    // ---- inline edit of overtime and deduction ----
    const a = tableRow(s, '薪资甲');
    await a.getByTestId('salary-edit').click();
    await a.locator('input[data-testid="salary-input-jiaban"], [data-testid="salary-input-jiaban"] input').first().fill('300');
    await a.locator('input[data-testid="salary-input-koukuan"], [data-testid="salary-input-koukuan"] input').first().fill('50.5');
    await screenshot(page, 'salary-inline-edit');
    await a.getByTestId('salary-save').click();
    await expectNotice(page, '修改成功', 15_000);
    await expect.poll(() => tableRow(s, '薪资甲').textContent(), { timeout: 10_000 }).toContain('300.00');
    expect(await tableRow(s, '薪资甲').textContent()).toContain('50.50');
    await clearNotices(page);

    // ---- generate again: asked first, the hand edit is kept (P5) ----
    await s.getByTestId('salary-generate').click();
    const ask = page.locator('.ant-modal-confirm:visible').last();
    await expect.poll(() => ask.textContent(), { timeout: 10_000 }).toContain('1 条人工修改的加班费/扣款');
    await page.waitForTimeout(500); // the dialog's opening animation
    await screenshot(page, 'salary-regenerate-confirm');
    await ask.getByRole('button', { name: OK }).click();
    await expectNotice(page, '保留人工修改1条', 15_000);
    await expect.poll(() => tableRow(s, '薪资甲').textContent(), { timeout: 10_000 }).toContain('300.00');
    expect(await tableRow(s, '薪资甲').textContent()).toContain('50.50');
    await clearNotices(page);

    // ---- calculate ----
    await s.getByTestId('salary-calculate').click();
    await expectNotice(page, '计算成功', 15_000);
    await page.waitForLoadState('networkidle');
    await clearNotices(page);
    // U2: both were employed since 2024, so January to last month are months without salary here; the warning
    // stays above the table (not a 2.5 s toast), tags the rows, and is still there after a reload
    const openAlert = s.getByTestId('salary-open-alert');
    await openAlert.waitFor({ timeout: 10_000 });
    const unrecorded = Number(month.slice(5, 7)) - 1;
    if (unrecorded > 0) {
      expect(await openAlert.textContent()).toContain('本月计算有 2 项需要核对');
      expect(await openAlert.textContent()).toContain(`${unrecorded} 个月`);
    }
    expect(await tableRow(s, '薪资甲').getByTestId('salary-row-open-tag').isVisible()).toBe(true);
    await screenshot(page, 'salary-open-items');
    await page.reload();
    s = activeScreen(page);
    await s.getByTestId('salary-page').waitFor({ timeout: 15_000 });
    if (!(await s.getByTestId('salary-company').textContent())?.includes(companyName)) await choose(page, s.getByTestId('salary-company'), companyName);
    await s.getByTestId('salary-open-alert').waitFor({ timeout: 15_000 });
    await expect.poll(() => tableRow(s, '薪资乙').getByTestId('salary-row-open-tag').isVisible(), { timeout: 10_000 }).toBe(true);
    // expanded details: bases and ratios
    await tableRow(s, '薪资甲').locator('.ant-table-row-expand-icon').click();
    const details = s.getByTestId('salary-details').first();
    await expect.poll(() => details.isVisible()).toBe(true);
    expect(await details.textContent()).toContain('养老保险基数');
    await screenshot(page, 'salary-calculated');
    await tableRow(s, '薪资甲').locator('.ant-table-row-expand-icon').click();

    // ---- confirm over the open items: the dialog lists them and 确定 waits for the tick ----
    await s.getByTestId('salary-confirm').click();
    const modal = page.locator('.ant-modal:visible', { has: page.getByTestId('salary-confirm-dialog') }).last();
    await expect.poll(() => modal.getByTestId('salary-confirm-ack').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await modal.textContent()).toContain('我已核对以上 2 项，仍然确认');
    const confirmOk = modal.getByTestId('salary-confirm-ok');
    expect(await confirmOk.isDisabled()).toBe(true);
    await page.waitForTimeout(500); // the dialog's opening animation
    await screenshot(page, 'salary-confirm-open-items');
    await modal.getByTestId('salary-confirm-ack').click();
    await expect.poll(() => confirmOk.isDisabled()).toBe(false);
    await confirmOk.click();
    await expectNotice(page, '确认成功', 15_000);
    await expect.poll(() => s.getByTestId('salary-open-alert').count(), { timeout: 10_000 }).toBe(0);
    const banner = s.getByTestId('salary-lock-banner');
    await banner.waitFor({ timeout: 10_000 });
    expect(await banner.textContent()).toContain('系统管理员');
    expect(await s.getByTestId('salary-calculate').isDisabled()).toBe(true);
    expect(await s.getByTestId('salary-confirm').isDisabled()).toBe(true);
    expect(await s.getByTestId('salary-generate').isDisabled()).toBe(true);
    expect(await tableRow(s, '薪资甲').getByTestId('salary-edit').isDisabled()).toBe(true);
    expect(await tableRow(s, '薪资甲').getByTestId('salary-delete').isDisabled()).toBe(true);
    await clearNotices(page);
    await screenshot(page, 'salary-locked');

    // ---- the Excel report ----
    s = await openScreen(page, '/salary/salaryReport', 'salary-report-page');
    await choose(page, s.getByTestId('report-company'), companyName);
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 20_000 }), s.getByTestId('report-download').click()]);
    expect(download.suggestedFilename()).toBe(`工资报表_${companyName}_${month}.xlsx`);
    await screenshot(page, 'salary-report');

    // ---- payslips generated from the confirmed month ----
    s = await openScreen(page, '/acPayslip/index', 'payslip-page');
    await s.getByTestId('payslip-generate').click();
    const gen = page.locator('.ant-modal:visible').last();
    await choose(page, gen.getByTestId('payslip-generate-company'), companyName);
    await expect.poll(() => gen.locator('.ant-select-content, .ant-select-selector', { hasText: month }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await gen.getByRole('button', { name: OK }).click();
    await expectNotice(page, '生成成功', 15_000);
    await expect.poll(() => tableRow(s, '薪资乙').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await tableRow(s, '薪资甲').isVisible()).toBe(true);
    await clearNotices(page);
    await screenshot(page, 'payslip-admin');
    // the clerk's view of a generated slip: its salary row's lines, 个人所得税 and 专项附加扣除 listed (PB5, U13)
    await tableRow(s, '薪资甲').getByTestId('payslip-view').click();
    const clerkSheet = page.getByTestId('payslip-sheet');
    await clerkSheet.waitFor({ timeout: 10_000 });
    await expect.poll(() => clerkSheet.locator('tr[data-item="deduct"]').count(), { timeout: 10_000 }).toBe(1);
    expect(await clerkSheet.locator('tr[data-item="tax"]').count()).toBe(1);
    expect(await clerkSheet.locator('tr[data-item="jiaban"]').textContent()).toContain('300.00');
    await page.waitForTimeout(400);
    await screenshot(page, 'payslip-clerk-sheet');
    await page.keyboard.press('Escape');
    await clerkSheet.waitFor({ state: 'detached', timeout: 10_000 });
    expect(withoutFavicon(h.errorsOf(page).page)).toEqual([]);
    expect(withoutFavicon(h.errorsOf(page).console)).toEqual([]);

    // ---- an ordinary employee: username = the ID card of 薪资甲 ----
    const jobs = await call('GET', '/api/job?name=普通员工&size=50');
    const job = (jobs.content as Json[]).find((j) => j.name === '普通员工');
    if (!job) throw new Error('the 普通员工 job is missing (seeded by the migrations)');
    const roles = (await call('GET', '/api/roles/all')) as Json[] | Json;
    const role = (Array.isArray(roles) ? roles : roles.content).find((r: Json) => r.name === '普通员工');
    expect(role).toBeTruthy();
    const user = await call('POST', '/api/users', {
      username: cardA,
      cname: '薪资甲',
      email: 'xinzijia@example.com',
      phone: '13912345678',
      enabled: true,
      dept: { id: job.dept?.id ?? job.deptId },
      job: { id: job.id },
      roles: [{ id: role.id }],
    });
    expect(user.defaultPassword).toBeTruthy();

    const emp = await h.newPage({ width: 1280, height: 860 });
    await loginWithIssuedPassword(emp, cardA, user.defaultPassword, 'Xinzi-Jia-2026', 'initial-password-dialog');
    await emp.waitForURL((u) => u.pathname === '/acPayslip/index', { timeout: 15_000 });
    const es = activeScreen(emp);
    await es.getByTestId('payslip-page').waitFor({ timeout: 15_000 });
    await emp.waitForLoadState('networkidle');
    // the employee's own list leads with the month and 实发 (his name is not a column there, U8)
    const ownRow = es.locator('tr.ant-table-row').first();
    await expect.poll(() => ownRow.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await es.locator('tr.ant-table-row').count()).toBe(1);
    expect(await es.getByText('薪资乙').count()).toBe(0);
    expect(await es.getByTestId('crud-filter-name').count()).toBe(0);
    expect(await es.getByTestId('crud-filter-idCard').count()).toBe(0);
    expect(await es.getByTestId('payslip-generate').count()).toBe(0);
    expect(await es.getByTestId('crud-import').count()).toBe(0);
    expect(await es.getByTestId('payslip-export-one').count()).toBe(1);
    expect(await emp.locator('.app-sidebar-menu').getByText('月度工资').count()).toBe(0);
    await screenshot(emp, 'payslip-employee');

    // ---- the printable sheet ----
    await ownRow.getByTestId('payslip-view').click();
    const sheet = emp.getByTestId('payslip-sheet');
    await sheet.waitFor({ timeout: 10_000 });
    await emp.waitForTimeout(400);
    expect(await sheet.textContent()).toContain('薪资甲');
    expect(await sheet.textContent()).toContain('基础工资');
    expect(await emp.getByTestId('payslip-net').textContent()).toMatch(/\d,\d{3}\.\d{2}/);
    await screenshot(emp, 'payslip-print-view');
    await emp.emulateMedia({ media: 'print' });
    await screenshot(emp, 'payslip-print-media');
    await emp.emulateMedia({ media: 'screen' });
    expect(withoutFavicon(h.errorsOf(emp).page)).toEqual([]);
    expect(withoutFavicon(h.errorsOf(emp).console)).toEqual([]);
  });
});
