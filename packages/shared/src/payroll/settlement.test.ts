import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskIdCard } from '../idcard.ts';
import { PayrollDecimal, roundFen, TAX_ROUNDING } from './money.ts';
import {
  buildSettlementStatement,
  fenTimesRatio,
  formatPerHeadItems,
  parsePerHeadItems,
  SETTLEMENT_LINE_AMOUNTS,
  type SettlementPersonRow,
  type SettlementTerms,
  splitEvenly,
  type VatRegime,
} from './settlement.ts';

// Statement maths of issue 22 (month-close.md §B1), every amount in fen and worked by hand in the comments.

const person = (idCard: string, staffName: string, gross: number, employer: [number, number, number, number, number], extra: Partial<SettlementPersonRow> = {}): SettlementPersonRow => ({
  idCard,
  staffName,
  gross,
  personalSi: 0,
  personalHf: 0,
  tax: 0,
  net: gross,
  employerYanglao: employer[0],
  employerYiliao: employer[1],
  employerShiye: employer[2],
  employerGongshang: employer[3],
  employerGongjijin: employer[4],
  ...extra,
});

// A: 应发 10,000.00, employer 1,600.00 + 980.00 + 50.00 + 40.00 + 1,200.00 = 3,870.00
const A = person('110101198805170011', '甲', 1_000_000, [160_000, 98_000, 5_000, 4_000, 120_000], { personalSi: 105_300, personalHf: 120_000, tax: 12_345, net: 762_355 });
// B: 应发 8,000.33, employer 1,280.05 + 784.03 + 40.00 + 32.00 + 960.00 = 3,096.08
const B = person('110101199001010022', '乙', 800_033, [128_005, 78_403, 4_000, 3_200, 96_000]);

const terms = (over: Partial<SettlementTerms> = {}): SettlementTerms => ({
  feeMode: 'PER_HEAD',
  feeAmount: 15_000,
  feeRate: 0,
  feeTaxMode: 'INCLUSIVE',
  siBillingLag: 0,
  disabledShareMode: 'NONE',
  disabledShareAmount: 0,
  disabledShareRate: 0,
  unionFeeRatio: 0,
  perHeadItems: [],
  ...over,
});
const GENERAL_6: VatRegime = { regime: 'GENERAL_6', rate: '0.06', surtaxRatio: '0.12' };
const DIFF_5: VatRegime = { regime: 'DIFF_5', rate: '0.05', surtaxRatio: '0.12' };
const SMALL_1: VatRegime = { regime: 'SMALL', rate: '0.01', surtaxRatio: '0.06' };

const build = (t: SettlementTerms, vat: VatRegime = GENERAL_6, wageRows = [A, B], siRows = wageRows, arrearsIn = 0) => buildSettlementStatement({ wageRows, siRows, terms: t, vat, arrearsIn });

describe('fee modes (lag 0), to the fen', () => {
  it('PER_HEAD: 150.00 a person', () => {
    const s = build(terms());
    expect(s.lines.map((l) => l.fee)).toEqual([15_000, 15_000]);
    // 10,000.00 + 3,870.00 + 150.00 = 14,020.00; 8,000.33 + 3,096.08 + 150.00 = 11,246.41
    expect(s.lines.map((l) => l.total)).toEqual([1_402_000, 1_124_641]);
    expect(s.header).toMatchObject({ heads: 2, lines: 2, subtotal: 2_526_641, passThrough: 2_496_641 });
  });

  it('PCT_WAGE: 5 % of 应发, half-up per line', () => {
    const s = build(terms({ feeMode: 'PCT_WAGE', feeRate: '0.05' }));
    // 800,033 × 0.05 = 40,001.65 -> 40,002
    expect(s.lines.map((l) => l.fee)).toEqual([50_000, 40_002]);
    expect(s.header.sums.fee).toBe(90_002);
  });

  it('PCT_TOTAL: 3 % of 应发 + employer SI/HF', () => {
    const s = build(terms({ feeMode: 'PCT_TOTAL', feeRate: '0.03' }));
    // (1,000,000 + 387,000) × 0.03 = 41,610; (800,033 + 309,608) × 0.03 = 33,289.23 -> 33,289
    expect(s.lines.map((l) => l.fee)).toEqual([41_610, 33_289]);
  });

  it('LUMP_SUM: 1,000.01 a month spread exactly over the lines', () => {
    const s = build(terms({ feeMode: 'LUMP_SUM', feeAmount: 100_001 }));
    expect(s.lines.map((l) => l.fee)).toEqual([50_001, 50_000]);
    expect(s.header.sums.fee).toBe(100_001);
  });

  it('half a fen rounds up (HALF_UP), not to even', () => {
    const s = build(terms({ feeMode: 'PCT_WAGE', feeRate: '0.05' }), GENERAL_6, [person('110101199001010033', '丙', 800_010, [0, 0, 0, 0, 0])]);
    // 800,010 × 0.05 = 40,000.5 -> 40,001
    expect(s.lines[0].fee).toBe(40_001);
  });
});

