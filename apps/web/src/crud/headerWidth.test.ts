import { describe, expect, it } from 'vitest';
import { fitHeaderWidth, headerMinWidth } from './headerWidth';

describe('header widths (W9 "Special deduction⏎s")', () => {
  it('widens a column to its longest Latin word, sorter included', () => {
    // the salary screen laid "Special deductions" out in 105 px: "deductions" alone needs more once sortable
    expect(headerMinWidth('Special deductions', true)).toBeGreaterThan(105);
    expect(fitHeaderWidth(105, 'Special deductions', true)).toBe(headerMinWidth('Special deductions', true));
    expect(headerMinWidth('Special deductions', false)).toBeLessThan(headerMinWidth('Special deductions', true));
  });

  it('widens a sized column to its whole Chinese header, breaking only before a parenthesis (U17 专项附加扣⏎除)', () => {
    // six characters and the sorter do not fit in 105 px
    expect(fitHeaderWidth(105, '专项附加扣除', true)).toBeGreaterThan(6 * 14 + 22 + 32);
    // 五险一金(个人) may break before "(": its longest piece is 五险一金
    expect(headerMinWidth('五险一金(个人)', false)).toBe(headerMinWidth('五险一金', false));
    expect(headerMinWidth('社保公积金合计', false)).toBeGreaterThan(headerMinWidth('五险一金', false));
  });

  it('leaves wide enough columns, untitled and unsized Chinese columns alone', () => {
    expect(fitHeaderWidth(200, 'Special deductions', true)).toBe(200);
    expect(fitHeaderWidth(200, '专项附加扣除', true)).toBe(200);
    expect(fitHeaderWidth(90, undefined, true)).toBe(90);
    // an unsized column is not squeezed below its header (工号 on 工资条 read "工·")
    expect(fitHeaderWidth(undefined, '工号', true)).toBe(headerMinWidth('工号', true));
    // an ellipsis column's header stays on one line: all of it must fit
    expect(headerMinWidth('Staff no.', true, 'middle', true)).toBeGreaterThan(headerMinWidth('Staff no.', true, 'middle'));
    // antd's middle tables pad cells by 8 px instead of 16
    expect(headerMinWidth('专项附加扣除', true, 'middle')).toBe(headerMinWidth('专项附加扣除', true) - 16);
    // an unsized English column: at least its longest word
    expect(fitHeaderWidth(undefined, 'Employment status', true)).toBe(headerMinWidth('Employment status', true));
  });
});
