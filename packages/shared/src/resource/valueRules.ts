/**
 * The value rules every layer shares: the storage bounds of numbers and amounts, real dates and months, the mainland
 * mobile pattern, and the one conversion between yuan (API) and fen (database).
 */

/** Largest and smallest values an integer column holds on every supported database (int4 / INT / SQLite). */
export const INT_MAX = 2_147_483_647;
export const INT_MIN = -2_147_483_648;
/** Amounts at or above ten billion yuan are refused (fen fit a bigint and a double exactly). */
export const MONEY_LIMIT_YUAN = 10_000_000_000;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH_RE = /^(\d{4})-(\d{2})$/;

/**
 * A mainland mobile number: 11 digits, 1 then 3-9 (every number range issued today, 16x and 19x included).
 * The spec's user form keeps its own narrower rule (1[34578]); staff phones have no format in the spec. The
 * international form (+86 before the 11 digits) is the same number and is kept as typed.
 */
export const MAINLAND_MOBILE = { regex: /^(?:\+86[ -]?)?1[3-9]\d{9}$/, message: '请输入正确的11位手机号码' };

/** How an import reads a ratio cell (the template's hint; the server's ratioCell follows it). */
export const RATIO_IMPORT_RULE = '比例：8、8% 或 0.08 均表示 8%（1 及以上按百分数；低于 1% 请带 % 号，如 0.5%）';

/** Is `s` a real calendar date YYYY-MM-DD? */
export function isValidDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1900 || y > 2200 || mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d <= days;
}

/** Is `s` a month YYYY-MM? */
export function isValidMonth(s: string): boolean {
  const m = MONTH_RE.exec(s);
  return !!m && Number(m[1]) >= 1900 && Number(m[1]) <= 2200 && Number(m[2]) >= 1 && Number(m[2]) <= 12;
}

/** Does a text hold a NUL character (which PostgreSQL cannot store and no user types)? */
export const hasNul = (s: string): boolean => s.includes('\u0000');

// ---- money: the one conversion between yuan (API) and fen (database) --------------------------------------

/** Exact yuan (number or string with <= 2 decimals, already validated) to integer fen, without float maths. */
export function yuanToFenExact(v: number | string): number {
  // a validated amount has at most two decimals below 1e10 yuan: v * 100 is within far less than half a fen
  if (typeof v === 'number') return Math.round(v * 100) + 0;
  const s = v.trim();
  const neg = s.startsWith('-');
  const [int, frac = ''] = (neg ? s.slice(1) : s).split('.');
  const fen = Number(int) * 100 + Number((frac + '00').slice(0, 2));
  return neg ? -fen : fen;
}

/** Integer fen to yuan for JSON (e.g. 123456 -> 1234.56). */
export function fenToYuanNumber(fen: number | null | undefined): number | null {
  if (fen === null || fen === undefined) return null;
  return Number((fen / 100).toFixed(2));
}