describe('extras: 残保金分摊, 工会经费, per-head items', () => {
  it('adds them per line and names the items in the header', () => {
    const s = build(terms({ disabledShareMode: 'PCT_WAGE', disabledShareRate: '0.015', unionFeeRatio: '0.02', perHeadItems: [{ name: '商保', amount: 3_000 }, { name: '体检', amount: 1_550 }] }));
    // 残保金 1.5 %: 15,000 and 800,033 × 0.015 = 12,000.495 -> 12,000; 工会 2 %: 20,000 and 16,000.66 -> 16,001
    expect(s.lines.map((l) => [l.disabledShare, l.unionFee, ...l.items])).toEqual([
      [15_000, 20_000, 3_000, 1_550],
      [12_000, 16_001, 3_000, 1_550],
    ]);
    expect(s.lines[0].total).toBe(1_000_000 + 387_000 + 15_000 + 20_000 + 4_550 + 15_000);
    expect(s.header.itemNames).toEqual(['商保', '体检']);
    expect(s.header.itemSums).toEqual([6_000, 3_100]);
    const perHead = build(terms({ disabledShareMode: 'PER_HEAD', disabledShareAmount: 1_234 }));
    expect(perHead.lines.map((l) => l.disabledShare)).toEqual([1_234, 1_234]);
  });
});

describe('SI billing lag', () => {
  it('lag 1 bills last month’s employer SI/HF: a leaver keeps a line without wages, a joiner has none yet', () => {
    // last month: A with other bases, and C who has left since
    const lastA = person(A.idCard, '甲', 990_000, [150_000, 90_000, 4_000, 3_000, 110_000]);
    const C = person('110101197001010044', '丁', 500_000, [80_000, 49_000, 2_500, 2_000, 60_000]);
    const s = build(terms({ siBillingLag: 1 }), GENERAL_6, [A, B], [lastA, C]);
    expect(s.header).toMatchObject({ heads: 2, lines: 3 });
    expect(s.lines.map((l) => [l.staffName, l.gross, l.employerYanglao, l.employerGongjijin, l.fee])).toEqual([
      ['甲', 1_000_000, 150_000, 110_000, 15_000],
      ['乙', 800_033, 0, 0, 15_000],
      ['丁', 0, 80_000, 60_000, 0],
    ]);
    // C's line: 800.00 + 490.00 + 25.00 + 20.00 + 600.00
    expect(s.lines[2].total).toBe(193_500);
  });

  it('lag 0 bills the same month', () => {
    const s = build(terms({ siBillingLag: 0 }));
    expect(s.lines[0].employerYanglao).toBe(160_000);
  });
});

describe('VAT regimes (the worked example of month-close.md: P = 11,496.00, fee 150.00 inclusive, T = 11,646.00)', () => {
  const P = [person('110101198805170011', '甲', 1_149_600, [0, 0, 0, 0, 0])];
  it('DIFF_5: (T − pass-through) × 5/105 = 7.14, surtax 0.86', () => {
    const h = build(terms(), DIFF_5, P).header;
    expect(h).toMatchObject({ subtotal: 1_164_600, vatBase: 15_000, vat: 714, surtax: 86, taxCharged: 0, currentDue: 1_164_600 });
  });
  it('GENERAL_6: T × 6/106 = 659.21', () => {
    expect(build(terms(), GENERAL_6, P).header).toMatchObject({ vatBase: 1_164_600, vat: 65_921, surtax: 7_911 });
  });
  it('SMALL at 1 %: T × 1/101 = 115.31', () => {
    expect(build(terms(), SMALL_1, P).header).toMatchObject({ vat: 11_531, surtax: 692 });
  });
  it('EXCLUSIVE adds VAT and surtax as a 税金 line', () => {
    const h = build(terms({ feeTaxMode: 'EXCLUSIVE' }), GENERAL_6, P).header;
    // 1,164,600 × 0.06 = 69,876; surtax 8,385.12 -> 8,385
    expect(h).toMatchObject({ vat: 69_876, surtax: 8_385, taxCharged: 78_261, currentDue: 1_242_861 });
    const d = build(terms({ feeTaxMode: 'EXCLUSIVE' }), DIFF_5, P).header;
    // 15,000 × 0.05 = 750; surtax 90
    expect(d).toMatchObject({ vat: 750, surtax: 90, currentDue: 1_164_600 + 840 });
  });
  it('DIFF_5 with no fee has no VAT (nothing above the pass-through)', () => {
    expect(build(terms({ feeAmount: 0 }), DIFF_5, P).header.vat).toBe(0);
  });
});

