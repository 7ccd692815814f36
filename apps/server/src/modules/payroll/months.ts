import { INT_MAX, isValidMonth } from '@app/shared/resource';
import { z } from 'zod';
import { AppError, badRequest } from '../../core/errors.ts';

const CHINA_OFFSET_MS = 8 * 3600 * 1000;

/** The current month in China (UTC+8), 'YYYY-MM'. */
export function currentChinaMonth(now = Date.now()): string {
  return new Date(now + CHINA_OFFSET_MS).toISOString().slice(0, 7);
}

/** The body of generate/calculate/confirm: a company id and a month that is not in the future. */
export function parseCompanyMonth(body: unknown, now = Date.now()): { companyId: number; month: string } {
  const b = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const rawId = b.companyId;
  if (rawId === undefined || rawId === null || rawId === '') throw badRequest('请选择一个单位', { companyId: '请选择一个单位' });
  // only a number or a digit string: Number()/String() of an object such as {"toString":"x"} throws
  if (typeof rawId !== 'number' && typeof rawId !== 'string') throw badRequest('单位ID无效', { companyId: '单位ID无效' });
  const companyId = Number(rawId);
  if (!/^\d{1,10}$/.test(String(rawId)) || !Number.isSafeInteger(companyId) || companyId <= 0 || companyId > INT_MAX) throw badRequest('单位ID无效', { companyId: '单位ID无效' });
  const month = typeof b.month === 'string' ? b.month.trim() : '';
  if (!month) throw badRequest('请选择月份', { month: '请选择月份' });
  if (!isValidMonth(month)) throw badRequest('月份格式应为YYYY-MM', { month: '月份格式应为YYYY-MM' });
  assertNotFutureMonth(month, now);
  return { companyId, month };
}

/** Route schema of `{companyId, month}` (body or query string): parseCompanyMonth's checks and messages. */
export const companyMonthSchema = z
  .unknown()
  .transform((raw, ctx) => {
    try {
      return parseCompanyMonth(raw);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const key = Object.keys(err.fieldErrors ?? {})[0];
      ctx.addIssue({ code: 'custom', message: err.message, input: raw, path: key ? [key] : [] });
      return z.NEVER;
    }
  })
  .meta({
    type: 'object',
    required: ['companyId', 'month'],
    properties: { companyId: { type: 'integer', minimum: 1, maximum: INT_MAX }, month: { type: 'string', pattern: '^\\d{4}-\\d{2}$' } },
  });

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
