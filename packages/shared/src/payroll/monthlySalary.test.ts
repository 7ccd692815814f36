import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ConfirmedMonth,
  calculateMonthlySalary,
  type MonthlySalaryInput,
  type MonthlySalaryResult,
  PayrollInputError,
  type PayrollRates,
} from './index.ts';
import { fen, oracleAnnualTax, oracleRound, sameBases, vectorRates } from './testFixtures.ts';

/** Runs months 1..count with the same input per month (or per-month overrides), confirming each in turn. */
function runYear(count: number, monthInput: (month: number) => Omit<MonthlySalaryInput, 'monthIndex' | 'previousMonths'>) {
  const previous: ConfirmedMonth[] = [];
  const results: MonthlySalaryResult[] = [];
  for (let m = 1; m <= count; m++) {
    const input = monthInput(m);
    const r = calculateMonthlySalary({ ...input, monthIndex: m, previousMonths: previous });
    results.push(r);
    previous.push({ gross: r.gross, fiveOne: r.fiveOne, deduct: input.deduct ?? 0, otherDeduct: input.otherDeduct, tax: r.tax });
  }
  return results;
}

// payroll-rules.md §6 common inputs: salary 8 000, jiaban 500, koukuan 100 (pre-tax), all bases 8 000.
const common = { salary: fen(8000), jiaban: fen(500), koukuan: fen(100), bases: sameBases(fen(8000)), rates: vectorRates() };

describe('payroll-rules.md §6 worked vectors', () => {
  it('common personal contributions for base 8 000', () => {
    const r = calculateMonthlySalary({ ...common, deduct: fen(2000), monthIndex: 1 });
    expect(r.gross).toBe(fen(8400));
    expect([r.yanglao, r.yiliao, r.shiye, r.gongjijin, r.fiveOne]).toEqual([fen(640), fen(163), fen(40), fen(960), fen(1803)]);
  });

  it('V1: month 1, deduct 2 000 -> tax 0, net 6 597.00', () => {
    const r = calculateMonthlySalary({ ...common, deduct: fen(2000), monthIndex: 1 });
    expect(r.taxableThisMonth).toBe(fen(-403));
    expect(r.cumulativeTaxable).toBe(fen(-403));
    expect(r.cumulativeTax).toBe(0);
    expect(r.tax).toBe(0);
    expect(r.realSalary).toBe(fen(6597));
  });

  it('V2: month 3 after two confirmed identical months -> cumT -1 209.00, tax 0, net 6 597.00', () => {
    const [, , m3] = runYear(3, () => ({ ...common, deduct: fen(2000) }));
    expect(m3.cumulativeTaxable).toBe(fen(-1209));
    expect(m3.tax).toBe(0);
    expect(m3.realSalary).toBe(fen(6597));
  });

  it('V3: overtime spike in month 2, all three months', () => {
    const months = runYear(3, (m) => ({ ...common, jiaban: m === 2 ? fen(3500) : fen(500), deduct: 0 }));
    const rows = months.map((r) => [r.gross, r.taxableThisMonth, r.cumulativeTaxable, r.cumulativeTax, r.tax, r.realSalary]);
    expect(rows).toEqual([
      [fen(8400), fen(1597), fen(1597), fen(47.91), fen(47.91), fen(6549.09)],
      [fen(11400), fen(4597), fen(6194), fen(185.82), fen(137.91), fen(9459.09)],
      [fen(8400), fen(1597), fen(7791), fen(233.73), fen(47.91), fen(6549.09)],
    ]);
  });

  it('V4: high earner crossing brackets, months 1,2,3,7,8,9 and the full year 26 872.80', () => {
    const months = runYear(12, () => ({ salary: fen(30000), bases: sameBases(fen(30000)), rates: vectorRates({ ceiling: fen(35811) }) }));
    expect(months[0].fiveOne).toBe(fen(6753));
    expect(months[0].yiliao).toBe(fen(603));
    const pick = (m: number) => [months[m - 1].cumulativeTaxable, months[m - 1].cumulativeTax, months[m - 1].tax, months[m - 1].realSalary];
    expect(pick(1)).toEqual([fen(18247), fen(547.41), fen(547.41), fen(22699.59)]);
    expect(pick(2)).toEqual([fen(36494), fen(1129.4), fen(581.99), fen(22665.01)]);
    expect(pick(3)).toEqual([fen(54741), fen(2954.1), fen(1824.7), fen(21422.3)]);
    expect(pick(7)).toEqual([fen(127729), fen(10252.9), fen(1824.7), fen(21422.3)]);
    expect(pick(8)).toEqual([fen(145976), fen(12275.2), fen(2022.3), fen(21224.7)]);
    expect(pick(9)).toEqual([fen(164223), fen(15924.6), fen(3649.4), fen(19597.6)]);
    for (const m of [4, 5, 6]) expect(months[m - 1].tax).toBe(fen(1824.7));
    for (const m of [10, 11, 12]) expect(months[m - 1].tax).toBe(fen(3649.4));
    expect(months[11].cumulativeTaxable).toBe(fen(218964));
    expect(months[11].cumulativeTax).toBe(fen(26872.8));
    expect(months.reduce((s, r) => s + r.tax, 0)).toBe(fen(26872.8));
  });

  it('V5: salary below 5 000 -> fiveOne 1 083.00, tax 0, net 3 717.00', () => {
    const r = calculateMonthlySalary({ salary: fen(4800), bases: sameBases(fen(4800)), rates: vectorRates({ floor: fen(4800) }), monthIndex: 1 });
    expect([r.yanglao, r.yiliao, r.shiye, r.gongjijin, r.fiveOne]).toEqual([fen(384), fen(99), fen(24), fen(576), fen(1083)]);
    expect(r.cumulativeTaxable).toBe(fen(-1283));
    expect(r.tax).toBe(0);
    expect(r.realSalary).toBe(fen(3717));
  });

  it('V6: July hire, bases clamp to 35 811, half-up edge, July and August', () => {
    const input = { salary: fen(40000), bases: sameBases(fen(40000)), rates: vectorRates({ floor: fen(7162), ceiling: fen(35811) }) };
    const [jul, aug] = runYear(2, () => input);
    expect([jul.yanglao, jul.yiliao, jul.shiye, jul.gongjijin, jul.fiveOne]).toEqual([
      fen(2864.88),
      fen(719.22),
      fen(179.06),
      fen(4297),
      fen(8060.16),
    ]);
    expect([jul.cumulativeTaxable, jul.cumulativeTax, jul.tax, jul.realSalary]).toEqual([fen(26939.84), fen(808.2), fen(808.2), fen(31131.64)]);
    expect([aug.cumulativeTaxable, aug.cumulativeTax, aug.tax, aug.realSalary]).toEqual([fen(53879.68), fen(2867.97), fen(2059.77), fen(29880.07)]);
  });
});

