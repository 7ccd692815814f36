import type { Db } from '../../core/db.ts';
import { SALARY_TABLE, salaryColumn, type StoredSalaryRow } from './salaryStore.ts';
import { refAs } from '../../core/selectAs.ts';

/**
 * 应扣未扣 across months (issue 20 item 5, finding PB4). A month whose deductions exceed the pay is calculated with
 * 实发 0.00; what it could not deduct is 应扣未扣 on the row, deducted first from the same person's row of the next
 * month at the same client company (上月应扣未扣), unless the company's 欠款处理方式 is 单位垫付.
 *
 * Where the carried amount comes from (decided here, tested in payroll-arrears.test.ts): the rows of the calendar
 * month before, at the same client company and ID card, and only once that month is confirmed. So:
 * - a confirmed month is never rewritten: its 应扣未扣 stays on it; the next month shows the same amount as
 *   上月应扣未扣 and takes it from its own pay;
 * - while the previous month is unconfirmed (never confirmed, or reopened by 反确认) a row it owes money to cannot
 *   be calculated: the amount is not final;
 * - 反确认 of a month is refused while the next month is confirmed with an amount carried from it
 *   (salaryCorrections.ts), as the cumulative tax refuses reopening a month later months build on;
 * - a next month calculated before the previous month changed (reopened, recalculated, confirmed again) no longer
 *   matches a fresh calculation and must be calculated again before it can be confirmed (the confirm check).
 * A person without a row in the next month keeps the 应扣未扣 on the confirmed row, where the report shows it.
 */

const S = salaryColumn;

/** The month before `month` ('YYYY-MM'). */
export function previousMonth(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** The month after `month` ('YYYY-MM'). */
export function nextMonth(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

const personKey = (companyId: number, idCard: string) => `${companyId}\u0000${idCard.trim().toUpperCase()}`;

/**
 * Sets 上月应扣未扣 and the company's 欠款处理方式 on the unconfirmed rows about to be calculated (two reads: the
 * companies' rule, and the previous month's rows that still owe something).
 */
export async function applyArrears(db: Db, month: string, rows: StoredSalaryRow[]): Promise<void> {
  const open = rows.filter((r) => r.tag !== 1);
  if (!open.length) return;
  const companyIds = [...new Set(open.map((r) => Number(r.companyId)))];
  const companies = await db.selectFrom('accounts_company').select(['id', 'arrears_rule']).where('id', 'in', companyIds).execute();
  const advances = new Set(companies.filter((c) => c.arrears_rule === 'advance').map((c) => Number(c.id)));
  const before = previousMonth(month);
  const owing = (await db
    .selectFrom(SALARY_TABLE)
    .select([refAs(S('companyId'), 'companyId'), refAs(S('idCard'), 'idCard'), refAs(S('tag'), 'tag'), refAs(S('unpaid'), 'unpaid')])
    .where(S('month'), '=', before)
    .where(S('companyId'), 'in', companyIds)
    .where(S('unpaid'), '>', 0)
    .execute()) as { companyId: number; idCard: string; tag: number; unpaid: number | string }[];
  const owed = new Map<string, { amount: number; settled: boolean }>();
  for (const o of owing) {
    const k = personKey(Number(o.companyId), o.idCard);
    const prev = owed.get(k) ?? { amount: 0, settled: true };
    owed.set(k, { amount: prev.amount + Number(o.unpaid), settled: prev.settled && Number(o.tag) === 1 });
  }
  for (const r of open) {
    const o = owed.get(personKey(Number(r.companyId), r.idCard));
    r.companyAdvances = advances.has(Number(r.companyId));
    r.owedFromEarlier = o?.settled ? o.amount : 0;
    r.owedUnsettledMonth = o && !o.settled ? before : null;
  }
}

/**
 * Refuses 反确认 of a company's month while its next month is confirmed and deducted an amount carried from it
 * (the carried amount would no longer match the month once recalculated).
 */
export async function nextMonthCarryingFrom(db: Db, companyId: number, month: string): Promise<string | null> {
  const next = nextMonth(month);
  const row = await db
    .selectFrom(SALARY_TABLE)
    .select(refAs(S('id'), 'id'))
    .where(S('companyId'), '=', companyId)
    .where(S('month'), '=', next)
    .where(S('tag'), '=', 1)
    .where(S('carriedIn'), '>', 0)
    .limit(1)
    .executeTakeFirst();
  return row ? next : null;
}
