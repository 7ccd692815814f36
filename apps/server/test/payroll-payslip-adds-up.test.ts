import { type PayslipLine, payslipTotalsMismatch } from '@app/shared/payroll/payslipLines';
import { describe, expect, it } from 'vitest';
import type { TestApp } from './helpers.ts';
import { type Api, companyWithStaff, salaryRows, vectorStaff, withAdminApp } from './payroll-fixtures.ts';

// Findings PB5 and U13: a generated payslip adds up on its face. 基础工资 8,000.00 (bases 8,000: 五险一金 1,803.00)
// and a separately taxed 年终奖 36,001.00 in January: wages tax (8,000 - 5,000 - 1,803) x 3% = 35.91; bonus tax
// 36,001 x 10% - 210 = 3,390.10; 实发 8,000 - 1,803 - 35.91 + 36,001 - 3,390.10 = 38,771.99. The slip used to print
// 本期应发 8,000.00 beside 实发 38,771.99; now 本期应发 = 44,001.00 = its income lines, and 实发 = 本期应发 - each
// deduction line. A low wage's slip explains its zero tax: 专项附加扣除 and 个人所得税 lines at 0, and a taxable
// income below zero shown as 0 with the reason.

let t: TestApp;
let call: Api;
let token: string;
withAdminApp((s) => {
  ({ t, call, token } = s);
});

type Json = Record<string, any>;
const fen = (yuan: number) => Math.round(yuan * 100);

async function slipsOf(companyId: number, month: string): Promise<Json[]> {
  expect((await call('POST', '/api/acPayslip/generate', { companyId, month })).status).toBe(200);
  const list = await call('GET', `/api/acPayslip?month=${month}&size=100&sort=id,asc`);
  return list.body.content;
}

async function linesOf(id: number): Promise<{ lines: PayslipLine[]; gross: number; net: number }> {
  const r = await call('GET', `/api/acPayslip/lines?id=${id}`);
  expect(r.status).toBe(200);
  return r.body;
}

describe('payslips add up on their face (PB5, U13)', () => {
  it('a separately taxed bonus is an income line of 本期应发 and its tax a deduction line; every real slip adds up', async () => {
    const { company } = await companyWithStaff(t.app, token, [
      vectorStaff(8000, { staffName: '奖金甲', inductionDate: '2020-03-01' }),
      vectorStaff(9000, { staffName: '加班乙', inductionDate: '2020-03-01', deduct: 1000 }),
      vectorStaff(5000, { staffName: '低薪丙', inductionDate: '2020-03-01' }),
    ]);
    const companyId = Number(company.id);
    const month = '2026-01';
    expect((await call('POST', '/api/accountsSalary/generator', { companyId, month })).status).toBe(200);
    const rows = await salaryRows(call, companyId, month);
    const byName = Object.fromEntries(rows.map((r) => [r.staffName, r]));
    expect((await call('PUT', '/api/accountsSalary', { id: byName['奖金甲'].id, bonus: 36001, bonusMerged: false })).status).toBe(204);
    expect((await call('PUT', '/api/accountsSalary', { id: byName['加班乙'].id, jiaban: 650.5, koukuan: 120.25 })).status).toBe(204);
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId, month })).status).toBe(200);
    const confirm = await call('POST', '/api/accountsSalary/confirm', { companyId, month });
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
    const confirmed = Object.fromEntries((await salaryRows(call, companyId, month)).map((r) => [r.staffName, r]));
    expect(confirmed['奖金甲']).toMatchObject({ fiveOne: 1803, tax: 35.91, bonusTax: 3390.1, realSalary: 38771.99 });

    const slips: Record<string, Json> = Object.fromEntries((await slipsOf(companyId, month)).map((p) => [p.name, p]));
    const bonus = slips['奖金甲'];
    // the PB5 case: 本期应发 44,001.00 and 实发 38,771.99 = 44,001.00 - 1,803.00 - 35.91 - 3,390.10
    expect(bonus).toMatchObject({ jichu: 8000, nianzhong1: 36001, benqi: 44001, shebaogongjijin: 1803, yingna: 35.91, nianzhong3: 3390.1, shifa: 38771.99 });
    expect(fen(bonus.benqi) - fen(bonus.shebaogongjijin) - fen(bonus.yingna) - fen(bonus.nianzhong3)).toBe(fen(bonus.shifa));
    const bonusLines = await linesOf(bonus.id);
    expect(bonusLines.lines.filter((l) => l.section !== 'info').map((l) => [l.name, l.amount])).toEqual([
      ['salary', 8000],
      ['bonusSeparate', 36001],
      ['yanglao', 640],
      ['yiliao', 163],
      ['shiye', 40],
      ['gongjijin', 960],
      ['tax', 35.91],
      ['bonusTax', 3390.1],
    ]);
    expect(bonusLines).toMatchObject({ gross: 44001, net: 38771.99 });

    // every slip of the month: its lines make the printed 本期应发 and 实发 (the shared check, in fen)
    for (const slip of Object.values(slips)) {
      const { lines } = await linesOf(slip.id);
      const inFen = lines.map((l) => ({ ...l, amount: fen(l.amount) }));
      expect(payslipTotalsMismatch(inFen, { gross: fen(slip.benqi), net: fen(slip.shifa) }), slip.name).toEqual([]);
      expect(fen(slip.shifa), slip.name).toBe(fen(confirmed[slip.name].realSalary));
    }
    // 加班费 and 扣款 are lines; 专项附加扣除 1,000 is listed apart (it lowers the tax, not the pay)
    const overtime = await linesOf(slips['加班乙'].id);
    expect(overtime.lines.map((l) => [l.name, l.section, l.amount])).toEqual(
      expect.arrayContaining([
        ['jiaban', 'income', 650.5],
        ['koukuan', 'income', -120.25],
        ['deduct', 'info', 1000],
      ]),
    );

    // U13: 5,000 on bases 5,000 leaves nothing to tax: 个人所得税 0 and 专项附加扣除 0 are listed, and this month's
    // taxable income reads 0 with the reason instead of a negative figure
    const low = await linesOf(slips['低薪丙'].id);
    const line = (name: string) => low.lines.find((l) => l.name === name);
    expect(line('tax')).toMatchObject({ section: 'deduction', amount: 0 });
    expect(line('deduct')).toMatchObject({ section: 'info', amount: 0 });
    expect(line('taxableThisMonth')).toMatchObject({ amount: 0, note: 'belowDeductions' });
    expect(confirmed['低薪丙'].taxableThisMonth).toBeLessThan(0);
    expect(slips['低薪丙'].yingshui).toBe(0);
  });

  it('the lines of a payslip are the caller\'s own only for an ordinary employee, and 404 for an unknown id', async () => {
    expect((await call('GET', '/api/acPayslip/lines?id=99999999')).status).toBe(404);
    expect((await call('GET', '/api/acPayslip/lines?id=abc')).status).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/acPayslip/lines?id=1' })).statusCode).toBe(401);
  });
});
