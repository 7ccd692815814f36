import { PayrollInputError } from './errors.ts';

/** Throws unless `value` is an integer amount of fen (a safe integer), non-negative unless `allowNegative`. */
export function assertFen(value: unknown, field: string, allowNegative = false): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new PayrollInputError(field, 'PAYROLL_INPUT_NOT_FEN', { field });
  }
  if (!allowNegative && value < 0) {
    throw new PayrollInputError(field, 'PAYROLL_INPUT_NEGATIVE', { field });
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
    throw new PayrollInputError(field, 'PAYROLL_INPUT_MONTH_INDEX', { field });
  }
}
