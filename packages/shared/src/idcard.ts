/**
 * Chinese resident identity card numbers (GB 11643-1999): 18 digits = 6 region + 8 birth date (YYYYMMDD)
 * + 3 sequence (17th digit odd = male) + ISO 7064 MOD 11-2 check character (0-9 or X).
 * The old 15-digit form (6 region + YYMMDD + 3 sequence, births in 19xx) is converted to 18 digits.
 */

/** Why a value was rejected. */
export type IdCardRejection = 'EMPTY' | 'FORMAT' | 'REGION' | 'BIRTH_DATE' | 'FUTURE_BIRTH' | 'CHECK_DIGIT';

/** A valid ID card with the facts read from it. */
export interface IdCardInfo {
  readonly ok: true;
  /** Normalised 18-character form, check character uppercase. */
  readonly idCard: string;
  readonly sex: '男' | '女';
  /** YYYY-MM-DD */
  readonly born: string;
  /** Whole years on `today`. */
  readonly age: number;
}

/** A rejected value: the spec's message plus a machine-readable reason. */
export interface IdCardError {
  readonly ok: false;
  readonly message: '身份证号码不正确';
  readonly reason: IdCardRejection;
}

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] as const; // 2^(17-i) mod 11
const CHECK_CHARS = '10X98765432';
const PROVINCES = new Set([
  11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 50, 51, 52, 53, 54, 61, 62, 63, 64, 65,
  71, 81, 82, 83, 91,
]);
const EARLIEST_BIRTH_YEAR = 1800; // GB 11643's own example is born in 1880
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const CHINA_UTC_OFFSET_MS = 8 * 3600 * 1000;

/** ISO 7064 MOD 11-2 check character ('0'-'9' or 'X') for the first 17 digits; throws if not 17 digits. */
export function idCardCheckDigit(first17: string): string {
  if (!/^\d{17}$/.test(first17)) throw new RangeError('idCardCheckDigit needs exactly 17 digits');
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (first17.charCodeAt(i) - 48) * WEIGHTS[i];
  return CHECK_CHARS[sum % 11];
}

function isRealDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** Today's date in China (UTC+8, no daylight saving) as YYYY-MM-DD, so results do not depend on the server's zone. */
function todayInChina(): string {
  return new Date(Date.now() + CHINA_UTC_OFFSET_MS).toISOString().slice(0, 10);
}

const fail = (reason: IdCardRejection): IdCardError => ({ ok: false, message: '身份证号码不正确', reason });

/** Validates and reads a resident ID card number (18 digits, or old 15 digits); `today` (YYYY-MM-DD) fixes the age. */
export function parseIdCard(value: string, today?: string): IdCardInfo | IdCardError {
  const now = today ?? todayInChina();
  const t = DATE_RE.exec(now);
  if (!t || !isRealDate(Number(t[1]), Number(t[2]), Number(t[3]))) throw new RangeError(`today must be a YYYY-MM-DD date, got ${now}`);

  const s = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (s === '') return fail('EMPTY');
  let id: string;
  if (/^\d{15}$/.test(s)) {
    const first17 = `${s.slice(0, 6)}19${s.slice(6)}`;
    id = first17 + idCardCheckDigit(first17);
  } else if (/^\d{17}[\dX]$/.test(s)) {
    id = s;
  } else {
    return fail('FORMAT');
  }

  if (!PROVINCES.has(Number(id.slice(0, 2)))) return fail('REGION');
  const y = Number(id.slice(6, 10));
  const m = Number(id.slice(10, 12));
  const d = Number(id.slice(12, 14));
  if (y < EARLIEST_BIRTH_YEAR || !isRealDate(y, m, d)) return fail('BIRTH_DATE');
  const born = `${id.slice(6, 10)}-${id.slice(10, 12)}-${id.slice(12, 14)}`;
  if (born > now) return fail('FUTURE_BIRTH'); // same fixed-width format, so string order is date order
  if (idCardCheckDigit(id.slice(0, 17)) !== id[17]) return fail('CHECK_DIGIT');

  const [ty, tmd] = [Number(now.slice(0, 4)), now.slice(5)];
  const age = ty - y - (tmd < born.slice(5) ? 1 : 0);
  const sex = (id.charCodeAt(16) - 48) % 2 === 1 ? '男' : '女';
  return { ok: true, idCard: id, sex, born, age };
}

/** First 6 and last 4 characters of an ID card number, the rest hidden (statements, delivery evidence); all hidden when shorter. */
export function maskIdCard(idCard: string): string {
  const s = idCard.trim();
  if (s.length <= 10) return s.replace(/./g, '*');
  return `${s.slice(0, 6)}${'*'.repeat(s.length - 10)}${s.slice(-4)}`;
}