describe('header', () => {
  it('arrears brought forward make 合计应收', () => {
    const h = build(terms(), GENERAL_6, [A, B], [A, B], -12_345).header;
    expect(h.totalDue).toBe(h.currentDue - 12_345);
  });

  it('property: every header column is the sum of its lines, whatever the terms and rows', () => {
    const fen = fc.integer({ min: 0, max: 5_000_000 });
    const row = fc.tuple(fen, fen, fen, fen, fen, fen);
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 1, maxLength: 30 }),
        fc.constantFrom('PER_HEAD', 'PCT_WAGE', 'PCT_TOTAL', 'LUMP_SUM' as const),
        fc.integer({ min: 0, max: 99_999 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (rows, feeMode, rateBp, amount) => {
          const people = rows.map((r, i) => person(`1101011990010100${String(i).padStart(2, '0')}`, `p${i}`, r[0], [r[1], r[2], r[3], r[4], r[5]]));
          const s = build(terms({ feeMode: feeMode as SettlementTerms['feeMode'], feeAmount: amount, feeRate: rateBp / 100_000, unionFeeRatio: '0.02', disabledShareMode: 'PCT_WAGE', disabledShareRate: rateBp / 100_000 }), DIFF_5, people);
          for (const k of SETTLEMENT_LINE_AMOUNTS) expect(s.header.sums[k]).toBe(s.lines.reduce((a, l) => a + l[k], 0));
          if (feeMode === 'LUMP_SUM') expect(s.header.sums.fee).toBe(amount);
          expect(s.header.subtotal).toBe(s.header.sums.total);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('helpers', () => {
  it('property: the integer fast path of fen × ratio equals decimal.js half-up, whatever the size', () => {
    fc.assert(
      fc.property(fc.integer({ min: -9_000_000_000_000, max: 9_000_000_000_000 }), fc.integer({ min: 0, max: 1_000_000 }), (fen, micro) => {
        const ratio = (micro / 1_000_000).toFixed(6);
        expect(fenTimesRatio(fen, ratio)).toBe(roundFen(new PayrollDecimal(ratio).times(fen), TAX_ROUNDING));
      }),
      { numRuns: 3000 },
    );
    expect(fenTimesRatio(1, '0.5')).toBe(1);
    expect(fenTimesRatio(-1, '0.5')).toBe(-1);
    expect(fenTimesRatio(999_999, '0.0000005')).toBe(0);
  });

  it('masks the ID card to first 6 + last 4', () => {
    expect(maskIdCard('110101198805170011')).toBe('110101********0011');
  });
  it('splits exactly', () => {
    expect(splitEvenly(10, 3)).toEqual([4, 3, 3]);
    expect(splitEvenly(-10, 3)).toEqual([-4, -3, -3]);
  });
  it('reads and writes per-head items, refusing what it cannot read', () => {
    expect(parsePerHeadItems('商保:30; 体检：15.50\n档案:5')).toEqual({ items: [{ name: '商保', amount: 3_000 }, { name: '体检', amount: 1_550 }, { name: '档案', amount: 500 }] });
    expect(parsePerHeadItems('')).toEqual({ items: [] });
    expect(parsePerHeadItems('商保 30')).toEqual({ error: '商保 30' });
    expect(parsePerHeadItems('商保:1.234')).toEqual({ error: '商保:1.234' });
    expect(parsePerHeadItems('商保:1;商保:2')).toEqual({ error: '商保:2' });
    expect(formatPerHeadItems([{ name: '商保', amount: 3_000 }])).toBe('商保:30.00');
  });
});
