import { type Fen, PayrollDecimal, type RoundingRule, roundFen } from './money.ts';

/**
 * Who is paid for a salary month, and how much of the monthly salary a part month earns (finding P2).
 *
 * A worker is payable for a month when employed on at least one day of it, by dates: hired on or before the
 * month's last day, and not left before its first day — whatever the state label (在职, 试用, or 离职 in that
 * month). The leave date is the last day worked and is paid. A worker marked 离职 or 退休 without a leave date
 * is not payable: the records do not say which days were worked.
 *
 * A part month is prorated by the client company's rule:
 * - `calendar`: monthly salary × days employed in the month ÷ days in the month;
 * - `workdays`: monthly salary × working days (Monday to Friday) employed ÷ 21.75, the statutory monthly
 *   pay days (劳社部发〔2008〕3号), never more than the monthly salary. Public holidays are not known to the
 *   product and count as working days when they fall on a weekday.
 * The amount is rounded half-up to the fen. A whole month is paid in full, whichever rule.
 */

export type ProrationRule = 'calendar' | 'workdays';
export const PRORATION_RULES: readonly ProrationRule[] = ['calendar', 'workdays'];
/** A prorated salary is rounded half-up to the fen. */
const TO_FEN: RoundingRule = Object.freeze({ scale: 2, mode: 'HALF_UP' });
/** Statutory monthly pay days of the working-day rule. */
export const MONTHLY_PAY_DAYS = '21.75';

/** Job states that end employment: without a leave date, such a worker is not paid. */
const ENDED_STATES = new Set(['离职', '退休']);

export interface EmploymentDates {
  /** Hire date YYYY-MM-DD (入职日期). */
  inductionDate: string | null;
  /** Last day worked YYYY-MM-DD (离职日期), empty when still employed. */
  leaveDate: string | null;
  jobState?: string | null;
}

export interface MonthSpan {
  /** First day YYYY-MM-DD. */
  first: string;
  /** Last day YYYY-MM-DD. */
  last: string;
  /** Days in the month. */
  days: number;
}

/** First and last day of a month `YYYY-MM`. */
export function monthSpan(month: string): MonthSpan {
  const [y, m] = month.split('-').map(Number);
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { first: `${month}-01`, last: `${month}-${String(days).padStart(2, '0')}`, days };
}

const blank = (s: string | null | undefined) => s === null || s === undefined || s.trim() === '';

/** Is the worker employed on at least one day of the month? */
export function isPayable(worker: EmploymentDates, month: string): boolean {
  const span = monthSpan(month);
  if (blank(worker.inductionDate) || worker.inductionDate! > span.last) return false;
  if (blank(worker.leaveDate)) return !ENDED_STATES.has((worker.jobState ?? '').trim());
  return worker.leaveDate! >= span.first && worker.leaveDate! >= worker.inductionDate!;
}

/** The days of the month the worker is employed: [from, to] within the month, or null when not payable. */
export function employedSpan(worker: EmploymentDates, month: string): { from: string; to: string } | null {
  if (!isPayable(worker, month)) return null;
  const span = monthSpan(month);
  // ISO dates order as text: the later of hire date and the 1st, the earlier of leave date and the month's end
  const from = [worker.inductionDate!, span.first].sort()[1];
  const to = blank(worker.leaveDate) ? span.last : [worker.leaveDate!, span.last].sort()[0];
  return { from, to };
}

const dayNumber = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000;

/** Days from `from` to `to`, both included. */
export function calendarDays(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from) + 1;
}

/** Monday-to-Friday days from `from` to `to`, both included. */
export function workingDays(from: string, to: string): number {
  let n = 0;
  for (let d = dayNumber(from); d <= dayNumber(to); d++) {
    const weekday = (d + 4) % 7; // 1970-01-01 was a Thursday (4); 0 = Sunday
    if (weekday !== 0 && weekday !== 6) n++;
  }
  return n;
}

export interface ProratedSalary {
  /** The salary of the month in fen. */
  salary: Fen;
  /** Days paid under the rule (calendar or working days); null for a whole month. */
  paidDays: number | null;
}

/** The salary a worker earns in `month` under `rule`; null when not payable in that month. */
export function prorateSalary(monthlySalary: Fen, worker: EmploymentDates, month: string, rule: ProrationRule): ProratedSalary | null {
  const span = employedSpan(worker, month);
  if (!span) return null;
  const whole = monthSpan(month);
  if (span.from === whole.first && span.to === whole.last) return { salary: monthlySalary, paidDays: null };
  const full = new PayrollDecimal(monthlySalary);
  if (rule === 'workdays') {
    const paidDays = workingDays(span.from, span.to);
    const salary = roundFen(full.times(paidDays).dividedBy(MONTHLY_PAY_DAYS), TO_FEN);
    return { salary: Math.min(salary, monthlySalary), paidDays };
  }
  const paidDays = calendarDays(span.from, span.to);
  return { salary: roundFen(full.times(paidDays).dividedBy(whole.days), TO_FEN), paidDays };
}
