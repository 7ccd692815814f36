import { isValidMonth } from '@app/shared/resource';
import { badRequest } from '../../core/errors.ts';

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
  const companyId = Number(rawId);
  if (!/^\d{1,15}$/.test(String(rawId)) || !Number.isSafeInteger(companyId) || companyId <= 0) throw badRequest('单位ID无效', { companyId: '单位ID无效' });
  const month = typeof b.month === 'string' ? b.month.trim() : '';
  if (!month) throw badRequest('请选择月份', { month: '请选择月份' });
  if (!isValidMonth(month)) throw badRequest('月份格式应为YYYY-MM', { month: '月份格式应为YYYY-MM' });
  assertNotFutureMonth(month, now);
  return { companyId, month };
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