describe('calculateMonthlySalary details', () => {
  it('uses yiliaoSelf for the personal medical base when given', () => {
    const r = calculateMonthlySalary({ ...common, bases: { ...sameBases(fen(8000)), yiliaoSelf: fen(10000) }, monthIndex: 1 });
    expect(r.yiliao).toBe(fen(203));
  });

  it('STA 2020 No.19: flat 60 000 deduction keeps a low earner tax-free until cumulative income passes it', () => {
    const months = runYear(12, () => ({ ...common, simplifiedBasicDeduction: true }));
    // monthly income after fiveOne: 8 400 − 1 803 = 6 597; 9 × 6 597 = 59 373 <= 60 000
    expect(months.slice(0, 9).every((r) => r.tax === 0)).toBe(true);
    expect(months[0].taxableThisMonth).toBe(fen(6597 - 60000));
    expect(months[1].taxableThisMonth).toBe(fen(6597));
    expect(months[9].cumulativeTaxable).toBe(fen(65970 - 60000));
    expect(months[9].tax).toBe(fen(179.1));
    const normal = runYear(10, () => common);
    expect(normal[9].cumulativeTax).toBe(fen(479.1));
  });

  it('otherDeduct lowers the taxable income', () => {
    const a = calculateMonthlySalary({ ...common, monthIndex: 1 });
    const b = calculateMonthlySalary({ ...common, otherDeduct: fen(1000), monthIndex: 1 });
    expect(a.cumulativeTaxable - b.cumulativeTaxable).toBe(fen(1000));
    expect(b.tax).toBe(fen(17.91));
  });
});

