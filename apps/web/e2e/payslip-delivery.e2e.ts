import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choose, expectNotice, type Harness, login, openDialog, openDialogBy, openScreen, screenshot, startLoggedIn, tableRow, typeDate, withoutFavicon } from './harness';

/**
 * 工资条发放 (issue 24 item 1) in a real browser: the clerk publishes a confirmed month from the delivery screen, one
 * employee opens his slip and confirms it, another objects with a text, and the clerk reads the counts and the
 * objection and answers it.
 */
const OK = /确\s*定/;
const MONTH = '2026-03';

describe('payslip delivery', () => {
  let h: Harness;
  let page: Page;
  const cards: string[] = [];
  let companyId = 0;

  beforeAll(async () => {
    ({ h, page } = await startLoggedIn());
    const { adminToken, companyBody, staffBody, idCard } = await import('../../server/test/dispatch-fixtures.ts');
    const { createUser, FIXTURE_PASSWORD } = await import('../../server/test/system-fixtures.ts');
    const token = await adminToken(h.app);
    const call = async (method: 'POST' | 'PUT', url: string, payload: object) => {
      const res = await h.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, payload });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.body ? res.json() : null;
    };
    const company = await call('POST', '/api/accountsCompany', companyBody({ companyName: '发放测试单位' }));
    companyId = company.id;
    cards.push(idCard('1990-02-03', 201), idCard('1991-04-05', 203));
    await call('POST', '/api/accountsStaff', staffBody(company.id, { staffName: '钱一', idCard: cards[0] }));
    await call('POST', '/api/accountsStaff', staffBody(company.id, { staffName: '孙二', idCard: cards[1] }));
    await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month: MONTH });
    await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month: MONTH });
    await call('POST', '/api/accountsSalary/confirm', { companyId: company.id, month: MONTH, companyName: 'x', acknowledgeWarnings: true });
    await call('POST', '/api/acPayslip/generate', { companyId: company.id, month: MONTH });
    const db = h.app.ctx.db;
    const role = await db.selectFrom('sys_role').select('id').where('name', '=', '普通员工').executeTakeFirstOrThrow();
    const job = await db.selectFrom('sys_job').select('id').where('name', '=', '普通员工').executeTakeFirstOrThrow();
    for (const card of cards) await createUser({ app: h.app } as never, { username: card, roleIds: [Number(role.id)], jobId: Number(job.id) });
    expect(FIXTURE_PASSWORD).toBeTruthy();
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  const employeePage = async (card: string) => {
    const { FIXTURE_PASSWORD } = await import('../../server/test/system-fixtures.ts');
    const p = await h.newPage({ width: 1440, height: 900 });
    await login(p, card, FIXTURE_PASSWORD);
    // a loaded 2-core machine can take a while for the first screen of a new session
    await p.getByTestId('my-receipts').waitFor({ state: 'visible', timeout: 45_000 });
    return p;
  };

  it('the clerk publishes, one employee confirms, another objects, the clerk reads and answers the objection', async () => {
    // the run's retry starts again from the month unpublished (a first try may have published before it failed)
    const { PUBLICATIONS, RECEIPTS } = await import('../../server/src/modules/payroll/payslipDelivery.ts');
    await h.app.ctx.db.deleteFrom(RECEIPTS).where('company_id', '=', companyId).execute();
    await h.app.ctx.db.deleteFrom(PUBLICATIONS).where('company_id', '=', companyId).execute();
    const s = await openScreen(page, '/salary/payslipDelivery', 'payslip-delivery-page');
    const dialog = await openDialogBy(page, s.getByTestId('delivery-publish'), 'publish-month');
    await choose(page, dialog.getByTestId('publish-company'), '发放测试单位');
    // the month picker takes a typed month (its test id sits on the input)
    await typeDate(dialog.getByTestId('publish-month'), MONTH);
    await screenshot(page, 'payslip-delivery-publish');
    await dialog.getByTestId('publish-ok').click();
    await expectNotice(page, '已发布，通知 2 人');
    await expect.poll(() => s.locator('tr.ant-table-row').count(), { timeout: 15_000 }).toBe(1);

    // 钱一 opens his slip and confirms it
    const one = await employeePage(cards[0]);
    const mine = one.getByTestId('my-receipts');
    expect(await mine.getByTestId('receipt-state').textContent()).toBe('已发布');
    await screenshot(one, 'payslip-delivery-employee');
    await mine.getByTestId('receipt-view').click();
    await openDialog(one).waitFor({ state: 'visible' });
    await expect.poll(() => openDialog(one).textContent()).toContain('钱一');
    await screenshot(one, 'payslip-delivery-employee-slip');
    await one.keyboard.press('Escape');
    await expect.poll(() => mine.getByTestId('receipt-state').textContent()).toBe('已查看');
    await mine.getByTestId('receipt-confirm').click();
    await one.locator('.ant-popconfirm:visible').getByRole('button', { name: OK }).click();
    await expect.poll(() => mine.getByTestId('receipt-state').textContent(), { timeout: 10_000 }).toBe('已确认');
    expect(await mine.getByTestId('receipt-confirm').count()).toBe(0);
    await screenshot(one, 'payslip-delivery-employee-confirmed');
    expect(withoutFavicon(h.errorsOf(one).console)).toEqual([]);

    // 孙二 objects
    const two = await employeePage(cards[1]);
    const his = two.getByTestId('my-receipts');
    const objection = await openDialogBy(two, his.getByTestId('receipt-object'), 'object-text');
    await objection.getByTestId('object-text').fill('加班8小时没有算');
    await screenshot(two, 'payslip-delivery-employee-object');
    await objection.getByTestId('object-ok').click();
    await expect.poll(() => his.getByTestId('receipt-state').textContent(), { timeout: 10_000 }).toBe('有异议');
    expect(withoutFavicon(h.errorsOf(two).console)).toEqual([]);

    // the clerk: counts per state, the objection to answer
    await s.getByTestId('delivery-search').click();
    const row = tableRow(s, '发放测试单位');
    await expect.poll(() => row.getByTestId('count-confirmed').textContent(), { timeout: 10_000 }).toBe('1');
    expect(await row.getByTestId('count-objected').textContent()).toBe('1');
    expect(await row.getByTestId('count-published').textContent()).toBe('0');
    await screenshot(page, 'payslip-delivery-list');
    await row.getByTestId('delivery-detail').click();
    const drawer = page.locator('.ant-drawer-open');
    await expect.poll(() => drawer.getByTestId('objection-text').first().textContent(), { timeout: 10_000 }).toBe('加班8小时没有算');
    const reply = await openDialogBy(page, drawer.getByTestId('objection-reply'), 'reply-text');
    await reply.getByTestId('reply-text').fill('已核实，下月补发加班费');
    await reply.getByTestId('reply-ok').click();
    await expectNotice(page, '已答复');
    await expect.poll(() => drawer.getByTestId('objection-table').textContent(), { timeout: 10_000 }).toContain('已核实，下月补发加班费');
    await screenshot(page, 'payslip-delivery-detail');
    expect(withoutFavicon(h.errorsOf(page).console)).toEqual([]);

    // the employee reads the answer
    await two.reload();
    await expect.poll(() => two.getByTestId('receipt-reply').textContent(), { timeout: 15_000 }).toContain('已核实');
  }, 400_000);
});
