import dayjs from 'dayjs';

/**
 * Display formats of the generic pages: money in yuan with two decimals and thousands separators, rates as
 * percentages, times as the spec's `{y}-{m}-{d} {h}:{i}:{s}`.
 */

const MONEY = new Intl.NumberFormat('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true });

/** 1234567.5 -> '1,234,567.50'; '' for empty; non-numbers unchanged. */
export function formatMoney(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(String(value).replace(/,/g, ''));
  return Number.isFinite(n) ? MONEY.format(n) : String(value);
}

/** 0.08 -> '8%', 0.005 -> '0.5%', 0.1234567 -> '12.3457%'. */
export function formatRatio(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  return `${Number((n * 100).toFixed(4))}%`;
}

/** ISO time -> 'YYYY-MM-DD HH:mm:ss' in local time. */
export function formatDateTime(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const d = dayjs(String(value));
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm:ss') : String(value);
}

/** A date (or the date part of a time) as 'YYYY-MM-DD'. */
export function formatDate(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const s = String(value);
  return /^\d{4}-\d{2}-\d{2}/.test(s) ? s.slice(0, 10) : s;
}
