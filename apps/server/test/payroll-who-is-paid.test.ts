import { describe, expect, it } from 'vitest';
import type { TestApp } from './helpers.ts';
import { createCompany, createStaff } from './dispatch-fixtures.ts';
import { type Api, salaryRows, vectorStaff, withAdminApp } from './payroll-fixtures.ts';

// Finding P2: generate took staff labelled 在职 only. A worker is paid for every month with at least one day
// of employment by dates, whatever the label, and a joiner's or leaver's month is prorated by the company's
// rule. September 2025: 30 days, 22 working days (the 1st is a Monday). Figures worked by hand:
//   leaver, last day 09-15, 8,000/month: calendar 15/30 -> 4,000.00; 21.75 rule 11 working days -> 4,045.98
//   joiner, first day 09-10, 9,000/month: calendar 21/30 -> 6,300.00; 21.75 rule 15 working days -> 6,206.90

let t: TestApp;
let call: Api;
let token: string;

withAdminApp((s) => {
  ({ t, call, token } = s);
});

const MONTH = '2025-09';

/** A company of the given rule with one worker of each case. */
async function companyOfEveryCase(prorationRule: 'calendar' | 'workdays') {
  const company = await createCompany(t.app, token, { prorationRule });
  const add = (name: string, base: number, over: Record<string, unknown>) => createStaff(t.app, token, company.id, vectorStaff(base, { staffName: name, inductionDate: '2025-03-03', ...over }));
  await add('在职全月', 8000, {});
  await add('试用全月', 6000, { jobState: '试用' });
  await add('月中离职', 8000, { jobState: '离职', leaveDate: '2025-09-15' });
  await add('上月离职', 8000, { jobState: '离职', leaveDate: '2025-08-31' });
  await add('月中入职', 9000, { inductionDate: '2025-09-10' });
  await add('下月入职', 9000, { inductionDate: '2025-10-08' });
  await add('离职无日期', 8000, { jobState: '离职' });
  return company;
}

const byName = (rows: Record<string, any>[]) => Object.fromEntries(rows.map((r) => [r.staffName, r]));

describe('P2: who is paid for a month, and for how many days', () => {
  it('the company dialog has the rule: calendar days by default, 21.75 working days on request, nothing else', async () => {
    const c = await createCompany(t.app, token);
    expect(c.prorationRule).toBe('calendar');
    const bad = await call('PUT', '/api/accountsCompany', { ...c, prorationRule: 'weekly' });
    expect(bad.status).toBe(400);
    expect((await call('PUT', '/api/accountsCompany', { ...c, prorationRule: 'workdays' })).status).toBe(204);
    expect((await call('GET', `/api/accountsCompany/${c.id}`)).body.prorationRule).toBe('workdays');
  });

  it('calendar days: probation paid, leaver and joiner prorated, gone and not-yet-hired workers not paid', async () => {
    const company = await companyOfEveryCase('calendar');
    const gen = await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month: MONTH });
    expect(gen).toMatchObject({ status: 200, body: { message: '生成成功，共4条' } });
    const rows = byName(await salaryRows(call, company.id, MONTH));
    expect(Object.keys(rows).sort()).toEqual(['在职全月', '试用全月', '月中离职', '月中入职'].sort());
    expect(rows['在职全月']).toMatchObject({ salary: 8000, fullSalary: 8000, paidDays: null, prorationRule: 'calendar' });
    expect(rows['试用全月']).toMatchObject({ salary: 6000, fullSalary: 6000, paidDays: null });
    expect(rows['月中离职']).toMatchObject({ salary: 4000, fullSalary: 8000, paidDays: 15 });
    expect(rows['月中入职']).toMatchObject({ salary: 6300, fullSalary: 9000, paidDays: 21 });

    // The prorated amount is what is paid: gross = salary (no overtime), net = gross - personal insurance - tax.
    const calc = await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month: MONTH });
    expect(calc.status, JSON.stringify(calc.body)).toBe(200);
    const done = byName(await salaryRows(call, company.id, MONTH));
    expect(done['月中离职']).toMatchObject({ gross: 4000, fiveOne: 1803, tax: 0, realSalary: 2197 });
    expect(done['月中入职'].gross).toBe(6300);
  });

  it('21.75 working days', async () => {
    const company = await companyOfEveryCase('workdays');
    expect((await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month: MONTH })).status).toBe(200);
    const rows = byName(await salaryRows(call, company.id, MONTH));
    expect(Object.keys(rows)).toHaveLength(4);
    expect(rows['月中离职']).toMatchObject({ salary: 4045.98, fullSalary: 8000, paidDays: 11, prorationRule: 'workdays' });
    expect(rows['月中入职']).toMatchObject({ salary: 6206.9, fullSalary: 9000, paidDays: 15 });
    expect(rows['在职全月']).toMatchObject({ salary: 8000, paidDays: null });
  });

  it('a hire after the month gets no row, and a company with nobody employed in the month says why', async () => {
    const company = await createCompany(t.app, token);
    await createStaff(t.app, token, company.id, vectorStaff(8000, { inductionDate: '2025-10-08' }));
    const gen = await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month: MONTH });
    expect(gen).toMatchObject({ status: 400, body: { message: '该单位本月没有应发工资的员工（按入职、离职日期），无法生成工资' } });
    expect(await salaryRows(call, company.id, MONTH)).toEqual([]);
  });
});
