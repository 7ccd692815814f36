import { companyMonthSchema, currentChinaMonth, readCompanyMonth } from '@app/shared/contracts/salary';
import type { CodedMessage } from '@app/shared/errors/catalogue';
import { AppError } from '../../core/errors.ts';

export { companyMonthSchema, currentChinaMonth };

/** The body of generate/calculate/confirm: a company id and a month that is not in the future (400 otherwise). */
export function parseCompanyMonth(body: unknown, now = Date.now()): { companyId: number; month: string } {
  const read = readCompanyMonth(body, now);
  if ('companyId' in read) return read;
  throw fieldError(read.field, read.message, read.fieldMessage);
}

/** A 400 with `message` as its code and `fieldMessage` (the message itself by default) under `field`. */
export function fieldError(field: string, message: CodedMessage, fieldMessage = message): AppError {
  return new AppError(message.code, message.params ?? {}, { [field]: fieldMessage });
}

/** Salary months after the current one do not exist yet. */
export function assertNotFutureMonth(month: string, now = Date.now()): void {
  const current = currentChinaMonth(now);
  if (month > current) throw fieldError('month', { code: 'SALARY_FUTURE_MONTH', params: { month, current } }, { code: 'SALARY_FUTURE_MONTH_FIELD' });
}

/** First and last month of the tax year of `month`. */
export function taxYearOf(month: string): { from: string; to: string } {
  const y = month.slice(0, 4);
  return { from: `${y}-01`, to: `${y}-12` };
}
