import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculateMonth, type SalaryRowData } from '@app/shared/payroll';
import { createTestApp, type TestApp } from './helpers.ts';
import { adminToken } from './dispatch-fixtures.ts';
import { type Api, api, companyWithStaff, runMonth, salaryRows, vectorStaff } from './payroll-fixtures.ts';

// 全年一次性奖金 (issue 10 item 7, payroll-rules.md §1.5 and the §6.2 vectors). Every figure below by hand:
// bases 8,000: 五险一金 = 640.00 + 163.00 + 40.00 + 960.00 = 1,803.00; January wages 8,000.00 -> taxable
// 8,000 - 5,000 - 1,803 = 1,197.00 -> 3 % = 35.91.

let t: TestApp;
let admin: Api;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await adminToken(t.app);
  admin = api(t.app, token);
});
afterAll(async () => {
  await t?.close();
});

async function oneWorker(name: string) {
  const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: name })]);
  return { companyId: Number(company.id), idCard: String(staff[0].idCard) };
}
const payslipOf = async (month: string, idCard: string) => (await admin('GET', `/api/acPayslip?month=${month}&idCard=${idCard}`)).body.content[0];

describe('annual one-time bonus', () => {
  it('taxed separately: its own tax line from the monthly table at bonus / 12, out of 应发 and the ledger', async () => {
    const { companyId, idCard } = await oneWorker('奖金甲');
    const [jan] = await runMonth(admin, companyId, '2026-01', (r) => [{ id: r[0].id, bonus: 36000 } as never]);
    // 36,000 / 12 = 3,000 -> 3 %: 1,080.00; 实发 = 8,000 - 1,803 - 35.91 + 36,000 - 1,080 = 41,081.09
    expect(jan).toMatchObject({ gross: 8000, fiveOne: 1803, tax: 35.91, bonus: 36000, bonusMerged: false, bonusTax: 1080, realSalary: 41081.09 });
    // the payslip shows the bonus and its tax on their own lines (年终1, 年终3)
    expect((await admin('POST', '/api/acPayslip/generate', { companyId, month: '2026-01' })).status).toBe(200);
    // PB5: 本期应发 is the income lines' sum, the separately taxed bonus included: 8,000 + 36,000
    expect(await payslipOf('2026-01', idCard)).toMatchObject({ benqi: 44000, nianzhong1: 36000, nianzhong3: 1080, yingna: 35.91, shifa: 41081.09 });
    // February's cumulative tax ignores the separate bonus: 2 x 1,197 = 2,394 -> 71.82 - 35.91 = 35.91
    const [feb] = await runMonth(admin, companyId, '2026-02');
    expect(feb).toMatchObject({ tax: 35.91, bonusTax: 0, realSalary: 6161.09, cumulativeIncome: 16000 });
  });

  it('follows the §6.2 cliffs: 36,001 -> 3,390.10, 144,001 -> 27,390.20', async () => {
    for (const [bonus, tax] of [
      [36001, 3390.1],
      [144000, 14190],
      [144001, 27390.2],
    ]) {
      const { companyId } = await oneWorker(`奖金${bonus}`);
      const [row] = await runMonth(admin, companyId, '2026-01', (r) => [{ id: r[0].id, bonus } as never]);
      expect(row.bonusTax).toBe(tax);
      expect(row.realSalary).toBe(Math.round((8000 - 1803 - 35.91 + bonus - tax) * 100) / 100);
    }
  });

  it('merged into the month: in 应发 and the cumulative method, no bonus tax line', async () => {
    const { companyId, idCard } = await oneWorker('奖金乙');
    const [jan] = await runMonth(admin, companyId, '2026-01', (r) => [{ id: r[0].id, bonus: 36000, bonusMerged: true } as never]);
    // 应发 44,000; taxable 44,000 - 5,000 - 1,803 = 37,197 -> 10 % - 2,520 = 1,199.70; 实发 44,000 - 1,803 - 1,199.70
    expect(jan).toMatchObject({ gross: 44000, tax: 1199.7, bonusTax: 0, realSalary: 40997.3, cumulativeIncome: 44000 });
    expect((await admin('POST', '/api/acPayslip/generate', { companyId, month: '2026-01' })).status).toBe(200);
    expect(await payslipOf('2026-01', idCard)).toMatchObject({ benqi: 44000, nianzhong1: 36000, nianzhong3: null, yingna: 1199.7, shifa: 40997.3 });
  });

  it('separate taxation once per tax year: a second separate bonus is refused, merged is accepted', async () => {
    const { companyId } = await oneWorker('奖金丙');
    await runMonth(admin, companyId, '2026-01', (r) => [{ id: r[0].id, bonus: 10000 } as never]);
    expect((await admin('POST', '/api/accountsSalary/generator', { companyId, month: '2026-02' })).status).toBe(200);
    const [feb] = await salaryRows(admin, companyId, '2026-02');
    const refused = await admin('PUT', '/api/accountsSalary', { id: feb.id, bonus: 5000 });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('全年一次性奖金单独计税一个纳税年度只能使用一次，');
    expect(refused.body.message).toContain('2026-01已使用，本次请选择并入当月工资计税');
    const merged = await admin('PUT', '/api/accountsSalary', { id: feb.id, bonus: 5000, bonusMerged: true });
    expect(merged.status).toBe(204);
    const [after] = await salaryRows(admin, companyId, '2026-02');
    // 应发 13,000; cumulative taxable 8,000 + 13,000 - 10,000 - 3,606 = 7,394 -> 221.82 - 35.91 (January) = 185.91
    expect(after).toMatchObject({ gross: 13000, tax: 185.91, bonusTax: 0 });
  });

  it('regenerating the month keeps the bonus a clerk entered', async () => {
    const { companyId } = await oneWorker('奖金丁');
    expect((await admin('POST', '/api/accountsSalary/generator', { companyId, month: '2026-03' })).status).toBe(200);
    const [row] = await salaryRows(admin, companyId, '2026-03');
    expect((await admin('PUT', '/api/accountsSalary', { id: row.id, bonus: 12000, bonusMerged: true })).status).toBe(204);
    const again = await admin('POST', '/api/accountsSalary/generator', { companyId, month: '2026-03' });
    expect(again.body.message).toContain('保留人工修改1条');
    expect((await salaryRows(admin, companyId, '2026-03'))[0]).toMatchObject({ bonus: 12000, bonusMerged: true });
  });

  it('is refused on labour remuneration and after 2027 when taxed separately', () => {
    const row = (over: Partial<SalaryRowData>): SalaryRowData => ({
      id: 1,
      companyId: 1,
      companyName: '甲',
      dispatchCompany: '派遣',
      month: '2028-01',
      staffName: '某',
      idCard: '110101199001010011',
      censusType: null,
      taxesType: '工资薪金',
      insureType: '不参保',
      salary: 800_000,
      jiaban: 0,
      koukuan: 0,
      deduct: 0,
      yanglaoBase: null,
      yiliaoBase: null,
      yiliaoBaseSelf: null,
      shiyeBase: null,
      gjjBase: null,
      yanglaoRatioSelf: null,
      yiliaoRatioSelf: null,
      shiyeRatioSelf: null,
      gjjRatio: null,
      tag: 0,
      gross: null,
      fiveOne: null,
      tax: null,
      bonus: 1_000_000,
      ...over,
    });
    const calc = (r: SalaryRowData) => calculateMonth({ month: r.month, rows: [r], sameMonthOthers: [], ledger: [], rates: new Map() as never });
    expect(calc(row({})).problems[0].message).toBe('全年一次性奖金单独计税政策执行至2027年12月31日，2028-01的奖金请选择并入当月工资计税');
    expect(calc(row({ bonusMerged: true })).problems).toEqual([]);
    // the last month of the policy: 10,000.00 / 12 = 833.33 -> 3 %: 10,000.00 x 3 % = 300.00
    expect(calc(row({ month: '2027-12' })).figures.get(1)?.bonusTax).toBe(30_000);
    expect(calc(row({ taxesType: '劳务报酬', month: '2026-01' })).problems[0].message).toBe('劳务报酬按次预扣，不适用全年一次性奖金');
  });
});
