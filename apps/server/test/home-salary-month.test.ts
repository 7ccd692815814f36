import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chinaToday } from '../src/modules/dispatch/lookups.ts';
import { adminToken, createCompany, scopedUser } from './dispatch-fixtures.ts';
import { createTestApp, TEST_DB, type TestApp } from './helpers.ts';
import { api, nextIdCard, type Api } from './payroll-fixtures.ts';

/**
 * The clerk's month on the home screen (U10, M7): every visible company's salary state for a month (未生成,
 * 已生成, 已计算, 已确认) and the month's payroll work in counts; data scope and the salary codes apply.
 */
let t: TestApp;
let admin: Api;
let clerk: Api;
let noSalary: Api;
const company: Record<string, number> = {};
const thisMonth = chinaToday().slice(0, 7);

async function salaryMonth(companyId: number, month: string, rows: number, calculated: number) {
  for (let i = 0; i < rows; i++) {
    await t.app.ctx.db
      .insertInto('accounts_salary')
      .values({ company_id: companyId, company_name: `单位${companyId}`, month, id_card: nextIdCard(), staff_name: `员工${i}`, calc_state: i < calculated ? 1 : 0, tag: 0 } as never)
      .execute();
  }
}
async function confirmMonth(companyId: number, month: string) {
  await t.app.ctx.db.insertInto('accounts_confirm_log').values({ company_id: companyId, month, row_count: 3, username: 'admin', create_time: new Date().toISOString() } as never).execute();
}

beforeAll(async () => {
  t = await createTestApp();
  const token = await adminToken(t.app);
  admin = api(t.app, token);
  for (const name of ['A', 'B', 'C', 'D']) company[name] = (await createCompany(t.app, token, { companyName: `月度状态${name}${Date.now().toString(36)}` })).id;
  // this month: A confirmed (3 rows), B calculated (2 of 2), C generated (1 of 4), D nothing
  await salaryMonth(company.A, thisMonth, 3, 3);
  await confirmMonth(company.A, thisMonth);
  await salaryMonth(company.B, thisMonth, 2, 2);
  await salaryMonth(company.C, thisMonth, 4, 1);
  // another month, to show the month parameter
  await salaryMonth(company.D, '2025-09', 5, 5);
  const scoped = await scopedUser(t.app, { username: `monthclerk${Date.now().toString(36)}`, codes: ['ACCOUNTSSALARY_SELECT'], dataScope: '本级' });
  await t.app.ctx.db.updateTable('accounts_company').set({ dept_id: scoped.deptId }).where('id', 'in', [company.C, company.D]).execute();
  clerk = api(t.app, scoped.token);
  noSalary = api(t.app, (await scopedUser(t.app, { username: `monthstaff${Date.now().toString(36)}`, codes: ['ACCOUNTSSTAFF_SELECT'], dataScope: '全部' })).token);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const states = (body: { companies: { companyId: number; state: string }[] }) => Object.fromEntries(body.companies.map((c) => [c.companyId, c.state]));

describe(`the clerk's salary month on the home screen (${TEST_DB})`, () => {
  it('gives every visible company its state for the current month (China time), with the month’s work', async () => {
    const r = await admin('GET', '/api/home/salaryMonth');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.month).toBe(thisMonth);
    expect(states(r.body)).toEqual({ [company.A]: 'confirmed', [company.B]: 'calculated', [company.C]: 'generated', [company.D]: 'notGenerated' });
    expect(r.body.companies.find((c: { companyId: number }) => c.companyId === company.C)).toMatchObject({ rows: 4, calculated: 1 });
    expect(r.body.counts).toEqual({ notGenerated: 1, generated: 1, calculated: 1, confirmed: 1 });
    expect(r.body.work).toEqual({ rowsCalculated: 6, rowsConfirmed: 3, filesExported: 0 });
  });

  it('counts the payroll files the caller exported this month', async () => {
    const report = await admin('POST', `/api/export/accountsSalary`, { companyId: company.A, month: thisMonth });
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    // the operation log (which the count reads) is written after the answer is out (core/plugins/audit.ts): on a
    // pooled database the next request can come first, so the count is asked until the row is there
    let exported = 0;
    for (let tries = 0; tries < 40 && exported === 0; tries++) {
      if (tries) await new Promise((r) => setTimeout(r, 50));
      exported = (await admin('GET', '/api/home/salaryMonth')).body.work.filesExported;
    }
    expect(exported).toBe(1);
    // another month's work is not this month's
    expect((await admin('GET', '/api/home/salaryMonth?month=2025-09')).body.work).toEqual({ rowsCalculated: 5, rowsConfirmed: 0, filesExported: 0 });
  });

  it('takes another month, keeps to the data scope, needs the salary codes and refuses a bad month', async () => {
    const past = await admin('GET', '/api/home/salaryMonth?month=2025-09');
    expect(states(past.body)).toEqual({ [company.A]: 'notGenerated', [company.B]: 'notGenerated', [company.C]: 'notGenerated', [company.D]: 'calculated' });
    const mine = await clerk('GET', '/api/home/salaryMonth');
    expect(states(mine.body)).toEqual({ [company.C]: 'generated', [company.D]: 'notGenerated' });
    expect((await noSalary('GET', '/api/home/salaryMonth')).status).toBe(403);
    const bad = await admin('GET', '/api/home/salaryMonth?month=2025-13');
    expect(bad.status).toBe(400);
  });
});
