import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';
import { adminToken } from './dispatch-fixtures.ts';
import { type Api, api, companyWithStaff, runMonth, vectorStaff } from './payroll-fixtures.ts';

// 专项附加扣除 and 其他扣除 by category, and the 60,000 simplified deduction (issue 10 item 6). Figures by hand:
// salary 20,000.00 on bases 8,000: 五险一金 1,803.00 a month.

const AGENT = '北京华派人力资源有限公司';
let t: TestApp;
let admin: Api;

beforeAll(async () => {
  t = await createTestApp();
  admin = api(t.app, await adminToken(t.app));
});
afterAll(async () => {
  await t?.close();
});

async function worker(name: string, over: Record<string, unknown> = {}) {
  const { company, staff } = await companyWithStaff(t.app, await adminToken(t.app), [vectorStaff(8000, { staffName: name, salary: 20000, ...over })]);
  return { companyId: Number(company.id), idCard: String(staff[0].idCard) };
}

describe('deductions by category', () => {
  it('the month with a detail row uses its sums (大病医疗 left for the annual reconciliation); a month without keeps the staff amount', async () => {
    const { companyId, idCard } = await worker('扣除甲');
    const detail = { dispatchCompany: AGENT, idCard, staffName: '扣除甲', month: '2026-01', childEducation: 2000, housingRent: 1500, seriousIllness: 5000, healthInsurance: 200, privatePension: 1000 };
    expect((await admin('POST', '/api/taxDeduction', detail)).status).toBe(201);
    // January: 专项附加扣除 2,000 + 1,500 = 3,500; 其他扣除 200 + 1,000 = 1,200;
    // taxable 20,000 - 5,000 - 1,803 - 3,500 - 1,200 = 8,497 -> 3 % = 254.91
    const [jan] = await runMonth(admin, companyId, '2026-01');
    expect(jan).toMatchObject({ deduct: 3500, otherDeduct: 1200, tax: 254.91, realSalary: 20000 - 1803 - 254.91, taxableThisMonth: 8497 });
    // February, no detail row (staff 专项附加扣除 0): cumulative 40,000 - 10,000 - 3,606 - 3,500 - 1,200 = 21,694
    // -> 650.82 - 254.91 = 395.91
    const [feb] = await runMonth(admin, companyId, '2026-02');
    expect(feb).toMatchObject({ deduct: 0, otherDeduct: 0, tax: 395.91, cumulativeTaxable: 21694 });
  });

  it('a detail of another withholding agent does not apply; a detail changed after 计算 must be calculated again before 确认', async () => {
    const { companyId, idCard } = await worker('扣除乙', { deduct: 1000 });
    // a withholding agent that is not a dispatch company is refused on save now (U1)
    expect((await admin('POST', '/api/taxDeduction', { dispatchCompany: '另一派遣单位', idCard, month: '2026-01', childEducation: 2000 })).status).toBe(400);
    expect((await admin('POST', '/api/accountsSalary/generator', { companyId, month: '2026-01' })).status).toBe(200);
    expect((await admin('POST', '/api/accountsSalary/calculate', { companyId, month: '2026-01' })).status).toBe(200);
    const rows = (await admin('GET', `/api/accountsSalary?companyId=${companyId}&month=2026-01`)).body.content;
    // the staff record's 1,000: 20,000 - 5,000 - 1,803 - 1,000 = 12,197 -> 365.91
    expect(rows[0]).toMatchObject({ deduct: 1000, otherDeduct: 0, tax: 365.91 });
    const own = await admin('POST', '/api/taxDeduction', { dispatchCompany: AGENT, idCard, month: '2026-01', elderlySupport: 3000 });
    expect(own.status).toBe(201);
    const confirm = await admin('POST', '/api/accountsSalary/confirm', { companyId, month: '2026-01', companyName: 'x' });
    expect(confirm.status).toBe(409);
    expect((await admin('POST', '/api/accountsSalary/calculate', { companyId, month: '2026-01' })).status).toBe(200);
    expect((await admin('POST', '/api/accountsSalary/confirm', { companyId, month: '2026-01', companyName: 'x' })).status).toBe(200);
    const after = (await admin('GET', `/api/accountsSalary?companyId=${companyId}&month=2026-01`)).body.content[0];
    // 20,000 - 5,000 - 1,803 - 3,000 = 10,197 -> 305.91
    expect(after).toMatchObject({ deduct: 3000, tax: 305.91 });
  });

  it('refuses amounts over the legal monthly caps and a second row for the same month', async () => {
    const { idCard } = await worker('扣除丙');
    const over = await admin('POST', '/api/taxDeduction', { dispatchCompany: AGENT, idCard, month: '2026-03', healthInsurance: 200.01 });
    expect(over.status).toBe(400);
    expect(JSON.stringify(over.body)).toContain('商业健康险');
    expect((await admin('POST', '/api/taxDeduction', { dispatchCompany: AGENT, idCard, month: '2026-03', healthInsurance: 200 })).status).toBe(201);
    const again = await admin('POST', '/api/taxDeduction', { dispatchCompany: AGENT, idCard, month: '2026-03', housingRent: 1500 });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('该员工在该派遣单位本月已有扣除数据');
  });
});

describe('the 60,000 simplified basic deduction (公告2020年第19号)', () => {
  it('deducts 60,000 from January: no tax until the cumulative income passes it', async () => {
    const { companyId, idCard } = await worker('减除甲');
    // the flag needs last year at this agent on record (PB3): a full year of opening figures at 48,000
    const previous = new Date().getUTCFullYear() - 1;
    const opening = { dispatchCompany: AGENT, idCard, taxYear: previous, throughMonth: `${previous}-12`, months: 12, cumulativeIncome: 48000, cumulativeTaxWithheld: 0 };
    expect((await admin('POST', '/api/taxOpening', opening)).status).toBe(201);
    const staff = (await admin('GET', `/api/accountsStaff?idCard=${idCard}`)).body.content[0];
    expect((await admin('PUT', '/api/accountsStaff', { ...staff, simplifiedDeduction: true })).status).toBe(204);
    // January: 20,000 - 60,000 - 1,803 < 0 -> 0; March: 60,000 - 60,000 - 5,409 < 0 -> 0;
    // April: 80,000 - 60,000 - 7,212 = 12,788 -> 3 % = 383.64
    for (const month of ['2026-01', '2026-02', '2026-03']) expect((await runMonth(admin, companyId, month))[0]).toMatchObject({ tax: 0, simplifiedDeduction: true });
    expect((await runMonth(admin, companyId, '2026-04'))[0]).toMatchObject({ tax: 383.64, cumulativeTaxable: 12788 });
  });
});
