import { describe, expect, it } from 'vitest';
import { formatFenTotal, sumFen } from './pageTotals';

describe('page totals (U5)', () => {
  it('adds amounts as integer fen: no floating point drift', () => {
    const rows = [{ a: 0.1 }, { a: 0.2 }, { a: '1,000.05' }, { a: null }, { a: '' }, {}];
    // 0.1 + 0.2 + 1000.05 as floats is 1000.3499999999999
    expect(0.1 + 0.2 + 1000.05).not.toBe(1000.35);
    expect(sumFen(rows, 'a')).toBe(100035);
    expect(formatFenTotal(sumFen(rows, 'a'))).toBe('1,000.35');
  });

  it('sums many cents exactly and keeps negatives', () => {
    const rows = Array.from({ length: 1000 }, () => ({ a: 0.01 }));
    expect(sumFen(rows, 'a')).toBe(1000);
    expect(sumFen([{ a: -296.51 }, { a: 296.5 }], 'a')).toBe(-1);
  });

  it('shows no total rather than a wrong one when a cell is not an amount', () => {
    expect(sumFen([{ a: 1 }, { a: 'abc' }], 'a')).toBeNull();
    expect(formatFenTotal(null)).toBe('');
  });
});
