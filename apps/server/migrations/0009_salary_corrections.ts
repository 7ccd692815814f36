import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * Corrections after confirm (issue 10 item 8): each 反确认 of a company's month is a row with its reason, who did
 * it, the confirmed figures it reopened (`before_figures`, JSON) and, once the month is confirmed again, the
 * figures then confirmed (`after_figures`).
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'accounts_salary_correction', (t) =>
    t
      .id()
      .int('company_id', { notNull: true, index: true })
      .string('company_name', 100)
      .month('month', { notNull: true })
      .string('reason', 500, { notNull: true })
      .string('username', 50)
      .string('cname', 50)
      .int('row_count')
      .int('payslips_withdrawn')
      .text('before_figures')
      .text('after_figures')
      .string('reconfirmed_by', 50)
      .string('reconfirm_time', 32)
      .timestamps(),
  );
}
