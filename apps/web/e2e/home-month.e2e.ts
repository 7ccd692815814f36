import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chinaToday } from '../../server/src/modules/dispatch/lookups.ts';
import { activeScreen, type Harness, login, SCREENSHOT_DIR, screenshot, startHarness } from './harness';

/**
 * The clerk's home screen (U10): the first 1440×900 screen leads with this month's salary state of every
 * company (two companies in different states here), a company opens 月度工资 on that company and month, and
 * the statistics below read in 条, not 0.00 万条.
 */
describe("the clerk's home screen", () => {
  let h: Harness;
  const month = chinaToday().slice(0, 7);
  const companies: Record<string, number> = {};

  beforeAll(async () => {
    h = await startHarness();
    const { companyBody, idCard } = await import('../../server/test/dispatch-fixtures.ts');
    const { adminToken } = await import('../../server/test/dispatch-fixtures.ts');
    const token = await adminToken(h.app);
    for (const name of ['东方物业', '华北制造']) {
      const res = await h.app.inject({ method: 'POST', url: '/api/accountsCompany', headers: { authorization: `Bearer ${token}` }, payload: companyBody({ companyName: name }) });
      companies[name] = res.json().id;
    }
    // 华北制造: this month generated and calculated (5 rows), not confirmed; 东方物业: nothing yet
    for (let i = 0; i < 5; i++) {
      await h.app.ctx.db
        .insertInto('accounts_salary')
        .values({ company_id: companies['华北制造'], company_name: '华北制造', month, staff_name: `员工${i}`, id_card: idCard('1985-01-01', 700 + i * 2), calc_state: 1, tag: 0 } as never)
        .execute();
    }
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('leads with each company’s salary state this month and opens 月度工资 on one company and month', async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await login(page);
    await page.goto('/dashboard');
    const s = activeScreen(page);
    const card = s.getByTestId('home-salary-month');
    await card.waitFor({ state: 'visible', timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    await expect.poll(() => card.locator('tr.ant-table-row').count()).toBe(2);
    expect(await card.textContent()).toContain(`本月工资（${month}）`);
    expect(await s.getByTestId(`home-month-state-${companies['东方物业']}`).textContent()).toBe('未生成');
    expect(await s.getByTestId(`home-month-state-${companies['华北制造']}`).textContent()).toBe('已计算');
    // the company with nothing done comes first
    expect(await card.locator('tr.ant-table-row').first().textContent()).toContain('东方物业');
    expect(await card.locator('tr.ant-table-row', { hasText: '华北制造' }).textContent()).toContain('已计算 5 / 5 人');
    // on the first screen: the card starts above the fold, before the action lists and the statistics
    const box = await card.boundingBox();
    expect(box!.y).toBeLessThan(300);
    const work = s.getByTestId('home-payroll-work');
    await expect.poll(async () => (await work.getByTestId('home-work-calculated').textContent()) ?? '').toContain('5条');
    expect((await s.getByTestId('home-actions').boundingBox())!.y).toBeGreaterThan(box!.y);
    expect((await work.boundingBox())!.y).toBeGreaterThan((await s.getByTestId('home-actions').boundingBox())!.y);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'home-month-first-screen.png') });
    await screenshot(page, 'home-month-full');

    await s.getByTestId(`home-month-open-${companies['华北制造']}`).click();
    await page.waitForURL(/\/salary\/accountsSalary\?companyId=\d+&month=/);
    const salary = activeScreen(page);
    const select = salary.getByTestId('salary-company');
    await select.waitFor({ state: 'visible', timeout: 15_000 });
    await expect.poll(async () => (await select.textContent()) ?? '').toContain('华北制造');
    await expect.poll(() => salary.locator('tr.ant-table-row').count(), { timeout: 10_000 }).toBe(5);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'home-month-opened-salary.png') });
  });
});
