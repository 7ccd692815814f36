import { describe, expect, it } from 'vitest';
import { percentToRatio, ratioToPercent, shiftDecimal } from './percent.ts';

describe('percentages and ratios', () => {
  it('moves the decimal point exactly', () => {
    expect(shiftDecimal('8', 2)).toBe('0.08');
    expect(shiftDecimal('8.5', 2)).toBe('0.085');
    expect(shiftDecimal('16', 2)).toBe('0.16');
    expect(shiftDecimal('0.5', 2)).toBe('0.005');
    expect(shiftDecimal('100', 2)).toBe('1');
    expect(shiftDecimal('0', 2)).toBe('0');
    expect(shiftDecimal('0.085', -2)).toBe('8.5');
    expect(shiftDecimal('0.16', -2)).toBe('16');
    expect(shiftDecimal('1', -2)).toBe('100');
    expect(shiftDecimal('0.000001', -2)).toBe('0.0001');
    expect(shiftDecimal('abc', 2)).toBeNull();
    expect(shiftDecimal('', 2)).toBeNull();
  });
  it('converts form percentages and stored ratios both ways', () => {
    expect(ratioToPercent(0.16)).toBe(16);
    expect(ratioToPercent('0.085')).toBe(8.5);
    expect(ratioToPercent(0.07)).toBe(7); // 0.07 * 100 is 7.000000000000001 in floating point
    expect(ratioToPercent(null)).toBeUndefined();
    expect(percentToRatio(16)).toBe('0.16');
    expect(percentToRatio('8.5')).toBe('0.085');
    expect(percentToRatio(0.5)).toBe('0.005');
    expect(percentToRatio('')).toBeNull();
  });
});
