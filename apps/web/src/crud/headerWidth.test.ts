import { describe, expect, it } from 'vitest';
import { fitHeaderWidth, headerMinWidth } from './headerWidth';

describe('header widths (W9 "Special deduction⏎s")', () => {
  it('widens a column to its longest Latin word, sorter included', () => {
    // the salary screen laid "Special deductions" out in 105 px: "deductions" alone needs more once sortable
    expect(headerMinWidth('Special deductions', true)).toBeGreaterThan(105);
    expect(fitHeaderWidth(105, 'Special deductions', true)).toBe(headerMinWidth('Special deductions', true));
    expect(headerMinWidth('Special deductions', false)).toBeLessThan(headerMinWidth('Special deductions', true));
  });

  it('leaves wide enough columns, Chinese headers, untitled and unsized columns alone', () => {
    expect(fitHeaderWidth(200, 'Special deductions', true)).toBe(200);
    expect(fitHeaderWidth(105, '专项附加扣除', true)).toBe(105);
    expect(fitHeaderWidth(90, undefined, true)).toBe(90);
    expect(fitHeaderWidth(undefined, '户籍类型', true)).toBeUndefined();
    // an unsized English column: at least its longest word
    expect(fitHeaderWidth(undefined, 'Employment status', true)).toBe(headerMinWidth('Employment status', true));
  });
});
