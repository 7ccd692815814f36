import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fenToYuan, PayrollDecimal, PayrollInputError, parseRatio, roundFen, yuanToFen } from './index.ts';

describe('yuanToFen / fenToYuan', () => {
  it('converts exactly, including the classic float traps', () => {
    expect(yuanToFen(1.05)).toBe(105);
    expect(yuanToFen('8400.00')).toBe(840000);
    expect(yuanToFen(179.06)).toBe(17906);
    expect(yuanToFen(0.29)).toBe(29); // 0.29 * 100 = 28.999999999999996 in floats
    expect(yuanToFen(1.15)).toBe(115); // 1.15 * 100 = 114.99999999999999
    expect(yuanToFen('-12.3')).toBe(-1230);
    expect(yuanToFen(' 7 ')).toBe(700);
    expect(yuanToFen('1.500')).toBe(150); // value has one decimal
    expect(fenToYuan(17906)).toBe(179.06);
    expect(fenToYuan(-1)).toBe(-0.01);
    expect(Object.is(fenToYuan(0), 0)).toBe(true);
  });

  it('throws PayrollInputError on more than two decimals or non-numbers', () => {
    for (const bad of [1.005, '1.005', 0.1 + 0.2, Number.NaN, Number.POSITIVE_INFINITY, 'abc', '', '1e3x', '1,000']) {
      expect(() => yuanToFen(bad as number | string)).toThrow(PayrollInputError);
    }
    expect(() => yuanToFen(1e20)).toThrow(PayrollInputError); // not a safe integer of fen
    expect(() => fenToYuan(1.5)).toThrow(PayrollInputError);
  });

  it('property: round trip fen -> yuan -> fen, and yuan string -> fen is exact', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (f) => {
        expect(yuanToFen(fenToYuan(f))).toBe(f);
        const abs = Math.abs(f);
        const s = `${f < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
        expect(yuanToFen(s)).toBe(f);
        expect(String(fenToYuan(f))).toBe(String(Number(s)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('roundFen', () => {
  const d = (v: string) => new PayrollDecimal(v);
  it('HALF_UP / UP / DOWN at each scale', () => {
    expect(roundFen(d('17905.5'), { scale: 2, mode: 'HALF_UP' })).toBe(17906);
    expect(roundFen(d('17905.4999'), { scale: 2, mode: 'HALF_UP' })).toBe(17905);
    expect(roundFen(d('17905.5'), { scale: 2, mode: 'DOWN' })).toBe(17905);
    expect(roundFen(d('17905.01'), { scale: 2, mode: 'UP' })).toBe(17906);
    expect(roundFen(d('429732'), { scale: 0, mode: 'HALF_UP' })).toBe(429700);
    expect(roundFen(d('429750'), { scale: 0, mode: 'HALF_UP' })).toBe(429800);
    expect(roundFen(d('429701'), { scale: 0, mode: 'UP' })).toBe(429800);
    expect(roundFen(d('429799'), { scale: 0, mode: 'DOWN' })).toBe(429700);
    // Shanghai 见分进角: any fen rounds up to the next jiao
    expect(roundFen(d('64001'), { scale: 1, mode: 'UP' })).toBe(64010);
    expect(roundFen(d('64000'), { scale: 1, mode: 'UP' })).toBe(64000);
    expect(roundFen(d('64005'), { scale: 1, mode: 'HALF_UP' })).toBe(64010);
    expect(roundFen(d('64004.99'), { scale: 1, mode: 'HALF_UP' })).toBe(64000);
  });

  it('ignores the global decimal.js configuration', async () => {
    const { default: Decimal } = await import('decimal.js');
    const saved = Decimal.rounding;
    Decimal.set({ rounding: Decimal.ROUND_DOWN });
    try {
      expect(roundFen(d('0.5'), { scale: 2, mode: 'HALF_UP' })).toBe(1);
    } finally {
      Decimal.set({ rounding: saved });
    }
  });
});

describe('parseRatio', () => {
  it('accepts numbers and decimal strings in [0, 1]', () => {
    expect(parseRatio(0.08, 'r').toString()).toBe('0.08');
    expect(parseRatio('0.005', 'r').toString()).toBe('0.005');
    expect(parseRatio(0, 'r').toString()).toBe('0');
    expect(parseRatio('1', 'r').toString()).toBe('1');
  });
  it('rejects values outside [0, 1] and non-numbers with the field name', () => {
    for (const bad of [-0.01, 1.0001, '2', '-0.1', '8%', '', Number.NaN, 'abc']) {
      try {
        parseRatio(bad, 'yanglaoRatioSelf');
        expect.unreachable(`accepted ${String(bad)}`);
      } catch (e) {
        expect(e).toBeInstanceOf(PayrollInputError);
        expect((e as PayrollInputError).field).toBe('yanglaoRatioSelf');
      }
    }
  });
});
