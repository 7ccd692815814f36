import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';
import { adminToken } from './dispatch-fixtures.ts';
import { type Api, api, companyWithStaff, runMonth, salaryRows, vectorStaff } from './payroll-fixtures.ts';

// 补发 / 补扣 and 经济补偿金 (issue 20 item 7, finding PB6). Every figure by hand: bases 8,000: 五险一金 = 640.00 +
// 163.00 + 40.00 + 960.00 = 1,803.00; a January at 8,000: taxable 8,000 - 5,000 - 1,803 = 1,197.00 -> 3 % = 35.91,
// 实发 8,000 - 1,803 - 35.91 = 6,161.09. The local average wage (当地上年职工平均工资) is entered as 120,000.00 a year in
// the rate dictionaries: the severance exemption is 3 x 120,000 = 360,000.00 (财税〔2018〕164号 第五条第（一）项).

let t: TestApp;
let call: Api;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await adminToken(t.app);
  call = api(t.app, token);
  // one row per rate dictionary: a new year's figure is a new dictionary version's row, not a release
  const db = t.app.ctx.db;
  const rateDicts = await db.selectFrom('sys_dict_detail').select('dict_id').where('label', '=', 'baseFloor').execute();
  const now = new Date().toISOString();
  for (const d of rateDicts) {
    await db.insertInto('sys_dict_detail').values({ dict_id: d.dict_id, label: 'averageWageAnnual', value: '120000', sort: 99, create_time: now }).execute();
  }
});
afterAll(async () => {
  await t?.close();
});

async function oneWorker(name: string) {
  const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: name })]);
  return { companyId: Number(company.id), idCard: String(staff[0].idCard) };
}
const payslipOf = async (month: string, idCard: string) => (await call('GET', `/api/acPayslip?month=${month}&idCard=${idCard}`)).body.content[0];

describe('补发 / 补扣 with the month they refer to', () => {
  it('补发 for January paid in February is taxed in February, on its own line', async () => {
    const { companyId, idCard } = await oneWorker('补发甲');
    await runMonth(call, companyId, '2026-01');
    // February: 应发 8,000 + 2,000 补发 = 10,000; cumulative taxable 18,000 - 10,000 - 3,606 = 4,394.00 -> 3 % = 131.82,
    // less January's 35.91 = 95.91; 实发 10,000 - 1,803 - 95.91 = 8,101.09
    const [feb] = await runMonth(call, companyId, '2026-02', (rows) => [{ id: rows[0].id, backPay: 2000, backPayMonth: '2026-01' } as never]);
    expect(feb).toMatchObject({ backPay: 2000, backPayMonth: '2026-01', gross: 10000, cumulativeIncome: 18000, tax: 95.91, realSalary: 8101.09 });
    expect((await call('POST', '/api/acPayslip/generate', { companyId, month: '2026-02' })).status).toBe(200);
    expect(await payslipOf('2026-02', idCard)).toMatchObject({ jichu: 8000, bufa: 2000, bukou: null, yingna: 95.91, shifa: 8101.09 });
  });

  it('补扣 lowers 应发 of the current month; an amount without its month is refused with a clear message', async () => {
    const { companyId } = await oneWorker('补扣甲');
    expect((await call('POST', '/api/accountsSalary/generator', { companyId, month: '2026-01' })).status).toBe(200);
    const [row] = await salaryRows(call, companyId, '2026-01');
    const noMonth = await call('PUT', '/api/accountsSalary', { id: row.id, backDeduct: 500 });
    expect(noMonth.status).toBe(400);
    expect(noMonth.body.message).toContain('补扣请填写所属月份');
    const sameMonth = await call('PUT', '/api/accountsSalary', { id: row.id, backDeduct: 500, backDeductMonth: '2026-01' });
    expect(sameMonth.status).toBe(400);
    expect(sameMonth.body.message).toContain('补扣所属月份（2026-01）应早于工资月份（2026-01）');
    // 补扣 500 for 2025-12: 应发 7,500; taxable 7,500 - 5,000 - 1,803 = 697.00 -> 20.91; 实发 7,500 - 1,803 - 20.91 = 5,676.09
    expect((await call('PUT', '/api/accountsSalary', { id: row.id, backDeduct: 500, backDeductMonth: '2025-12' })).status).toBe(204);
    const [after] = await salaryRows(call, companyId, '2026-01');
    expect(after).toMatchObject({ backDeduct: 500, backDeductMonth: '2025-12', gross: 7500, tax: 20.91, realSalary: 5676.09 });
  });

  it('generating the month again keeps 补发/补扣 with their months and 经济补偿金, and the month still calculates', async () => {
    const { companyId } = await oneWorker('重生成甲');
    const month = '2026-03';
    expect((await call('POST', '/api/accountsSalary/generator', { companyId, month })).status).toBe(200);
    const [row] = await salaryRows(call, companyId, month);
    const edit = { id: row.id, backPay: 2000, backPayMonth: '2026-01', backDeduct: 300, backDeductMonth: '2026-02', severance: 1000 };
    expect((await call('PUT', '/api/accountsSalary', edit)).status).toBe(204);
    const again = await call('POST', '/api/accountsSalary/generator', { companyId, month });
    expect(again.body).toMatchObject({ regenerated: true, keptEdits: 1 });
    const [kept] = await salaryRows(call, companyId, month);
    expect(kept).toMatchObject({ backPay: 2000, backPayMonth: '2026-01', backDeduct: 300, backDeductMonth: '2026-02', severance: 1000, adjustEdited: true });
    // Before, the months were lost here and 计算 refused the row (补发请填写所属月份).
    const calc = await call('POST', '/api/accountsSalary/calculate', { companyId, month });
    expect(calc.status, JSON.stringify(calc.body)).toBe(200);
    // 应发 8,000 + 2,000 - 300 = 9,700 (经济补偿金 below the exemption stays out of 应发)
    expect((await salaryRows(call, companyId, month))[0]).toMatchObject({ gross: 9700, backPayMonth: '2026-01', backDeductMonth: '2026-02', severance: 1000 });
  });
});

