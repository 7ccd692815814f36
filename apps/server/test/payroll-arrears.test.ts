import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';
import { adminToken } from './dispatch-fixtures.ts';
import { type Api, api, companyWithStaff, runMonth, salaryRows, vectorStaff } from './payroll-fixtures.ts';

// A month whose deductions exceed the pay (issue 20 item 5, finding PB4). Every figure by hand: bases 8,000:
// 五险一金 = 640.00 + 163.00 + 40.00 + 960.00 = 1,803.00. 无薪假 month: salary 8,000, 扣款 8,000 -> 应发 0.00; taxable
// 0 - 5,000 - 1,803 < 0 -> tax 0.00; net 0 - 1,803 = -1,803.00 -> 实发 0.00 and 1,803.00 not deducted.
// A colleague at 8,000: taxable 8,000 - 5,000 - 1,803 = 1,197.00 -> 3 % = 35.91; 实发 8,000 - 1,803 - 35.91 = 6,161.09.

let t: TestApp;
let call: Api;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await adminToken(t.app);
  call = api(t.app, token);
});
afterAll(async () => {
  await t?.close();
});

async function twoWorkers(names: [string, string], company: Record<string, unknown> = {}) {
  const { company: c, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: names[0] }), vectorStaff(8000, { staffName: names[1] })], company);
  return { companyId: Number(c.id), leave: String(staff[0].idCard), colleague: String(staff[1].idCard) };
}
const unpaidLeave = (idCard: string) => (rows: any[]) => [{ id: rows.find((r) => r.idCard === idCard).id, koukuan: 8000 }];
const rowOf = (rows: any[], idCard: string) => rows.find((r) => r.idCard === idCard);
const payslipOf = async (month: string, idCard: string) => (await call('GET', `/api/acPayslip?month=${month}&idCard=${idCard}`)).body.content[0];
const unconfirm = (companyId: number, month: string) => call('POST', '/api/accountsSalary/unconfirm', { companyId, month, reason: '更正扣款' });

describe('a negative net never blocks a month (下月扣回, the default)', () => {
  it('calculates the unpaid-leave month with 实发 0.00 and 应扣未扣 1,803.00, colleagues calculated; next month deducts it', async () => {
    const { companyId, leave, colleague } = await twoWorkers(['无薪甲', '同事甲']);
    // the inline edit of 扣款 8,000 is accepted (it used to answer 400 实发工资为负数) and the month calculates
    const jan = await runMonth(call, companyId, '2026-01', unpaidLeave(leave));
    expect(rowOf(jan, leave)).toMatchObject({ gross: 0, fiveOne: 1803, tax: 0, realSalary: 0, carriedIn: 0, unpaid: 1803, advanced: 0 });
    expect(rowOf(jan, colleague)).toMatchObject({ gross: 8000, tax: 35.91, realSalary: 6161.09, unpaid: 0 });
    expect((await call('POST', '/api/acPayslip/generate', { companyId, month: '2026-01' })).status).toBe(200);
    expect(await payslipOf('2026-01', leave)).toMatchObject({ benqi: 0, shebaogongjijin: 1803, yingna: 0, yingkouweikou: 1803, shangyueweikou: null, shifa: 0 });

    // February, a normal month: cumulative taxable 8,000 - 10,000 - 3,606 < 0 -> tax 0.00 (January's 五险一金 counted
    // in 专项扣除 although it was not deducted from pay); 实发 8,000 - 1,803 - 0 - 1,803 carried = 4,394.00
    const feb = await runMonth(call, companyId, '2026-02');
    expect(rowOf(feb, leave)).toMatchObject({ gross: 8000, fiveOne: 1803, tax: 0, carriedIn: 1803, realSalary: 4394, unpaid: 0, cumulativeIncome: 8000 });
    // the colleague's February: 2 x 1,197 = 2,394 -> 71.82 - 35.91 = 35.91
    expect(rowOf(feb, colleague)).toMatchObject({ tax: 35.91, carriedIn: 0, realSalary: 6161.09 });
    expect((await call('POST', '/api/acPayslip/generate', { companyId, month: '2026-02' })).status).toBe(200);
    expect(await payslipOf('2026-02', leave)).toMatchObject({ benqi: 8000, shangyueweikou: 1803, yingkouweikou: null, shifa: 4394 });
  });

  it('a carried amount the next month cannot cover either is carried on, less what it covered', async () => {
    const { companyId, leave } = await twoWorkers(['无薪乙', '同事乙']);
    await runMonth(call, companyId, '2026-01', unpaidLeave(leave));
    // February with 扣款 6,000: 应发 2,000.00; taxable 2,000 - 10,000 - 3,606 < 0 -> tax 0; net 2,000 - 1,803 = 197.00
    // covers 197.00 of the 1,803.00 carried: 实发 0.00, 应扣未扣 1,606.00
    const feb = await runMonth(call, companyId, '2026-02', (rows) => [{ id: rowOf(rows, leave).id, koukuan: 6000 }]);
    expect(rowOf(feb, leave)).toMatchObject({ gross: 2000, tax: 0, carriedIn: 1803, realSalary: 0, unpaid: 1606 });
    // March, a normal month: cumulative taxable 18,000 - 15,000 - 5,409 < 0 -> tax 0; 实发 6,197 - 1,606 = 4,591.00
    const mar = await runMonth(call, companyId, '2026-03');
    expect(rowOf(mar, leave)).toMatchObject({ gross: 8000, tax: 0, carriedIn: 1606, realSalary: 4591, unpaid: 0 });
  });
});

