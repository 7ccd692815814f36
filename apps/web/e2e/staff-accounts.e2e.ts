import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../server/src/core/auth/tokens.ts';
import { activeScreen, type Harness, login, loginWithIssuedPassword, openDialog, screenshot, startLoggedIn, withoutFavicon } from './harness';

/**
 * 为员工开通账号 (issue 13) in a real browser: check two staff rows (one already has a login), confirm, read the
 * one-time password from the result dialog, and log in with it as the ordinary employee, who lands on his
 * own payslips.
 */

const OK = /确\s*定/;

describe('staff accounts', () => {
  let h: Harness;
  let page: Page;
  let cards: string[];

  beforeAll(async () => {
    ({ h, page } = await startLoggedIn());
    const admin = await h.app.ctx.db.selectFrom('sys_user').select(['id', 'token_version']).where('username', '=', 'admin').executeTakeFirstOrThrow();
    const { token } = signToken(h.app.ctx.keys.tokenSecret, Number(admin.id), Number(admin.token_version), 3600);
    const call = async (url: string, payload: object) => {
      const res = await h.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload });
      if (res.statusCode >= 300) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    const { companyBody, staffBody, idCard } = await import('../../server/test/dispatch-fixtures.ts');
    const company = await call('/api/accountsCompany', companyBody({ companyName: '开通账号测试单位' }));
    cards = [idCard('1990-05-06', 101), idCard('1991-07-08', 103)];
    await call('/api/accountsStaff', staffBody(company.id, { staffName: '周一', idCard: cards[0] }));
    await call('/api/accountsStaff', staffBody(company.id, { staffName: '吴二', idCard: cards[1] }));
    // 吴二 already has a login: skipped with its reason
    const role = await h.app.ctx.db.selectFrom('sys_role').select('id').where('name', '=', '普通员工').executeTakeFirstOrThrow();
    await call('/api/users', { username: cards[1], cname: '吴二', email: 'wu2@example.com', phone: '13800001111', enabled: true, dept: { id: 1 }, job: { id: 1 }, roles: [{ id: role.id }] });
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  it('opens logins for the checked rows and the employee logs in with the shown password', async () => {
    await page.goto('/accounts/staff');
    const s = activeScreen(page);
    await s.getByTestId('accounts-staff-page').first().waitFor({ state: 'visible', timeout: 15_000 });
    await expect.poll(() => s.locator('tr.ant-table-row').count(), { timeout: 15_000 }).toBe(2);
    const batch = s.getByTestId('staff-accounts-batch');
    expect(await batch.isDisabled()).toBe(true);

    for (const name of ['周一', '吴二']) await s.locator('tr.ant-table-row', { hasText: name }).locator('.ant-checkbox-input').check();
    await expect.poll(() => batch.isDisabled()).toBe(false);
    await batch.click();
    const pop = page.locator('.ant-popconfirm:visible');
    await expect.poll(() => pop.textContent()).toContain('确定为选中的 2 名员工开通登录账号吗？');
    await screenshot(page, 'staff-accounts-confirm');
    await pop.getByRole('button', { name: OK }).click();

    const dialog = openDialog(page);
    await dialog.getByTestId('staff-accounts-result').waitFor({ state: 'visible', timeout: 15_000 });
    expect(await dialog.getByTestId('staff-accounts-summary').textContent()).toBe('已开通1个账号，跳过1人');
    const created = dialog.getByTestId('staff-accounts-created').locator('tr.ant-table-row');
    expect(await created.count()).toBe(1);
    expect(await created.first().textContent()).toContain(cards[0]);
    const password = ((await created.first().locator('code').textContent()) ?? '').trim();
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(await dialog.getByTestId('staff-accounts-skipped').textContent()).toContain('账号已存在');
    await screenshot(page, 'staff-accounts-result');
    await dialog.getByTestId('staff-accounts-close').click();
    await expect.poll(() => page.getByText(password).count()).toBe(0);
    expect(withoutFavicon(h.errorsOf(page).console)).toEqual([]);

    // the new employee logs in and lands on his payslips (the ordinary employee's home)
    const employee = await h.newPage({ width: 1440, height: 900 });
    // the one-time password opens only the change-password dialog until the employee chose his own (U23)
    await loginWithIssuedPassword(employee, cards[0], password, 'Employee-Own-1');
    await expect.poll(() => new URL(employee.url()).pathname, { timeout: 15_000 }).toBe('/acPayslip/index');
    // no payslips yet: the page says so (and has no 生成工资条 of a clerk)
    await activeScreen(employee).getByTestId('payslip-empty').waitFor({ state: 'visible', timeout: 15_000 });
    expect(await activeScreen(employee).getByTestId('payslip-generate').count()).toBe(0);
    expect(withoutFavicon(h.errorsOf(employee).console)).toEqual([]);
    await screenshot(employee, 'staff-accounts-employee-home');
  });
});
