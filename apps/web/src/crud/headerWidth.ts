/**
 * Findings W9, U17: antd table cells break a word that does not fit ("Special deduction⏎s", 专项附加扣⏎除)
 * because they set `overflow-wrap: break-word`. A column is made at least as wide as the longest unbreakable
 * piece of its header: a Latin word, or a run of Chinese/Japanese characters up to a space or an opening
 * parenthesis (五险一金 | (个人)). The table's headers carry `word-break: keep-all` (crud.css), so they wrap
 * only at those points.
 */

/** Cell padding on both sides by table size (antd: 16 px large, 8 px middle and small) plus room for rounding. */
const PADDING = { large: 16 * 2 + 4, middle: 8 * 2 + 4, small: 8 * 2 + 4 } as const;
export type TableSize = keyof typeof PADDING;
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

/** A Chinese or Japanese character, or a full-width sign, set at the full em of 14 px. */
const WIDE = /[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]/;

/** The pieces of a header between which a line may break: at spaces and before an opening parenthesis. */
function unbreakablePieces(title: string): string[] {
  return title.split(/\s+|(?=[(（])/).filter((p) => p.length > 0);
}

/** The width the longest unbreakable piece of `title` needs, with padding and sorter; 0 when it has none. */
export function headerMinWidth(title: unknown, sortable: boolean, size: TableSize = 'large', oneLine = false): number {
  if (typeof title !== 'string') return 0;
  // an ellipsis column keeps its header on one line ("Sta…" for "Staff no."): all of it must fit
  const longest = Math.max(0, ...(oneLine ? [title] : unbreakablePieces(title)).map((w) => [...w].reduce((sum, c) => sum + (WIDE.test(c) ? 14.5 : charWidth(c)), 0)));
  return longest === 0 ? 0 : Math.ceil(longest + PADDING[size] + (sortable ? SORTER : 0));
}

/**
 * A column's width widened to fit its header's longest piece (a width the user dragged is kept as is). An
 * unsized column gets that width too: on a scrolling table antd squeezes unsized columns to what is left
 * (工号 became "工·" on 工资条).
 */
export function fitHeaderWidth(width: number | undefined, title: unknown, sortable: boolean, size: TableSize = 'large', oneLine = false): number | undefined {
  const min = headerMinWidth(title, sortable, size, oneLine);
  if (width === undefined) return min || undefined;
  return Math.max(width, min);
}