describe('经济补偿金 (severance) with its exemption up to 3 x the local average wage', () => {
  it('below the exemption: no tax, out of 应发 and the cumulative income', async () => {
    const { companyId, idCard } = await oneWorker('补偿甲');
    // 300,000.00 <= 360,000.00: exempt 300,000.00, tax 0.00; 实发 6,161.09 + 300,000 = 306,161.09
    const [jan] = await runMonth(call, companyId, '2026-01', (rows) => [{ id: rows[0].id, severance: 300000 } as never]);
    expect(jan).toMatchObject({ gross: 8000, cumulativeIncome: 8000, tax: 35.91, severance: 300000, severanceExempt: 300000, severanceTax: 0, realSalary: 306161.09 });
    expect((await call('POST', '/api/acPayslip/generate', { companyId, month: '2026-01' })).status).toBe(200);
    expect(await payslipOf('2026-01', idCard)).toMatchObject({ jichu: 8000, jingjibuchang: 300000, buchangshui: null, shifa: 306161.09 });
  });

  it('above the exemption: the excess alone by the comprehensive-income (annual) table', async () => {
    const { companyId, idCard } = await oneWorker('补偿乙');
    // 400,000.00 - 360,000.00 = 40,000.00 excess -> annual table 10 % - 2,520 = 1,480.00;
    // 实发 6,161.09 + 400,000 - 1,480 = 404,681.09
    const [jan] = await runMonth(call, companyId, '2026-01', (rows) => [{ id: rows[0].id, severance: 400000 } as never]);
    expect(jan).toMatchObject({ gross: 8000, tax: 35.91, severanceExempt: 360000, severanceTax: 1480, realSalary: 404681.09 });
    expect((await call('POST', '/api/acPayslip/generate', { companyId, month: '2026-01' })).status).toBe(200);
    expect(await payslipOf('2026-01', idCard)).toMatchObject({ jingjibuchang: 400000, buchangshui: 1480, shifa: 404681.09 });
    // February: the severance is not in the cumulative method (2 x 1,197 = 2,394 -> 71.82 - 35.91 = 35.91)
    const [feb] = await runMonth(call, companyId, '2026-02');
    expect(feb).toMatchObject({ tax: 35.91, cumulativeIncome: 16000, severanceTax: 0 });
  });
});
