import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ANNUAL_TAX_TABLE,
  annualBonusTax,
  calculateCumulativeWithholding,
  labourRemunerationTax,
  MONTHLY_TAX_TABLE,
  PayrollInputError,
  taxByAnnualTable,
  taxByMonthlyTable,
} from './index.ts';
import { fen, oracleAnnualTax, oracleRound } from './testFixtures.ts';

describe('statutory tables', () => {
  it('annual table: 7 brackets with the statutory edges, rates and quick deductions', () => {
    expect(ANNUAL_TAX_TABLE.map((b) => [b.upTo, b.rate, b.quickDeduction])).toEqual([
      [fen(36000), '0.03', 0],
      [fen(144000), '0.10', fen(2520)],
      [fen(300000), '0.20', fen(16920)],
      [fen(420000), '0.25', fen(31920)],
      [fen(660000), '0.30', fen(52920)],
      [fen(960000), '0.35', fen(85920)],
      [Number.POSITIVE_INFINITY, '0.45', fen(181920)],
    ]);
    expect(MONTHLY_TAX_TABLE.map((b) => b.quickDeduction)).toEqual([0, 210, 1410, 2660, 4410, 7160, 15160].map(fen));
  });

  it('bracket edges are "up to and including"', () => {
    expect(taxByAnnualTable(fen(36000))).toBe(fen(1080));
    expect(taxByAnnualTable(fen(36000) + 1)).toBe(fen(1080)); // 10% − 2 520 is continuous at the edge
    expect(taxByAnnualTable(fen(144000))).toBe(fen(11880));
    expect(taxByAnnualTable(fen(1_000_000))).toBe(fen(268080));
    expect(taxByMonthlyTable(fen(3000))).toBe(fen(90));
    expect(taxByMonthlyTable(fen(12000))).toBe(fen(990));
    expect(taxByMonthlyTable(fen(100000))).toBe(fen(29840));
  });

  it('zero and negative taxable income owe nothing', () => {
    expect(taxByAnnualTable(0)).toBe(0);
    expect(taxByAnnualTable(-123456)).toBe(0);
    expect(taxByMonthlyTable(-1)).toBe(0);
  });

  it('rounds half-up to the fen (V6: 808.1952 -> 808.20; 2 867.968 -> 2 867.97)', () => {
    expect(taxByAnnualTable(fen(26939.84))).toBe(fen(808.2));
    expect(taxByAnnualTable(fen(53879.68))).toBe(fen(2867.97));
    expect(taxByAnnualTable(50)).toBe(2); // 1.5 fen -> 2
    expect(taxByAnnualTable(49)).toBe(1); // 1.47 fen -> 1
  });

  it('property: annual table matches an independent BigInt oracle and is monotone', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 200_000_000 }), fc.integer({ min: 0, max: 50_000_000 }), (t, d) => {
        expect(taxByAnnualTable(t)).toBe(oracleAnnualTax(t));
        expect(taxByAnnualTable(t + d)).toBeGreaterThanOrEqual(taxByAnnualTable(t));
      }),
      { numRuns: 2000 },
    );
  });

  it('property: annual table is continuous (one fen more never adds more than 1 fen of tax)', () => {
    const edges = ANNUAL_TAX_TABLE.slice(0, -1).map((b) => b.upTo);
    fc.assert(
      fc.property(fc.constantFrom(...edges), fc.integer({ min: -3, max: 3 }), (edge, off) => {
        const t = edge + off;
        expect(taxByAnnualTable(t + 1) - taxByAnnualTable(t)).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('payroll-rules.md §6.1 labour remuneration (劳务报酬) per payment', () => {
  const cases: Array<[number, number]> = [
    [800, 0],
    [3000, 440],
    [4000, 640],
    [10000, 1600],
    [30000, 5200],
    [100000, 25000],
  ];
  for (const [income, tax] of cases) {
    it(`${income} -> ${tax.toFixed(2)}`, () => expect(labourRemunerationTax(fen(income))).toBe(fen(tax)));
  }

  it('below 800 yuan owes nothing; 4 000.01 switches to the 20% expense rule', () => {
    expect(labourRemunerationTax(fen(500))).toBe(0);
    expect(labourRemunerationTax(0)).toBe(0);
    // 4 000.01 × 0.8 × 20% = 640.0016 -> 640.00
    expect(labourRemunerationTax(fen(4000) + 1)).toBe(fen(640));
    // bracket edge: taxable exactly 20 000 (income 25 000) stays at 20%
    expect(labourRemunerationTax(fen(25000))).toBe(fen(4000));
    expect(labourRemunerationTax(fen(62500))).toBe(fen(13000)); // taxable 50 000: 30% − 2 000
  });

  it('property: matches a BigInt oracle', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), (income) => {
        const I = BigInt(income);
        // taxable × 10 (exact): income − 80 000 fen, or income × 0.8
        const taxable10 = income <= 400_000 ? (I > 80_000n ? (I - 80_000n) * 10n : 0n) : I * 8n;
        const [pct, quick] = taxable10 <= 20_000_000n ? [20n, 0n] : taxable10 <= 50_000_000n ? [30n, 200_000n] : [40n, 700_000n];
        const expected = taxable10 === 0n ? 0n : oracleRound(taxable10 * pct - quick * 1000n, 1000n, 1n, 'HALF_UP');
        expect(labourRemunerationTax(income)).toBe(Number(expected));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('payroll-rules.md §6.2 annual one-time bonus, separate taxation', () => {
  const cases: Array<[number, number]> = [
    [36000, 1080],
    [36001, 3390.1],
    [50000, 4790],
    [144000, 14190],
    [144001, 27390.2],
  ];
  for (const [bonus, tax] of cases) {
    it(`${bonus} -> ${tax.toFixed(2)}`, () => expect(annualBonusTax(fen(bonus))).toBe(fen(tax)));
  }

  it('the quick deduction is subtracted once, not × 12', () => {
    expect(annualBonusTax(fen(1_200_000))).toBe(fen(1_200_000 * 0.45 - 15160));
    expect(annualBonusTax(0)).toBe(0);
  });

  it('rejects a negative bonus', () => {
    expect(() => annualBonusTax(-1)).toThrow(PayrollInputError);
  });
});

describe('calculateCumulativeWithholding', () => {
  it('never refunds: a lower cumulative tax gives 0, not a negative tax', () => {
    const r = calculateCumulativeWithholding({
      monthIndex: 2,
      previousMonths: [{ gross: fen(20000), fiveOne: 0, deduct: 0, tax: fen(450) }],
      current: { gross: 0, fiveOne: 0 },
    });
    // cumT = 20 000 − 10 000 = 10 000 -> C = 300 < 450 withheld
    expect(r.cumulativeTaxable).toBe(fen(10000));
    expect(r.cumulativeTax).toBe(fen(300));
    expect(r.withheldBefore).toBe(fen(450));
    expect(r.tax).toBe(0);
  });

  it('month index counts months employed, not calendar months or confirmed rows (mid-year hire)', () => {
    const r = calculateCumulativeWithholding({ monthIndex: 3, previousMonths: [], current: { gross: fen(20000), fiveOne: 0 } });
    expect(r.cumulativeBasicDeduction).toBe(fen(15000));
    expect(r.taxableThisMonth).toBe(fen(15000));
    expect(r.tax).toBe(fen(150));
  });

  it('simplified flag deducts 60 000 flat from month 1', () => {
    const r = calculateCumulativeWithholding({ monthIndex: 1, current: { gross: fen(70000), fiveOne: 0 }, simplifiedBasicDeduction: true });
    expect(r.cumulativeBasicDeduction).toBe(fen(60000));
    expect(r.tax).toBe(fen(300));
  });

  it('property: taxableThisMonth over the months adds up to cumulativeTaxable, with or without the flag', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ gross: fc.integer({ min: 0, max: 5_000_000 }), fiveOne: fc.integer({ min: 0, max: 300_000 }), deduct: fc.integer({ min: 0, max: 500_000 }) }), { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        (months, simplified) => {
          const prev: Array<{ gross: number; fiveOne: number; deduct: number; tax: number }> = [];
          let sum = 0;
          months.forEach((m, i) => {
            const r = calculateCumulativeWithholding({ monthIndex: i + 1, previousMonths: prev, current: m, simplifiedBasicDeduction: simplified });
            sum += r.taxableThisMonth;
            expect(r.cumulativeTaxable).toBe(sum);
            expect(r.tax).toBe(Math.max(0, oracleAnnualTax(sum) - prev.reduce((s, p) => s + p.tax, 0)));
            prev.push({ ...m, tax: r.tax });
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
