import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chinaToday } from '../src/modules/dispatch/lookups.ts';
import { addDays } from '../src/modules/home/actions.ts';
import { adminToken, createCompany, createStaff, scopedUser } from './dispatch-fixtures.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { api, nextIdCard, type Api } from './payroll-fixtures.ts';

/**
 * The home screen's action lists (W4): contracts due and unconfirmed salary months across every company the
 * caller sees, not one chosen company; a user with a department data scope sees only their companies.
 */
let t: TestApp;
let admin: Api;
let clerk: Api;
let noSalary: Api;
const today = chinaToday();
const ids: Record<string, number> = {};
const company: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const token = await adminToken(t.app);
  admin = api(t.app, token);
  for (const name of ['A', 'B', 'C']) company[name] = (await createCompany(t.app, token, { companyName: `首页测试单位${name}${Date.now().toString(36)}` })).id;
  const staff = async (key: string, companyKey: string, over: Record<string, unknown>) => {
    ids[key] = (await createStaff(t.app, token, company[companyKey], { staffName: key, idCard: nextIdCard(), ...over })).id;
  };
  // A1's reminder date is later than the usual 30 days before the end: only the horizon brings it in
  await staff('A1', 'A', { contractEnd: addDays(today, 10), contractWarn: addDays(today, 7) });
  await staff('A2', 'A', { contractEnd: addDays(today, 100) });
  await staff('A3', 'A', { contractEnd: addDays(today, -5) });
  await staff('A4', 'A', { contractEnd: addDays(today, 5), jobState: '离职', leaveDate: addDays(today, -1) });
  await staff('B1', 'B', { contractEnd: addDays(today, 20) });
  await staff('B2', 'B', { contractEnd: addDays(today, 3), contractState: '已解除' });
  await staff('B3', 'B', { contractEnd: addDays(today, 200), contractWarn: addDays(today, -1) });
  // marked 已提醒 (by the reminder job or by hand) although both dates are still ahead
  await staff('B4', 'B', { contractEnd: addDays(today, 90), contractWarn: addDays(today, 60), contractWarnState: '已提醒' });
  await staff('C1', 'C', { contractEnd: addDays(today, 1) });

  // company C belongs to the clerk's department; the clerk's role sees its own department only
  const scoped = await scopedUser(t.app, { username: `homeclerk${Date.now().toString(36)}`, codes: ['ACCOUNTSSTAFF_SELECT', 'ACCOUNTSSALARY_SELECT'], dataScope: '本级' });
  await t.app.ctx.db.updateTable('accounts_company').set({ dept_id: scoped.deptId }).where('id', '=', company.C).execute();
  clerk = api(t.app, scoped.token);
  noSalary = api(t.app, (await scopedUser(t.app, { username: `homestaff${Date.now().toString(36)}`, codes: ['ACCOUNTSSTAFF_SELECT'], dataScope: '全部' })).token);

  // Salary months, written as the salary flow leaves them (rows with calc_state, a confirm-log row per
  // confirmed month): A 2025-09 generated only, A 2025-10 confirmed, B 2025-09 calculated, C 2025-10 generated.
  await salaryMonth(company.A, '2025-09', 3, 0);
  await salaryMonth(company.A, '2025-10', 3, 3);
  await confirmMonth(company.A, '2025-10');
  await salaryMonth(company.B, '2025-09', 2, 2);
  await salaryMonth(company.C, '2025-10', 4, 1);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

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

const names = (body: { content: { staffName: string }[] }) => body.content.map((r) => r.staffName);

