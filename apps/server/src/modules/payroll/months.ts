import { companyMonthSchema, currentChinaMonth, readCompanyMonth } from '@app/shared/contracts/salary';
import { badRequest } from '../../core/errors.ts';

export { companyMonthSchema, currentChinaMonth };

/** The body of generate/calculate/confirm: a company id and a month that is not in the future (400 otherwise). */
export function parseCompanyMonth(body: unknown, now = Date.now()): { companyId: number; month: string } {
  const read = readCompanyMonth(body, now);
  if ('companyId' in read) return read;
  throw badRequest(read.message, { [read.field]: read.fieldMessage });
}

/** Salary months after the current one do not exist yet. */
export function assertNotFutureMonth(month: string, now = Date.now()): void {
  const current = currentChinaMonth(now);
  if (month > current) throw badRequest(`不能处理未来月份（${month}）的工资，当前月份为${current}`, { month: '不能选择未来月份' });
}

/** First and last month of the tax year of `month`. */
export function taxYearOf(month: string): { from: string; to: string } {
  const y = month.slice(0, 4);
  return { from: `${y}-01`, to: `${y}-12` };
}
