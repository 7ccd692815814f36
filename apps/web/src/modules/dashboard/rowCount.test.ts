import { describe, expect, it } from 'vitest';
import { rowCountValue } from './rowCount';

describe('row counts on the home screen (U10)', () => {
  it('shows small counts as they are and compacts only from 10,000, in each language', () => {
    expect(rowCountValue(5, 'zh')).toBe('5');
    expect(rowCountValue(9999, 'zh')).toBe('9,999');
    expect(rowCountValue(10_000, 'zh')).toBe('1万');
    expect(rowCountValue(12_345, 'zh')).toBe('1.23万');
    expect(rowCountValue(12_345, 'ja')).toBe('1.23万');
    expect(rowCountValue(12_345, 'en')).toBe('12.35K');
    expect(rowCountValue(12_345, 'es')).toBe('12,35\u00a0mil');
    expect(rowCountValue(Number.NaN, 'en')).toBe('0');
  });
});
