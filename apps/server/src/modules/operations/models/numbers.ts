import type { ModelInput, Row } from './types.ts';

/**
 * Exact figures for model outputs: money is summed in integer fen and printed as yuan with two decimals; shares
 * are rounded half-up in integer arithmetic, never by summing floats.
 */

const DECIMAL_RE = /^([+-])?(\d+)(?:\.(\d+))?$/;

/** Yuan (number or decimal text, thousands separators allowed) to integer fen, half-up past two decimals; null when blank or not a number. */
export function toFen(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    // a number arrives as the shortest decimal that prints it: go through its text, not value * 100
    return toFen(String(value));
  }
  const text = String(value).trim().replace(/[,，\s]/g, '').replace(/^¥/, '');
  if (text === '') return null;
  const m = DECIMAL_RE.exec(text.includes('e') || text.includes('E') ? Number(text).toFixed(6) : text);
  if (!m) return null;
  const frac = (m[3] ?? '').padEnd(3, '0');
  let fen = Number(m[2]) * 100 + Number(frac.slice(0, 2));
  if (Number(frac[2]) >= 5) fen += 1;
  if (!Number.isSafeInteger(fen)) return null;
  return m[1] === '-' ? -fen : fen;
}

/** Integer fen to yuan for a cell (one correctly rounded division prints the exact two-decimal value). */
export const fenToYuan = (fen: number): number => fen / 100 + 0;

/** part / whole as a percentage with two decimals, half-up, computed on integers (0 when whole is 0). */
export function percent(part: number, whole: number): number {
  if (whole === 0) return 0;
  const hundredths = Math.floor((part * 20000 + whole) / (2 * whole));
  return hundredths / 100;
}

/** Rows of a model input, checking the abort signal and reporting progress every 5,000 rows. */
export async function* eachRow(input: ModelInput, counter: { read: number }): AsyncGenerator<Row> {
  for await (const row of input.rows) {
    counter.read += 1;
    if (counter.read % 5000 === 0) {
      input.signal?.throwIfAborted();
      await input.onRows?.(counter.read);
    }
    yield row;
  }
  await input.onRows?.(counter.read);
}

/** A cell's text as a category value ('' for blank). */
export function categoryOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).trim();
}

/** The month before `today`'s month (YYYY-MM). */
export function previousMonth(today: string): string {
  const [y, m] = today.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** Days from `from` to `to` (YYYY-MM-DD), negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** A date cell as YYYY-MM-DD, or null. */
export function dateOf(value: unknown): string | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  const s = categoryOf(value).replace(/\//g, '-');
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(s);
  return m ? `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}` : null;
}
