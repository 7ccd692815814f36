/**
 * Ratios are stored as fractions (0.08) and entered and shown as percentages (8%). The conversions move the
 * decimal point in the text, so 8.5% is exactly 0.085 and 0.085 exactly 8.5 (no binary floating point).
 */

const DECIMAL_RE = /^(-?)(\d*)(?:\.(\d*))?$/;

/** A decimal text with its point moved `places` to the left (negative: to the right); null for non-decimals. */
export function shiftDecimal(text: string, places: number): string | null {
  const m = DECIMAL_RE.exec(text.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return null;
  const [, sign, int, frac = ''] = m;
  const digits = `${int}${frac}`;
  const point = int.length - places;
  const padded = point <= 0 ? `${'0'.repeat(1 - point)}${digits}` : digits.padEnd(point, '0');
  const at = point <= 0 ? 1 : point;
  const whole = padded.slice(0, at).replace(/^0+(?=\d)/, '');
  const rest = padded.slice(at).replace(/0+$/, '');
  const out = rest ? `${whole}.${rest}` : whole;
  return out === '0' ? '0' : `${sign}${out}`;
}

/** A stored ratio (0.085) as the percentage number a form edits (8.5); undefined when empty. */
export function ratioToPercent(value: unknown): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const s = shiftDecimal(typeof value === 'number' ? numberText(value) : String(value), -2);
  return s === null ? undefined : Number(s);
}

/** A percentage a form edits (8.5 or '8.5') as the stored ratio text ('0.085'); null when empty or not a number. */
export function percentToRatio(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  return shiftDecimal(typeof value === 'number' ? numberText(value) : String(value), 2);
}

/** A number's plain decimal text (no exponent for the small ratios this handles). */
function numberText(n: number): string {
  const s = String(n);
  return /e/i.test(s) ? n.toFixed(12).replace(/\.?0+$/, '') : s;
}
