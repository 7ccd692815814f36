import DecimalBase from 'decimal.js';
import { PayrollInputError } from './errors.ts';
import { assertFen } from './validate.ts';

/** An amount of money in integer fen (1 yuan = 100 fen); always a safe integer. */
export type Fen = number;

/** A ratio such as 0.08 or '0.005' (decimal strings are exact; numbers are read by their shortest decimal form). */
export type Ratio = number | string;

/** HALF_UP: half away from zero; UP: away from zero (见分进角); DOWN: toward zero (truncate). */
export type RoundingMode = 'HALF_UP' | 'UP' | 'DOWN';

/** Round to `scale` decimals of a yuan (2 = fen, 1 = jiao, 0 = whole yuan) with `mode`. */
export interface RoundingRule {
  readonly scale: 0 | 1 | 2;
  readonly mode: RoundingMode;
}

/** Default social-insurance rounding: half-up to the fen (0.01 yuan). */
export const SOCIAL_INSURANCE_ROUNDING: RoundingRule = Object.freeze({ scale: 2, mode: 'HALF_UP' });
/** Default housing-fund rounding: half-up to the whole yuan. */
export const HOUSING_FUND_ROUNDING: RoundingRule = Object.freeze({ scale: 0, mode: 'HALF_UP' });
/** Tax rounding: half-up to the fen. */
export const TAX_ROUNDING: RoundingRule = Object.freeze({ scale: 2, mode: 'HALF_UP' });

/**
 * The engine's own Decimal constructor, so that no global decimal.js configuration (set by other code) changes
 * the results. 40 significant digits hold any safe-integer fen amount times any ratio exactly.
 */
export const PayrollDecimal = DecimalBase.clone({ precision: 40, rounding: DecimalBase.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });
/** An instance of {@link PayrollDecimal}. */
export type PayrollDecimal = InstanceType<typeof PayrollDecimal>;

const MODE: Record<RoundingMode, DecimalBase.Rounding> = {
  HALF_UP: DecimalBase.ROUND_HALF_UP,
  UP: DecimalBase.ROUND_UP,
  DOWN: DecimalBase.ROUND_DOWN,
};
const UNIT_FEN = [100, 10, 1] as const; // fen per rounding unit, indexed by scale

/** Throws unless `rule` is a valid {@link RoundingRule}. */
export function assertRoundingRule(rule: unknown, field: string): asserts rule is RoundingRule {
  const r = rule as RoundingRule | null;
  if (typeof r !== 'object' || r === null || (r.scale !== 0 && r.scale !== 1 && r.scale !== 2) || !(r.mode in MODE)) {
    throw new PayrollInputError(field, 'PAYROLL_INPUT_ROUNDING', { field });
  }
}

/** Rounds an exact amount of fen (a Decimal) by `rule` and returns integer fen. */
export function roundFen(valueFen: PayrollDecimal, rule: RoundingRule): Fen {
  const unit = UNIT_FEN[rule.scale];
  const mode = MODE[rule.mode];
  const rounded = unit === 1 ? valueFen.toDecimalPlaces(0, mode) : valueFen.toNearest(unit, mode);
  return rounded.toNumber() + 0; // + 0 turns -0 into 0
}

/** `fen × ratio`, computed exactly and rounded once by `rule`. */
export function multiplyFen(fen: Fen, ratio: PayrollDecimal, rule: RoundingRule): Fen {
  return roundFen(ratio.times(fen), rule);
}

const RATIO_RE = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

// Rates come from a handful of dictionary rows, so parsed ratios are memoised; the cap keeps odd inputs from
// growing it without bound.
const ratioCache = new Map<Ratio, PayrollDecimal>();
const RATIO_CACHE_LIMIT = 1024;

/** Parses and checks a ratio in [0, 1]; throws {@link PayrollInputError} naming `field` otherwise. */
export function parseRatio(value: Ratio, field: string): PayrollDecimal {
  const cached = ratioCache.get(value);
  if (cached !== undefined) return cached;
  const d = parseRatioUncached(value, field);
  if (ratioCache.size >= RATIO_CACHE_LIMIT) ratioCache.clear();
  ratioCache.set(value, d);
  return d;
}

function parseRatioUncached(value: Ratio, field: string): PayrollDecimal {
  let d: PayrollDecimal | null = null;
  if (typeof value === 'number' && Number.isFinite(value)) d = new PayrollDecimal(value);
  else if (typeof value === 'string' && RATIO_RE.test(value.trim())) d = new PayrollDecimal(value.trim());
  if (d === null || d.isNegative() || d.greaterThan(1)) {
    throw new PayrollInputError(field, 'PAYROLL_INPUT_RATIO', { field });
  }
  return d;
}

const YUAN_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** Converts yuan (number or decimal string, at most 2 decimals) to integer fen exactly; throws otherwise. */
export function yuanToFen(value: number | string, field = 'value'): Fen {
  let d: PayrollDecimal | null = null;
  if (typeof value === 'number' && Number.isFinite(value)) d = new PayrollDecimal(value);
  else if (typeof value === 'string' && YUAN_RE.test(value.trim())) d = new PayrollDecimal(value.trim());
  if (d === null) {
    throw new PayrollInputError(field, 'PAYROLL_INPUT_AMOUNT', { field });
  }
  if (d.decimalPlaces() > 2) {
    throw new PayrollInputError(field, 'PAYROLL_INPUT_DECIMALS', { field });
  }
  const fen = d.times(100).toNumber() + 0;
  if (!Number.isSafeInteger(fen)) {
    throw new PayrollInputError(field, 'PAYROLL_INPUT_AMOUNT_RANGE', { field });
  }
  return fen;
}

/** Converts integer fen to yuan as a number (the nearest double to the exact decimal, e.g. 1005 -> 10.05). */
export function fenToYuan(fen: Fen): number {
  assertFen(fen, 'fen', true);
  return fen / 100 + 0; // one correctly rounded division: prints as the exact two-decimal value
}
