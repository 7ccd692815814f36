import { createTable } from '../src/core/tableBuilder.ts';
import { rebuildLedger } from '../src/modules/payroll/ytdLedger.ts';
import type { MigrationContext } from './index.ts';

/**
 * The year-to-date ledger (finding P8, issue 10 item 10): per withholding agent, ID card and confirmed month the
 * cumulative figures of the tax year through that month, kept by confirm and 反确认 (modules/payroll/ytdLedger.ts),
 * built here from the months already confirmed. Two indexes for the reads that replace the whole-year scan: the
 * salary rows' exceptions by (id_card, tag, month), and the staff list's page of a company by (company_id, id).
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'accounts_salary_ytd', (t) =>
    t
      .id()
      .string('dispatch_company', 100, { notNull: true })
      .string('id_card', 18, { notNull: true })
      .month('month', { notNull: true })
      .int('months', { notNull: true })
      .money('gross', { notNull: true })
      .money('five_one', { notNull: true })
      .money('deduct', { notNull: true })
      .money('other_deduct', { notNull: true })
      .money('tax', { notNull: true })
      // the company and month where the year's separately taxed annual bonus was confirmed (once a year)
      .string('bonus_company', 100)
      .month('bonus_month')
      .timestamps()
      .unique('dispatch_company', 'id_card', 'month')
      .index('month', 'id_card'),
  );
  await db.schema.createIndex('accounts_salary_id_card_tag_month').on('accounts_salary').columns(['id_card', 'tag', 'month']).execute();
  await db.schema.createIndex('accounts_staff_company_id_id').on('accounts_staff').columns(['company_id', 'id']).execute();
  await rebuildLedger(db, dialect);
}
