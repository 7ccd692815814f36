import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculateMonth, calculateMonthlySalary, type LedgerRow, type RowFigures, type SalaryRowData, splitTax } from '@app/shared/payroll';
import { buildRateVersion, pickRateVersion, type RateBook, RateError, type RateDictionary } from '../src/modules/payroll/rates.ts';

// Pure tests of the flow's arithmetic (no database): rates from dictionary entries, the per-entity ledger,
// several client rows in one month, and the per-row problems.

const Y = (yuan: number) => Math.round(yuan * 100);

const SEED_ENTRIES: Record<string, string> = {
  yanglaoRatioCompany: '0.16',
  yanglaoRatioSelf: '0.08',
  yiliaoRatioCompany: '0.098',
  yiliaoRatioSelf: '0.02',
  yiliaoFixedSelf: '3',
  shiyeRatioCompany: '0.005',
  shiyeRatioSelf: '0.005',
  shengyuRatioCompany: '0',
  gjjRatio: '0.12',
  baseFloor: '7162',
  baseCeiling: '35811',
  gjjBaseFloor: '2540',
  gjjBaseCeiling: '35811',
  effectiveMonth: '2025-07',
};
const dict = (name: string, over: Record<string, string | undefined> = {}): RateDictionary => {
  const entries = new Map<string, string>();
  for (const [k, v] of Object.entries({ ...SEED_ENTRIES, ...over })) if (v !== undefined) entries.set(k, v);
  return { name, entries };
};
const book = (month = '2026-03', d: RateDictionary[] = [dict('bennong')]): RateBook => new Map([['本农', pickRateVersion('bennong', month, d)]]);

let nextId = 1;
function row(over: Partial<SalaryRowData> = {}): SalaryRowData {
  return {
    id: nextId++,
    companyId: 1,
    companyName: 'A公司',
    dispatchCompany: '派遣甲',
    month: '2026-01',
    staffName: '张三',
    idCard: '110101199003070011',
    censusType: '本农',
    taxesType: '工资薪金',
    insureType: '五险一金',
    salary: Y(8000),
    jiaban: Y(500),
    koukuan: Y(100),
    deduct: 0,
    yanglaoBase: Y(8000),
    yiliaoBase: Y(8000),
    yiliaoBaseSelf: null,
    shiyeBase: Y(8000),
    gjjBase: Y(8000),
    yanglaoRatioSelf: 0.08,
    yiliaoRatioSelf: 0.02,
    shiyeRatioSelf: 0.005,
    gjjRatio: 0.12,
    tag: 0,
    gross: null,
    fiveOne: null,
    tax: null,
    ...over,
  };
}
const confirmed = (r: SalaryRowData, f: RowFigures): LedgerRow => ({ ...r, tag: 1, gross: f.gross, fiveOne: f.fiveOne, tax: f.tax });

describe('rate dictionaries', () => {
  it('converts yuan limits to fen and keeps ratios as decimal strings', () => {
    const v = buildRateVersion('bennong', '2025-07', dict('bennong').entries);
    expect(v.rates.yanglao).toMatchObject({ floor: 716_200, ceiling: 3_581_100, ratioSelf: '0.08' });
    expect(v.rates.gongjijin).toMatchObject({ floor: 254_000, ceiling: 3_581_100, ratioSelf: '0.12' });
    expect(v.rates.yiliaoFixedSelf).toBe(300);
    expect(v.rates.yanglao.rounding).toBeUndefined();
  });

  it('reads rounding entries and per-item base overrides', () => {
    const v = buildRateVersion('x', null, dict('x', { roundingSI: 'UP:1', roundingHF: 'half_up:0', yanglaoBaseFloor: '6000' }).entries);
    expect(v.rates.shiye.rounding).toEqual({ mode: 'UP', scale: 1 });
    expect(v.rates.gongjijin.rounding).toEqual({ mode: 'HALF_UP', scale: 0 });
    expect(v.rates.yanglao.floor).toBe(600_000);
    expect(v.rates.yiliao.floor).toBe(716_200);
  });

  it('names the dictionary and entry when a limit is missing or unreadable, never a silent 0', () => {
    expect(() => buildRateVersion('bennong', null, dict('bennong', { baseFloor: undefined }).entries)).toThrow(/bennong 缺少 baseFloor/);
    expect(() => buildRateVersion('bennong', null, dict('bennong', { gjjBaseCeiling: '三万' }).entries)).toThrow(/gjjBaseCeiling/);
    expect(() => buildRateVersion('bennong', null, dict('bennong', { yiliaoFixedSelf: undefined }).entries)).toThrow(/yiliaoFixedSelf/);
    expect(() => buildRateVersion('bennong', null, dict('bennong', { roundingSI: 'ROUND:2' }).entries)).toThrow(RateError);
    expect(() => buildRateVersion('bennong', null, dict('bennong', { yanglaoRatioSelf: '8%' }).entries)).toThrow(/yanglaoRatioSelf/);
  });

  it('picks the latest version in force in the month', () => {
    const dicts = [
      dict('bennong', { effectiveMonth: '2025-07' }),
      dict('bennong@2024-07', { effectiveMonth: undefined, baseCeiling: '35283', baseFloor: '6821' }),
      dict('bennong@2026-07', { effectiveMonth: undefined, baseCeiling: '36348', baseFloor: '7270' }),
      dict('bennong_24', { baseCeiling: '1' }),
    ];
    expect(pickRateVersion('bennong', '2025-06', dicts).dictName).toBe('bennong@2024-07');
    expect(pickRateVersion('bennong', '2025-07', dicts).dictName).toBe('bennong');
    expect(pickRateVersion('bennong', '2026-06', dicts).rates.yanglao.ceiling).toBe(3_581_100);
    expect(pickRateVersion('bennong', '2026-07', dicts).rates.yanglao.ceiling).toBe(3_634_800);
    expect(() => pickRateVersion('bennong', '2024-06', dicts)).toThrow(/没有在 2024-06 或之前生效的版本/);
    expect(() => pickRateVersion('bennong', '2026-01', [...dicts, dict('bennong@2025-07', { effectiveMonth: undefined })])).toThrow(/生效月份相同/);
  });
});

