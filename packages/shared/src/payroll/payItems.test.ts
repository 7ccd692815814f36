import { describe, expect, it } from 'vitest';
import { calculateMonthlySalary, PayrollInputError } from './index.ts';
import { fen, sameBases, vectorRates } from './testFixtures.ts';

// Issue 20 item 7 on the production engine (calculateMonthlySalary runs calculateMonth). Bases 8 000: 五险一金
// 1 803.00; month 1 at 8 000: taxable 1 197.00 -> 35.91, 实发 6 161.09. Local average wage 120 000.00 a year:
// exemption 3 x 120 000 = 360 000.00 (财税〔2018〕164号 第五条第（一）项).
const january = { salary: fen(8000), bases: sameBases(fen(8000)), rates: vectorRates(), monthIndex: 1, averageWageAnnual: fen(120000) };

describe('经济补偿金', () => {
  it('up to the exemption: exempt, no tax, outside 应发 and the cumulative income', () => {
    const r = calculateMonthlySalary({ ...january, severance: fen(360000) });
    expect([r.gross, r.tax, r.severanceExempt, r.severanceTax, r.realSalary]).toEqual([fen(8000), fen(35.91), fen(360000), 0, fen(366161.09)]);
  });

  it('the excess alone by the annual table, at the 36 000 edge', () => {
    // excess 36 000.00 -> 3 % = 1 080.00; excess 36 000.01 -> 10 % - 2 520 = 1 080.001 -> 1 080.00; excess 100 000 -> 7 480.00
    const at = (severance: number) => calculateMonthlySalary({ ...january, severance }).severanceTax;
    expect(at(fen(396000))).toBe(fen(1080));
    expect(at(fen(396000.01))).toBe(fen(1080));
    expect(at(fen(460000))).toBe(fen(7480));
    // 实发 = 6 161.09 + 460 000 - 7 480 = 458 681.09
    expect(calculateMonthlySalary({ ...january, severance: fen(460000) }).realSalary).toBe(fen(458681.09));
  });

  it('needs the local average wage', () => {
    expect(() => calculateMonthlySalary({ ...january, averageWageAnnual: undefined, severance: fen(1000) })).toThrow(/当地上年职工平均工资/);
  });
});

describe('补发 / 补扣', () => {
  it('补发 of an earlier month is wages of this month', () => {
    // month 2 with 补发 2 000: cumulative taxable 18 000 - 10 000 - 3 606 = 4 394.00 -> 131.82 - 35.91 = 95.91
    const r = calculateMonthlySalary({
      ...january,
      monthIndex: 2,
      previousMonths: [{ gross: fen(8000), fiveOne: fen(1803), deduct: 0, tax: fen(35.91) }],
      backPay: fen(2000),
      backPayMonth: '2026-01',
    });
    expect([r.gross, r.tax, r.realSalary]).toEqual([fen(10000), fen(95.91), fen(8101.09)]);
  });

  it('补扣 lowers 应发; an amount needs its earlier month', () => {
    // 应发 7 500; taxable 697.00 -> 20.91
    const r = calculateMonthlySalary({ ...january, backDeduct: fen(500), backDeductMonth: '2025-12' });
    expect([r.gross, r.tax, r.realSalary]).toEqual([fen(7500), fen(20.91), fen(5676.09)]);
    expect(() => calculateMonthlySalary({ ...january, backPay: fen(1) })).toThrow(PayrollInputError);
    expect(() => calculateMonthlySalary({ ...january, backPay: fen(1) })).toThrow(/补发请填写所属月份/);
    expect(() => calculateMonthlySalary({ ...january, backDeduct: fen(9000), backDeductMonth: '2025-12' })).toThrow(/补扣不能超过本月应发/);
  });
});
