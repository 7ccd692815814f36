import { sql } from 'kysely';
import { fenToYuan } from '@app/shared/payroll';
import type { SalaryFieldName } from '@app/shared/resources/salary';
import type { Db } from '../../core/db.ts';
import { isConfirmed, SALARY_TABLE, salaryColumn as S } from './salaryStore.ts';

// The salary screen's month header and the office jobs' summaries read a company's month through this one query.

/** What a company's month stands at (the screen's steps and regenerate question) and its totals, money in yuan. */
export interface MonthSummary {
  rows: number;
  calculated: number;
  editedRows: number;
  manualRows: number;
  confirmed: boolean;
  /** Sums over the month's rows (calculated figures; 0 where not calculated). */
  gross: number;
  employerTotal: number;
  labourCost: number;
}

/** Counts of a company's month: rows, calculated, hand-edited and hand-added rows, whether it is confirmed, totals. */
export async function monthSummary(db: Db, companyId: number, month: string): Promise<MonthSummary> {
  const flag = (column: SalaryFieldName, value: string | number) => sql<number>`coalesce(sum(case when ${sql.ref(S(column))} = ${value} then 1 else 0 end), 0)`;
  const total = (field: SalaryFieldName) => sql<number>`coalesce(sum(${sql.ref(S(field))}), 0)`;
  const counts = (await db
    .selectFrom(SALARY_TABLE)
    .select([
      sql<number>`count(*)`.as('rows'),
      flag('calculated', 1).as('calculated'),
      flag('adjustEdited', 1).as('editedRows'),
      flag('origin', 'manual').as('manualRows'),
      total('gross').as('gross'),
      total('employerTotal').as('employerTotal'),
      total('labourCost').as('labourCost'),
    ])
    .where(S('companyId'), '=', companyId)
    .where(S('month'), '=', month)
    .executeTakeFirst()) as Record<string, unknown> | undefined;
  const n = (k: string) => Number(counts?.[k] ?? 0);
  return {
    rows: n('rows'),
    calculated: n('calculated'),
    editedRows: n('editedRows'),
    manualRows: n('manualRows'),
    confirmed: await isConfirmed(db, companyId, month),
    gross: fenToYuan(n('gross')),
    employerTotal: fenToYuan(n('employerTotal')),
    labourCost: fenToYuan(n('labourCost')),
  };
}