describe('input validation', () => {
  const ok: MonthlySalaryInput = { ...common, monthIndex: 1 };
  const cases: Array<[string, MonthlySalaryInput, string]> = [
    ['negative salary', { ...ok, salary: -1 }, 'salary'],
    ['non-integer salary', { ...ok, salary: 100.5 }, 'salary'],
    ['NaN jiaban', { ...ok, jiaban: Number.NaN }, 'jiaban'],
    ['unsafe integer', { ...ok, salary: 2 ** 53 }, 'salary'],
    ['negative base', { ...ok, bases: { ...common.bases, shiye: -100 } }, 'bases.shiye'],
    ['non-integer base', { ...ok, bases: { ...common.bases, gongjijin: 0.5 } }, 'bases.gongjijin'],
    ['ratio above 1', { ...ok, rates: { ...common.rates, yanglao: { ratioSelf: 1.2, ratioCompany: 0.16 } } }, 'yanglaoRatioSelf'],
    ['negative ratio string', { ...ok, rates: { ...common.rates, shiye: { ratioSelf: '-0.005', ratioCompany: '0.005' } } }, 'shiyeRatioSelf'],
    ['garbage ratio', { ...ok, rates: { ...common.rates, gongjijin: { ratioSelf: '12%', ratioCompany: '0.12' } } }, 'gjjRatio'],
    ['floor above ceiling', { ...ok, rates: { ...common.rates, yiliao: { ratioSelf: 0.02, ratioCompany: 0.098, floor: 2, ceiling: 1 } } }, 'yiliaoRatioSelf.floor'],
    ['bad rounding', { ...ok, rates: { ...common.rates, shiye: { ratioSelf: 0.005, ratioCompany: 0.005, rounding: { scale: 3, mode: 'UP' } as never } } }, 'shiyeRatioSelf.rounding'],
    ['negative fixed amount', { ...ok, rates: { ...common.rates, yiliaoFixedSelf: -300 } }, 'rates.yiliaoFixedSelf'],
    ['month 0', { ...ok, monthIndex: 0 }, 'monthIndex'],
    ['month 13', { ...ok, monthIndex: 13 }, 'monthIndex'],
    ['month 1.5', { ...ok, monthIndex: 1.5 }, 'monthIndex'],
    ['koukuan above pay', { ...ok, koukuan: fen(9000) }, 'koukuan'],
    ['negative deduct', { ...ok, deduct: -1 }, 'deduct'],
    ['too many previous months', { ...ok, monthIndex: 2, previousMonths: [
      { gross: 1, fiveOne: 0, deduct: 0, tax: 0 },
      { gross: 1, fiveOne: 0, deduct: 0, tax: 0 },
    ] }, 'previousMonths'],
    ['negative previous tax', { ...ok, monthIndex: 2, previousMonths: [{ gross: 1, fiveOne: 0, deduct: 0, tax: -5 }] }, 'previousMonths[0].tax'],
    ['missing rate item', { ...ok, rates: { ...common.rates, shiye: undefined } as unknown as PayrollRates }, 'rates.shiye'],
  ];
  for (const [name, input, field] of cases) {
    it(`rejects ${name}`, () => {
      let caught: unknown;
      try {
        calculateMonthlySalary(input);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(PayrollInputError);
      const err = caught as PayrollInputError;
      expect(err.field).toBe(field);
      expect(err.code).toBe('PAYROLL_INPUT');
      expect(err.messageZh).toMatch(/[\u4e00-\u9fff]/);
      expect(err.messageEn).toMatch(/^[\x20-\x7e]+$/);
      expect(err.message).toBe(err.messageZh);
    });
  }

  it('accepts the valid baseline', () => {
    expect(() => calculateMonthlySalary(ok)).not.toThrow();
  });
});

// ---- property tests -------------------------------------------------------------------------------------

const ROUNDING_MODES = ['HALF_UP', 'UP', 'DOWN'] as const;
const arbRule = fc.record({ scale: fc.constantFrom(0 as const, 1 as const, 2 as const), mode: fc.constantFrom(...ROUNDING_MODES) });
const arbPermyriad = fc.integer({ min: 0, max: 2000 }); // ratio = k / 10 000, up to 20%
const ratioOf = (k: number) => (k / 10000).toFixed(4);
const arbItem = fc.record({ k: arbPermyriad, rule: arbRule });
const arbMoney = fc.integer({ min: 0, max: 20_000_000 }); // up to 200 000 yuan

const arbRow = fc.record({
  salary: arbMoney,
  jiaban: fc.integer({ min: 0, max: 2_000_000 }),
  base: fc.integer({ min: 0, max: 10_000_000 }),
  floor: fc.integer({ min: 0, max: 1_000_000 }),
  ceiling: fc.integer({ min: 1_000_000, max: 5_000_000 }),
  items: fc.tuple(arbItem, arbItem, arbItem, arbItem),
  fixed: fc.constantFrom(0, 300),
  deduct: fc.integer({ min: 0, max: 1_000_000 }),
});

type Row = typeof arbRow extends fc.Arbitrary<infer T> ? T : never;

function ratesOfRow(r: Row): PayrollRates {
  const [p, m, u, f] = r.items.map(({ k, rule }) => ({ ratioSelf: ratioOf(k), ratioCompany: '0.1', floor: r.floor, ceiling: r.ceiling, rounding: rule }));
  return { yanglao: p, yiliao: m, shiye: u, gongjijin: f, yiliaoFixedSelf: r.fixed };
}

/** BigInt oracle for one personal item: clamp, × k/10 000, round to the rule's unit. */
function oracleItem(base: number, floor: number, ceiling: number, k: number, rule: { scale: 0 | 1 | 2; mode: (typeof ROUNDING_MODES)[number] }) {
  const clamped = Math.min(Math.max(base, floor), ceiling);
  return Number(oracleRound(BigInt(clamped) * BigInt(k), 10000n, [100n, 10n, 1n][rule.scale], rule.mode));
}

describe('property tests', () => {
  it('items are rounded one by one (BigInt oracle), fiveOne is their sum, net = gross − items − tax, tax >= 0', () => {
    fc.assert(
      fc.property(arbRow, (row) => {
        const r = calculateMonthlySalary({ salary: row.salary, jiaban: row.jiaban, bases: sameBases(row.base), rates: ratesOfRow(row), deduct: row.deduct, monthIndex: 1 });
        const expected = row.items.map(({ k, rule }) => oracleItem(row.base, row.floor, row.ceiling, k, rule));
        expected[1] += row.fixed;
        expect([r.yanglao, r.yiliao, r.shiye, r.gongjijin]).toEqual(expected);
        expect(r.fiveOne).toBe(expected[0] + expected[1] + expected[2] + expected[3]);
        expect(r.gross).toBe(row.salary + row.jiaban);
        expect(r.tax).toBeGreaterThanOrEqual(0);
        // 实发 never below zero (PB4): what the pay cannot cover is 应扣未扣, so 实发 − 应扣未扣 is the month's net exactly
        expect(r.realSalary).toBeGreaterThanOrEqual(0);
        expect(r.realSalary - r.unpaid).toBe(r.gross - r.yanglao - r.yiliao - r.shiye - r.gongjijin - r.tax);
        expect(Math.min(r.realSalary, r.unpaid)).toBe(0);
        expect(r.tax).toBe(oracleAnnualTax(r.gross - 500_000 - r.fiveOne - row.deduct));
      }),
      { numRuns: 500 },
    );
  });

  it('rounding per item can differ from rounding the sum (V6: 8 060.16, not 8 060.48)', () => {
    const r = calculateMonthlySalary({ salary: fen(40000), bases: sameBases(fen(35811)), rates: vectorRates(), monthIndex: 1 });
    expect(r.fiveOne).toBe(fen(8060.16));
    // 2 864.88 + 716.22 + 3 + 179.055 + 4 297.32 = 8 060.475 rounded once would give 8 060.48
    expect(r.fiveOne).not.toBe(fen(8060.48));
  });

  const arbYear = fc.array(fc.record({ gross: arbMoney, deduct: fc.integer({ min: 0, max: 500_000 }) }), { minLength: 12, maxLength: 12 });

  it('cumulative tax is monotone non-decreasing in income', () => {
    fc.assert(
      fc.property(arbYear, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 5_000_000 }), (year, n, raise) => {
        const previous = year.slice(0, n - 1).map((m) => ({ gross: m.gross, fiveOne: fen(1803), deduct: m.deduct, tax: 0 }));
        const at = (salary: number) =>
          calculateMonthlySalary({ salary, bases: sameBases(fen(8000)), rates: vectorRates(), deduct: year[n - 1].deduct, monthIndex: n, previousMonths: previous });
        const low = at(year[n - 1].gross);
        const high = at(year[n - 1].gross + raise);
        expect(high.cumulativeTax).toBeGreaterThanOrEqual(low.cumulativeTax);
        expect(high.tax).toBeGreaterThanOrEqual(low.tax);
      }),
      { numRuns: 300 },
    );
  });

  it('12 monthly taxes add up to the annual table on the year-end cumulative taxable income (when no month is negative)', () => {
    fc.assert(
      fc.property(arbYear, (year) => {
        // gross >= 5 000 + fiveOne + deduct every month, so cumulative taxable never falls
        const months = runYear(12, (m) => ({
          salary: year[m - 1].gross + 500_000 + fen(1803) + year[m - 1].deduct,
          bases: sameBases(fen(8000)),
          rates: vectorRates(),
          deduct: year[m - 1].deduct,
        }));
        const totalTaxable = months.reduce((s, r) => s + r.taxableThisMonth, 0);
        expect(totalTaxable).toBe(months[11].cumulativeTaxable);
        expect(months.reduce((s, r) => s + r.tax, 0)).toBe(oracleAnnualTax(totalTaxable));
      }),
      { numRuns: 300 },
    );
  });

  it('with arbitrary months, tax is never negative and the year total is the highest cumulative tax reached', () => {
    fc.assert(
      fc.property(arbYear, (year) => {
        const months = runYear(12, (m) => ({ salary: year[m - 1].gross, bases: sameBases(fen(8000)), rates: vectorRates(), deduct: year[m - 1].deduct }));
        for (const r of months) {
          expect(r.tax).toBeGreaterThanOrEqual(0);
          expect(r.cumulativeTax).toBe(oracleAnnualTax(r.cumulativeTaxable));
        }
        const peak = Math.max(...months.map((r) => oracleAnnualTax(r.cumulativeTaxable)));
        expect(months.reduce((s, r) => s + r.tax, 0)).toBe(peak);
      }),
      { numRuns: 300 },
    );
  });
});

