import type { CodedMessage } from '@app/shared/errors/catalogue';
import type { CellValue } from './types.ts';
import { shiftDecimal } from '@app/shared/percent';

/**
 * Turning what a spreadsheet cell holds into the text or number the resource validation expects. Users
 * type dates in many ways and Excel stores real dates as serial numbers, so date and month columns accept
 * both; amounts computed by formulas carry float noise, so money and ratios are rounded to their precision
 * when the difference is noise.
 */

const MS_PER_DAY = 86_400_000;
// Excel's 1900 date system counts from 1899-12-30 (it treats 1900 as a leap year; the shift is only
// wrong for dates before 1900-03-01, which no payroll record has).
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/** An Excel serial date (days, fraction = time of day) as YYYY-MM-DD, or null when out of range. */
export function excelSerialToDate(serial: number, date1904 = false): string | null {
  if (!Number.isFinite(serial) || serial < 1 || serial > 2_958_465) return null;
  const days = Math.floor(((date1904 ? EPOCH_1904 : EPOCH_1900) / MS_PER_DAY) + Math.floor(serial + 1e-9));
  return civilDate(days);
}

/**
 * YYYY-MM-DD of a day count since 1970-01-01 by integer arithmetic (the proleptic Gregorian "civil from
 * days" algorithm): imports convert hundreds of thousands of date cells, and Date objects cost more.
 */
function civilDate(daysSinceEpoch: number): string {
  const z = daysSinceEpoch + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${y}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}

const pad2 = (s: string) => (s.length === 1 ? `0${s}` : s);
const DATE_TEXT_RES: RegExp[] = [
  /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?(?:[ T].*)?$/,
  /^(\d{4})(\d{2})(\d{2})$/,
];
const MONTH_TEXT_RES: RegExp[] = [/^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*月?$/, /^(\d{4})(\d{2})$/];

/** A date typed as text (2024-01-02, 2024/1/2, 2024.01.02, 2024年1月2日, 20240102, ISO with time) as YYYY-MM-DD, else null. */
export function parseDateText(text: string): string | null {
  const s = text.trim();
  for (const re of DATE_TEXT_RES) {
    const m = re.exec(s);
    if (m) return `${m[1]}-${pad2(m[2])}-${pad2(m[3])}`;
  }
  return null;
}

/** A month typed as text (2024-01, 2024/1, 2024年1月, 202401, or a full date) as YYYY-MM, else null. */
export function parseMonthText(text: string): string | null {
  const s = text.trim();
  for (const re of MONTH_TEXT_RES) {
    const m = re.exec(s);
    if (m) return `${m[1]}-${pad2(m[2])}`;
  }
  return parseDateText(s)?.slice(0, 7) ?? null;
}

/** A number rounded to `places` decimals when it differs only by float noise (e.g. 0.30000000000000004). */
export function roundNoise(n: number, places: number): number {
  const rounded = Number(n.toFixed(places));
  return Math.abs(rounded - n) < 1e-9 * Math.max(1, Math.abs(n)) ? rounded : n;
}

/**
 * Plain decimal text of a number, never in exponent form for the magnitudes spreadsheets hold. Not for text
 * fields: integers of 16 or more digits print as the double's binary expansion (see textFieldCell).
 */
export function numberText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return BigInt(n).toString();
  const s = String(n);
  return /e/i.test(s) ? n.toFixed(10).replace(/\.?0+$/, '') : s;
}

/**
 * Excel keeps 15 significant digits of a number: an ID card typed into a General or Number cell as
 * 110105199208014238 is saved as 110105199208014000 (shown as 1.10105199208014E+17), and a program writing a
 * numeric cell may hold a 17-digit double. Digits beyond the 15th are gone or unreliable before the file
 * reaches us, so a text field never takes such a number (it would store a wrong ID card or bank card).
 */
export const EXCEL_SIGNIFICANT_DIGITS = 15;

/**
 * The exact text of a number cell meant as text (1.39e10 -> '13900000000', 0.5 -> '0.5', 1e-7 ->
 * '0.0000001'), or null when digits were lost: 16 or more integer digits, or more than 15 significant digits.
 */
export function exactNumberText(n: number): string | null {
  if (!Number.isFinite(n) || Math.abs(n) >= 1e15) return null;
  if (Number.isInteger(n)) return String(n); // below 1e15: plain digits ('0' for -0)
  // the shortest text that reads back as n: its digits are what the cell holds
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(n));
  if (!m) return null;
  const [, sign, int, frac = '', exp = '0'] = m;
  const digits = `${int}${frac}`;
  if (digits.replace(/^0+/, '').length > EXCEL_SIGNIFICANT_DIGITS) return null;
  const point = int.length + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

