/**
 * Findings W9: antd table cells break a word that does not fit ("Special deduction⏎s") because they set
 * `overflow-wrap: break-word`. A column is made at least as wide as the longest Latin word of its header, so
 * headers wrap between words only. Chinese and Japanese headers may break between any two characters, so
 * they never widen a column (their screens keep the widths they were laid out with).
 */

/** Cell padding on both sides (antd's default table size) plus a little room for rounding. */
const PADDING = 16 * 2 + 4;
/** The sort arrows beside a sortable header. */
const SORTER = 22;

/** Rough advance of a semibold 14 px sans-serif character: narrow, wide and ordinary Latin letters. */
function charWidth(c: string): number {
  if (/[iljtf.,:;'!|()\-/ ]/.test(c)) return 4.6;
  if (/[mwMW]/.test(c)) return 12.5;
  if (/[A-Z]/.test(c)) return 9.8;
  if (/[0-9]/.test(c)) return 8.2;
  return 8;
}

/** The width the longest Latin word of `title` needs, with padding and sorter; 0 when it has none. */
export function headerMinWidth(title: unknown, sortable: boolean): number {
  if (typeof title !== 'string') return 0;
  const words = title.match(/[A-Za-z0-9][A-Za-z0-9.'()\-/]*/g) ?? [];
  const longest = Math.max(0, ...words.map((w) => [...w].reduce((sum, c) => sum + charWidth(c), 0)));
  return longest === 0 ? 0 : Math.ceil(longest + PADDING + (sortable ? SORTER : 0));
}

/**
 * A column's width widened to fit its header's longest word (a width the user dragged is kept as is). An
 * unsized column gets that width too: on a scrolling table antd squeezes unsized columns to what is left.
 */
export function fitHeaderWidth(width: number | undefined, title: unknown, sortable: boolean): number | undefined {
  const min = headerMinWidth(title, sortable);
  if (width === undefined) return min || undefined;
  return Math.max(width, min);
}