describe('contracts due on the home screen', () => {
  it('lists every visible company: due soon, reminder date reached and expired without renewal, soonest first', async () => {
    const r = await admin('GET', '/api/home/contractsDue?size=50');
    expect(r.status).toBe(200);
    // companies of other tests do not exist here (fresh database): the figures are exact
    expect(names(r.body)).toEqual(['A3', 'C1', 'A1', 'B1', 'B4', 'B3']);
    expect(r.body.totalElements).toBe(6);
    expect(r.body.expired).toBe(1);
    expect(r.body.withinDays).toBe(30);
    expect(r.body.content.map((x: { daysLeft: number }) => x.daysLeft)).toEqual([-5, 1, 10, 20, 90, 200]);
    expect(r.body.byCompany).toEqual([
      { companyId: company.B, companyName: expect.stringContaining('首页测试单位B'), count: 3 },
      { companyId: company.A, companyName: expect.stringContaining('首页测试单位A'), count: 2 },
      { companyId: company.C, companyName: expect.stringContaining('首页测试单位C'), count: 1 },
    ]);
  });

  it('pages, filters by company and by horizon', async () => {
    const page = await admin('GET', '/api/home/contractsDue?size=2&page=1');
    expect(names(page.body)).toEqual(['A1', 'B1']);
    expect(page.body.totalElements).toBe(6);
    expect(names((await admin('GET', `/api/home/contractsDue?companyId=${company.B}`)).body)).toEqual(['B1', 'B4', 'B3']);
    // within 0 days: the expired one, those whose reminder date has come (by default 30 days before the end) and B4
    const none = await admin('GET', '/api/home/contractsDue?withinDays=0');
    expect(names(none.body)).toEqual(['A3', 'C1', 'B1', 'B4', 'B3']);
    const wide = await admin('GET', '/api/home/contractsDue?withinDays=120&size=50');
    expect(names(wide.body)).toEqual(['A3', 'C1', 'A1', 'B1', 'B4', 'A2', 'B3']);
    for (const bad of ['withinDays=-1', 'withinDays=abc', 'withinDays=400', 'companyId=x', 'page=-1', 'size=0']) {
      const res = await admin('GET', `/api/home/contractsDue?${bad}`);
      expect(res.status, bad).toBe(400);
    }
  });

  it("keeps to the caller's data scope", async () => {
    const r = await clerk('GET', '/api/home/contractsDue');
    expect(r.status).toBe(200);
    expect(names(r.body)).toEqual(['C1']);
    expect(r.body.byCompany).toEqual([{ companyId: company.C, companyName: expect.any(String), count: 1 }]);
    expect((await clerk('GET', `/api/home/contractsDue?companyId=${company.A}`)).body.totalElements).toBe(0);
  });
});

describe('unconfirmed salary months on the home screen', () => {
  it('lists generated months not confirmed, per company, oldest first, with the next step', async () => {
    const r = await admin('GET', '/api/home/unconfirmedSalaryMonths');
    expect(r.status).toBe(200);
    expect(r.body.content).toEqual([
      { companyId: company.A, companyName: `单位${company.A}`, month: '2025-09', rows: 3, calculated: 0, nextStep: 'calculate' },
      { companyId: company.B, companyName: `单位${company.B}`, month: '2025-09', rows: 2, calculated: 2, nextStep: 'confirm' },
      { companyId: company.C, companyName: `单位${company.C}`, month: '2025-10', rows: 4, calculated: 1, nextStep: 'calculate' },
    ]);
    expect(r.body.totalElements).toBe(3);
    const second = await admin('GET', '/api/home/unconfirmedSalaryMonths?size=1&page=1');
    expect(second.body.content.map((x: { companyId: number }) => x.companyId)).toEqual([company.B]);
    expect(second.body.totalElements).toBe(3);
  });

  it('drops a month once confirmed, keeps to the data scope and needs the salary codes', async () => {
    await confirmMonth(company.B, '2025-09');
    const after = await admin('GET', '/api/home/unconfirmedSalaryMonths');
    expect(after.body.content.map((x: { companyId: number; month: string }) => `${x.companyId}/${x.month}`)).toEqual([`${company.A}/2025-09`, `${company.C}/2025-10`]);
    const mine = await clerk('GET', '/api/home/unconfirmedSalaryMonths');
    expect(mine.body.content.map((x: { companyId: number }) => x.companyId)).toEqual([company.C]);
    expect((await noSalary('GET', '/api/home/unconfirmedSalaryMonths')).status).toBe(403);
    expect((await noSalary('GET', '/api/home/contractsDue')).status).toBe(200);
  });
});