// Text such as '1.10105E+17': what Excel shows for a long number, copied or converted into a text cell.
const SCIENTIFIC_TEXT = /^[+-]?\d(?:\.\d+)?E\+(\d+)$/i;

/**
 * Cell content as the text of a text field (ID card, bank card, phone, staff number, names, dictionary and
 * reference labels), or null when the cell is a number whose last digits Excel lost (exactNumberText), or
 * text showing such a number in exponent form with 16 or more integer digits ('1.10105E+17').
 */
export function textFieldCell(cell: CellValue): string | null {
  if (typeof cell === 'number') return exactNumberText(cell);
  const text = cellText(cell);
  const sci = SCIENTIFIC_TEXT.exec(text);
  return sci && Number(sci[1]) >= EXCEL_SIGNIFICANT_DIGITS ? null : text;
}

/** The message for a text field whose cell lost digits (textFieldCell returned null). */
export function digitLossMessage(label: string): CodedMessage {
  return { code: 'EXCEL_DIGIT_LOSS', params: { label, digits: EXCEL_SIGNIFICANT_DIGITS } };
}

const DANGEROUS_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

/**
 * Text with a protective apostrophe before a leading =, +, -, @ (how formula-like text is kept as text in
 * some exports) as the plain value, so such files re-import unchanged.
 */
export function restoreNeutralizedText(s: string): string {
  return s.length > 1 && s[0] === "'" && DANGEROUS_START.test(s.slice(1)) && !PLAIN_NUMBER.test(s.slice(1)) ? s.slice(1) : s;
}

/**
 * Full-width ASCII (what a Chinese IME types in full-width mode: １３９, ８８８８．８８, ２０２５－０１－０２, （）, ％)
 * as ASCII, and the ideographic space as a space. Applied before numbers, dates, months, booleans, ID cards and
 * phones are parsed and before dictionary and reference labels are looked up; free text is stored as typed.
 */
export function foldWidth(s: string): string {
  return s.replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(/\u3000/g, ' ');
}

/** A string cell folded (foldWidth); other cells as they are. */
export function foldCell(cell: CellValue): CellValue {
  return typeof cell === 'string' ? foldWidth(cell) : cell;
}

/** A label as a field name that may already end with the word: 入职日期 + 日期 -> 入职日期, 出生 + 日期 -> 出生日期. */
export function labelWith(label: string, word: string): string {
  return label.endsWith(word) ? label : `${label}${word}`;
}

/** Cell content as trimmed text ('' for empty). */
export function cellText(cell: CellValue): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return numberText(cell);
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  return restoreNeutralizedText(cell.trim());
}

/** Is the cell empty (nothing or only whitespace)? */
export function isEmptyCell(cell: CellValue | undefined): boolean {
  return cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');
}

const TRUE_TEXT = new Set(['是', 'true', 'TRUE', 'True', '1', 'Y', 'y', 'yes', '√']);
const FALSE_TEXT = new Set(['否', 'false', 'FALSE', 'False', '0', 'N', 'n', 'no', '×']);

/** 是/否, TRUE/FALSE, 1/0 and boolean cells as booleans; null when none of these. */
export function parseBoolCell(cell: CellValue): boolean | null {
  if (typeof cell === 'boolean') return cell;
  if (typeof cell === 'number') return cell === 1 ? true : cell === 0 ? false : null;
  const s = cellText(cell);
  if (TRUE_TEXT.has(s)) return true;
  if (FALSE_TEXT.has(s)) return false;
  return null;
}

/** Amount text without currency signs, thousands separators and 元. */
export function cleanAmountText(s: string): string {
  return s.replace(/[¥￥,，\s]/g, '').replace(/元$/, '');
}

/**
 * A ratio cell, read by the rule the template states (RATIO_IMPORT_RULE): '8%' is 8 percent; a bare number of 1
 * or more is a percentage too ('8' and 8 are 8%); a bare number below 1 is the fraction itself (0.08 is 8%,
 * also what Excel stores for a cell formatted as 8%). So '8', '8%' and '0.08' all mean 0.08; a ratio below 1%
 * is written with its % sign ('0.5%') or as a fraction (0.005). Returns text or number for validation.
 */
export function ratioCell(cell: CellValue): string | number {
  const text = typeof cell === 'number' ? String(roundNoise(cell, 6)) : cleanAmountText(cellText(cell));
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(text);
  if (pct) return shiftDecimal(pct[1], 2) ?? text;
  if (!/^\d+(?:\.\d+)?$/.test(text)) return typeof cell === 'number' ? roundNoise(cell, 6) : text;
  // shift the decimal point in text, so 8.5 is exactly 0.085
  return Number(text) >= 1 ? (shiftDecimal(text, 2) ?? text) : typeof cell === 'number' ? roundNoise(cell, 6) : text;
}