describe('a month whose deductions exceed the pay (PB4)', () => {
  // Salary 8 000, 扣款 8 000, bases 8 000: 应发 0.00; 五险一金 640.00 + 163.00 + 40.00 + 960.00 = 1 803.00 still due;
  // taxable 0 − 5 000 − 1 803 < 0 -> tax 0.00; net −1 803.00 -> 实发 0.00, 应扣未扣 1 803.00.
  const unpaidLeave = { salary: fen(8000), koukuan: fen(8000), bases: sameBases(fen(8000)), rates: vectorRates(), monthIndex: 1 };

  it('calculates with 实发 0.00 and 应扣未扣 1 803.00; 五险一金 stays in the tax deductions', () => {
    const r = calculateMonthlySalary(unpaidLeave);
    expect([r.gross, r.fiveOne, r.tax, r.realSalary, r.carriedIn, r.unpaid, r.advanced]).toEqual([0, fen(1803), 0, 0, 0, fen(1803), 0]);
    expect(r.cumulativeTaxable).toBe(fen(-6803));
  });

  it('单位垫付 instead: 实发 0.00, 单位垫付 1 803.00, nothing carried', () => {
    const r = calculateMonthlySalary({ ...unpaidLeave, companyAdvances: true });
    expect([r.realSalary, r.unpaid, r.advanced]).toEqual([0, 0, fen(1803)]);
  });

  it('the next month deducts the carried amount first, to the fen', () => {
    // month 2: 应发 8 000.00 − 1 803.00 = 6 197.00; cumulative taxable 8 000 − 10 000 − 3 606 < 0 -> tax 0.00;
    // 实发 6 197.00 − 1 803.00 carried = 4 394.00
    const m1 = calculateMonthlySalary(unpaidLeave);
    const m2 = calculateMonthlySalary({
      ...unpaidLeave,
      koukuan: 0,
      monthIndex: 2,
      previousMonths: [{ gross: m1.gross, fiveOne: m1.fiveOne, deduct: 0, tax: m1.tax }],
      owedFromEarlier: m1.unpaid,
    });
    expect([m2.gross, m2.tax, m2.carriedIn, m2.realSalary, m2.unpaid]).toEqual([fen(8000), 0, fen(1803), fen(4394), 0]);
  });

  it('a carried amount larger than the pay is carried on, less what the pay covered', () => {
    // 应发 2 000.00 − 1 803.00 = 197.00 covers 197.00 of 1 803.00 owed: 实发 0.00, 应扣未扣 1 606.00
    const r = calculateMonthlySalary({ ...unpaidLeave, koukuan: fen(6000), owedFromEarlier: fen(1803) });
    expect([r.realSalary, r.carriedIn, r.unpaid]).toEqual([0, fen(1803), fen(1606)]);
  });
});
