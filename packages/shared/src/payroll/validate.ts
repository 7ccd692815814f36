import { PayrollInputError } from './errors.ts';

/** Throws unless `value` is an integer amount of fen (a safe integer), non-negative unless `allowNegative`. */
export function assertFen(value: unknown, field: string, allowNegative = false): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new PayrollInputError(field, `${field} 必须是整数金额（分）`, `${field} must be an integer amount of fen`);
  }
  if (!allowNegative && value < 0) {
    throw new PayrollInputError(field, `${field} 不能为负数`, `${field} must not be negative`);
  }
}

/** Like {@link assertFen} but `undefined` reads as 0. */
export function optionalFen(value: unknown, field: string): number {
  if (value === undefined) return 0;
  assertFen(value, field);
  return value;
}

/** Throws unless `value` is an integer month index 1..12. */
export function assertMonthIndex(value: unknown, field = 'monthIndex'): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 12) {
    throw new PayrollInputError(field, `${field} 必须是 1 到 12 的整数`, `${field} must be an integer from 1 to 12`);
  }
}