describe('calculateMonth', () => {
  it('V1: month index 1, deduct 2000 -> tax 0, net 6597.00', () => {
    const r = row({ deduct: Y(2000) });
    const { figures, problems } = calculateMonth({ month: '2026-01', rows: [r], sameMonthOthers: [], ledger: [], rates: book() });
    expect(problems).toEqual([]);
    expect(figures.get(r.id)).toMatchObject({ gross: Y(8400), fiveOne: Y(1803), tax: 0, realSalary: Y(6597), monthIndex: 1, taxableThisMonth: Y(-403) });
  });

  it('V3 across three confirmed months of the same entity, at two client companies', () => {
    const jan = row({ month: '2026-01' });
    const f1 = calculateMonth({ month: '2026-01', rows: [jan], sameMonthOthers: [], ledger: [], rates: book() }).figures.get(jan.id)!;
    expect([f1.tax, f1.realSalary]).toEqual([Y(47.91), Y(6549.09)]);
    // February is paid through another client company of the same dispatch entity.
    const feb = row({ month: '2026-02', companyId: 2, companyName: 'B公司', jiaban: Y(3500) });
    const f2 = calculateMonth({ month: '2026-02', rows: [feb], sameMonthOthers: [], ledger: [confirmed(jan, f1)], rates: book() }).figures.get(feb.id)!;
    expect([f2.tax, f2.realSalary, f2.monthIndex]).toEqual([Y(137.91), Y(9459.09), 2]);
    const mar = row({ month: '2026-03' });
    const f3 = calculateMonth({ month: '2026-03', rows: [mar], sameMonthOthers: [], ledger: [confirmed(jan, f1), confirmed(feb, f2)], rates: book() }).figures.get(mar.id)!;
    expect([f3.tax, f3.realSalary, f3.monthIndex, f3.cumulativeTaxable, f3.cumulativeTax]).toEqual([Y(47.91), Y(6549.09), 3, Y(7791), Y(233.73)]);
  });

  it('keeps other dispatch entities, other years and labour rows out of the ledger', () => {
    const jan = row({ month: '2026-01' });
    const f1 = calculateMonth({ month: '2026-01', rows: [jan], sameMonthOthers: [], ledger: [], rates: book() }).figures.get(jan.id)!;
    const ledger = [
      confirmed({ ...jan, dispatchCompany: '派遣乙' }, f1),
      confirmed({ ...jan, month: '2025-12' }, f1),
      confirmed({ ...jan, taxesType: '劳务报酬' }, f1),
    ];
    const feb = row({ month: '2026-02' });
    const f = calculateMonth({ month: '2026-02', rows: [feb], sameMonthOthers: [], ledger, rates: book() }).figures.get(feb.id)!;
    expect(f.monthIndex).toBe(1);
    expect(f.tax).toBe(Y(47.91));
  });

  it('V6: ceiling clamp and the half-up edge, July then August', () => {
    const base = Y(40000);
    const jul = row({ month: '2025-07', salary: base, jiaban: 0, koukuan: 0, yanglaoBase: base, yiliaoBase: base, shiyeBase: base, gjjBase: base });
    const f7 = calculateMonth({ month: '2025-07', rows: [jul], sameMonthOthers: [], ledger: [], rates: book('2025-07') }).figures.get(jul.id)!;
    expect(f7).toMatchObject({ yanglao: Y(2864.88), yiliao: Y(719.22), shiye: Y(179.06), gongjijin: Y(4297), fiveOne: Y(8060.16), tax: Y(808.2), realSalary: Y(31131.64) });
    const aug = { ...jul, id: nextId++, month: '2025-08' };
    const f8 = calculateMonth({ month: '2025-08', rows: [aug], sameMonthOthers: [], ledger: [confirmed(jul, f7)], rates: book('2025-08') }).figures.get(aug.id)!;
    expect([f8.tax, f8.realSalary, f8.monthIndex]).toEqual([Y(2059.77), Y(29880.07), 2]);
  });

  it('two client rows in one month: tax on the sum, split by (gross - fiveOne), confirmed share kept', () => {
    const a = row({ month: '2026-01', companyId: 1, salary: Y(8000), jiaban: 0, koukuan: 0 });
    const b = row({ month: '2026-01', companyId: 2, companyName: 'B公司', salary: Y(4000), jiaban: 0, koukuan: 0, yanglaoBase: Y(8000) });
    const fa = calculateMonth({ month: '2026-01', rows: [a], sameMonthOthers: [b], ledger: [], rates: book() }).figures.get(a.id)!;
    const fb = calculateMonth({ month: '2026-01', rows: [b], sameMonthOthers: [a], ledger: [], rates: book() }).figures.get(b.id)!;
    // One basic deduction for the month: cumT = 12000 - 5000 - 2 x 1803 = 3394 -> C = 101.82.
    expect(fa.cumulativeTax).toBe(Y(101.82));
    expect(fa.tax + fb.tax).toBe(Y(101.82));
    expect(fa.monthIndex).toBe(1);
    // Weights 6197 and 2197: 101.82 x 6197 / 8394 = 75.17 (rounded down), the rest to the larger row.
    expect(fb.tax).toBe(Math.floor((Y(101.82) * Y(2197)) / Y(8394)));
    expect(fa.tax).toBe(Y(101.82) - fb.tax);
    // Once A is confirmed, B's recalculation gives the same share (what is left of the month's tax).
    const aDone = { ...a, tag: 1, gross: fa.gross, fiveOne: fa.fiveOne, tax: fa.tax };
    const fb2 = calculateMonth({ month: '2026-01', rows: [b], sameMonthOthers: [aDone], ledger: [], rates: book() }).figures.get(b.id)!;
    expect(fb2.tax).toBe(fb.tax);
  });

  it('refuses out-of-order months', () => {
    const jan = row({ month: '2026-01', companyName: 'A公司' });
    const mar = row({ month: '2026-03' });
    const r1 = calculateMonth({ month: '2026-03', rows: [mar], sameMonthOthers: [], ledger: [{ ...jan, tag: 0 }], rates: book() });
    expect(r1.problems[0].message).toContain('A公司2026-01的工资尚未确认');
    const r2 = calculateMonth({ month: '2026-01', rows: [jan], sameMonthOthers: [], ledger: [{ ...mar, tag: 1, gross: 1, fiveOne: 0, tax: 0 }], rates: book() });
    expect(r2.problems[0].message).toContain('已有更晚月份的已确认工资');
  });

  it('reports each bad row with the staff member and the field, and calculates none of them', () => {
    const rows = [
      row({ staffName: '缺基数', yanglaoBase: null }),
      row({ staffName: '缺比例', gjjRatio: null, ratioOverride: true }),
      row({ staffName: '扣款过多', koukuan: Y(9000) }),
      row({ staffName: '负数', jiaban: -1 }),
      row({ staffName: '户籍', censusType: '火星' }),
      row({ staffName: '无户籍', censusType: null }),
      row({ staffName: '过大', jiaban: Y(2_000_000) }),
      row({ staffName: '无工资', salary: null }),
    ];
    const rates: RateBook = new Map([...book(), ['火星', new RateError('RATE_CENSUS_NO_DICTIONARY', { census: '火星' })]]);
    const { problems } = calculateMonth({ month: '2026-01', rows, sameMonthOthers: [], ledger: [], rates });
    const byName = Object.fromEntries(problems.map((p) => [p.staffName, p.message]));
    expect(byName).toEqual({
      缺基数: '缺少养老保险基数（yanglaoBase）',
      缺比例: '缺少公积金比例（gjjRatio）',
      扣款过多: '扣款不能超过基本工资与加班费之和',
      负数: '加班费（jiaban）不能为负数',
      户籍: '户籍类型“火星”在字典 census_type 中没有对应的费率字典',
      无户籍: '缺少户籍类型（censusType）',
      过大: '加班费（jiaban）金额过大，不能超过1000000元',
      无工资: '缺少基本工资（salary）',
    });
  });

  it('insurance types: 五险 has no housing fund, 不参保 nothing, 劳务报酬 is taxed per payment', () => {
    const wuxian = row({ insureType: '五险', gjjBase: null });
    const none = row({ insureType: '不参保', censusType: null, yanglaoBase: null, idCard: '110101199003070038' });
    const labour = row({ taxesType: '劳务报酬', insureType: '不参保', salary: Y(3000), jiaban: 0, koukuan: 0, idCard: '110101199003070054' });
    const { figures, problems } = calculateMonth({ month: '2026-01', rows: [wuxian, none, labour], sameMonthOthers: [], ledger: [], rates: book() });
    expect(problems).toEqual([]);
    expect(figures.get(wuxian.id)).toMatchObject({ gongjijin: 0, fiveOne: Y(843) });
    expect(figures.get(none.id)).toMatchObject({ fiveOne: 0, gross: Y(8400) });
    expect(figures.get(labour.id)).toMatchObject({ tax: Y(440), realSalary: Y(2560), monthIndex: null });
  });

  it('property: a single row with history equals calculateMonthlySalary of the engine', () => {
    const yuan = (max: number) => fc.integer({ min: 0, max: max * 100 });
    fc.assert(
      fc.property(yuan(60000), yuan(5000), yuan(3000), yuan(4000), yuan(50000), fc.integer({ min: 0, max: 11 }), (salary, jiaban, koukuanRaw, deduct, baseRaw, months) => {
        const koukuan = Math.min(koukuanRaw, salary + jiaban);
        const baseFen = baseRaw;
        const r = row({ month: '2026-12', salary, jiaban, koukuan, deduct, yanglaoBase: baseFen, yiliaoBase: baseFen, shiyeBase: baseFen, gjjBase: baseFen });
        const history = Array.from({ length: months }, (_, i) => ({
          ...r,
          month: `2026-${String(i + 1).padStart(2, '0')}`,
          tag: 1,
          gross: salary,
          fiveOne: Y(1000),
          deduct,
          tax: Y(10),
        }));
        const rates = book('2026-12');
        const { figures, problems } = calculateMonth({ month: '2026-12', rows: [r], sameMonthOthers: [], ledger: history, rates });
        const version = rates.get('本农');
        if (version instanceof RateError || !version) throw new Error('rates');
        const expected = calculateMonthlySalary({
          salary,
          jiaban,
          koukuan,
          deduct,
          bases: { yanglao: baseFen, yiliao: baseFen, shiye: baseFen, gongjijin: baseFen },
          rates: version.rates,
          monthIndex: months + 1,
          previousMonths: history.map((h) => ({ gross: h.gross, fiveOne: h.fiveOne, deduct: h.deduct, tax: h.tax })),
        });
        // a month whose deductions exceed the pay is calculated (PB4): 实发 0.00 and the rest 应扣未扣
        expect(expected.realSalary).toBeGreaterThanOrEqual(0);
        expect(problems).toEqual([]);
        const f = figures.get(r.id)!;
        expect([f.gross, f.fiveOne, f.tax, f.realSalary, f.unpaid, f.cumulativeTaxable]).toEqual([expected.gross, expected.fiveOne, expected.tax, expected.realSalary, expected.unpaid, expected.cumulativeTaxable]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('splitTax', () => {
  it('adds up to the total and gives the left-over fen to the largest row', () => {
    expect(splitTax(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(splitTax(100, [1, 3])).toEqual([25, 75]);
    expect(splitTax(7, [0, 0])).toEqual([7, 0]);
    expect(splitTax(7, [-5, 2])).toEqual([0, 7]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_00 }), fc.array(fc.integer({ min: -1000, max: 1_000_000_000 }), { minLength: 1, maxLength: 5 }), (total, weights) => {
        const s = splitTax(total, weights);
        expect(s.reduce((a, b) => a + b, 0)).toBe(total);
        expect(s.every((x) => Number.isSafeInteger(x) && x >= 0)).toBe(true);
      }),
    );
  });
});