describe('单位垫付 (the company advances what the pay cannot cover)', () => {
  it('is a company setting: 实发 0.00, 单位垫付 1,803.00, nothing carried to the next month', async () => {
    const { companyId, leave, colleague } = await twoWorkers(['垫付甲', '同事丙'], { arrearsRule: 'advance' });
    expect((await call('GET', `/api/accountsCompany/${companyId}`)).body.arrearsRule).toBe('advance');
    const jan = await runMonth(call, companyId, '2026-01', unpaidLeave(leave));
    expect(rowOf(jan, leave)).toMatchObject({ gross: 0, fiveOne: 1803, tax: 0, realSalary: 0, unpaid: 0, advanced: 1803 });
    expect(rowOf(jan, colleague)).toMatchObject({ realSalary: 6161.09, advanced: 0 });
    expect((await call('POST', '/api/acPayslip/generate', { companyId, month: '2026-01' })).status).toBe(200);
    expect(await payslipOf('2026-01', leave)).toMatchObject({ danweidianfu: 1803, yingkouweikou: null, shifa: 0 });
    // February: tax 0 (as above), 实发 8,000 - 1,803 = 6,197.00, nothing carried
    const feb = await runMonth(call, companyId, '2026-02');
    expect(rowOf(feb, leave)).toMatchObject({ carriedIn: 0, realSalary: 6197, advanced: 0 });
  });

  it('the company dialog refuses an unknown rule', async () => {
    const { companyId } = await twoWorkers(['规则甲', '规则乙']);
    const c = (await call('GET', `/api/accountsCompany/${companyId}`)).body;
    expect(c.arrearsRule).toBe('carry');
    expect((await call('PUT', '/api/accountsCompany', { ...c, arrearsRule: 'forgive' })).status).toBe(400);
  });
});

describe('反确认 and a carried amount', () => {
  it('the next month takes the carry from the confirmed month only: reopened, corrected and confirmed again, the next month must be recalculated', async () => {
    const { companyId, leave } = await twoWorkers(['反确认甲', '同事丁']);
    await runMonth(call, companyId, '2026-01', unpaidLeave(leave));
    expect((await call('POST', '/api/accountsSalary/generator', { companyId, month: '2026-02' })).status).toBe(200);
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId, month: '2026-02' })).status).toBe(200);
    expect(rowOf(await salaryRows(call, companyId, '2026-02'), leave)).toMatchObject({ carriedIn: 1803, realSalary: 4394 });
    // January reopened: its figures are not final, so February cannot be confirmed on them
    expect((await unconfirm(companyId, '2026-01')).status).toBe(200);
    expect((await call('POST', '/api/accountsSalary/confirm', { companyId, month: '2026-02', acknowledgeWarnings: true })).status).toBe(409);
    // January corrected (no 扣款 after all) and confirmed again: nothing carried now; February's stored carry is stale
    const janRows = await salaryRows(call, companyId, '2026-01');
    expect((await call('PUT', '/api/accountsSalary', { id: rowOf(janRows, leave).id, koukuan: 0 })).status).toBe(204);
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId, month: '2026-01' })).status).toBe(200);
    expect((await call('POST', '/api/accountsSalary/confirm', { companyId, month: '2026-01', acknowledgeWarnings: true })).status).toBe(200);
    const stale = await call('POST', '/api/accountsSalary/confirm', { companyId, month: '2026-02', acknowledgeWarnings: true });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('SALARY_STALE');
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId, month: '2026-02' })).status).toBe(200);
    // February: 2 x 1,197 = 2,394 -> 71.82 - 35.91 = 35.91; 实发 6,161.09, nothing carried
    expect(rowOf(await salaryRows(call, companyId, '2026-02'), leave)).toMatchObject({ carriedIn: 0, tax: 35.91, realSalary: 6161.09 });
  });

  it('a month whose carry the next month (next year) already deducted and confirmed cannot be reopened', async () => {
    const { companyId, leave } = await twoWorkers(['跨年甲', '同事戊']);
    await runMonth(call, companyId, '2025-12', unpaidLeave(leave));
    // January 2026 (a new tax year: taxable 8,000 - 5,000 - 1,803 = 1,197 -> 35.91): 实发 6,161.09 - 1,803 = 4,358.09
    const jan = await runMonth(call, companyId, '2026-01');
    expect(rowOf(jan, leave)).toMatchObject({ carriedIn: 1803, tax: 35.91, realSalary: 4358.09 });
    const refused = await unconfirm(companyId, '2025-12');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('2026-01的工资已确认并已扣回本月的应扣未扣');
    // the newer month first: then the older one reopens
    expect((await unconfirm(companyId, '2026-01')).status).toBe(200);
    expect((await unconfirm(companyId, '2025-12')).status).toBe(200);
  });
});
