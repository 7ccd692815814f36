import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * 调基 with back pay and 社保平账 (Month close III, issue 24 items 2 and 4; reference month-close.md §B4).
 *
 * `accounts_si_back_item`: one 补差 amount per person, insurance and month it corrects (`refer_month`, a confirmed
 * month that is never rewritten), placed into a later open month (`target_month`), personal and employer side in fen
 * (negative = refund). The salary calculation of the target month adds them up per person (modules/siAdjust) into
 * the row's 补缴社保个人 / 补缴社保单位 (`si_back_self`, `si_back_company`), which the payslip, the salary report and
 * the client statement show. `source` says where it came from: a base adjustment (`adjust`, `batch_id`) or an
 * accepted 平账 difference (`recon`, `recon_line_id`).
 *
 * `accounts_si_adjust_batch`: one row per applied base adjustment (company, from month, how the bases were found).
 * `accounts_si_recon` / `accounts_si_recon_line`: an imported bureau statement (应缴明细) and its lines that differ
 * from our figures or exist on one side only, with the clerk's acceptance and reason.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  for (const column of ['si_back_self', 'si_back_company']) {
    await db.schema.alterTable('accounts_salary').addColumn(column, 'bigint').execute();
  }
  await createTable(db, dialect, 'accounts_si_adjust_batch', (t) =>
    t
      .id()
      .int('company_id', { notNull: true })
      .string('company_name', 100)
      .month('from_month', { notNull: true })
      // average | upload
      .string('source', 12, { notNull: true })
      .month('target_month')
      .int('people', { notNull: true })
      .int('item_count', { notNull: true })
      .money('total_self', { notNull: true })
      .money('total_company', { notNull: true })
      .string('create_by', 50)
      .timestamps()
      .index('company_id', 'from_month'),
  );
  await createTable(db, dialect, 'accounts_si_back_item', (t) =>
    t
      .id()
      .int('company_id', { notNull: true })
      .string('id_card', 18, { notNull: true })
      .string('staff_name', 50)
      // yanglao | yiliao | shiye | gongshang | shengyu | gongjijin
      .string('insurance', 12, { notNull: true })
      .month('refer_month', { notNull: true })
      .month('target_month', { notNull: true })
      .money('amount_self', { notNull: true })
      .money('amount_company', { notNull: true })
      // adjust | recon
      .string('source', 8, { notNull: true })
      .int('batch_id')
      .int('recon_line_id')
      .string('reason', 200)
      .string('create_by', 50)
      .timestamps()
      .index('company_id', 'target_month')
      .index('company_id', 'refer_month', 'id_card'),
  );
  await createTable(db, dialect, 'accounts_si_recon', (t) =>
    t
      .id()
      .int('company_id', { notNull: true })
      .string('company_name', 100)
      .month('month', { notNull: true })
      .string('file_name', 200)
      .int('file_rows', { notNull: true })
      .int('matched', { notNull: true })
      .int('line_count', { notNull: true })
      .string('create_by', 50)
      .timestamps()
      .index('company_id', 'month'),
  );
  await createTable(db, dialect, 'accounts_si_recon_line', (t) =>
    t
      .id()
      .int('recon_id', { notNull: true })
      .string('id_card', 18, { notNull: true })
      .string('staff_name', 50)
      .string('insurance', 12, { notNull: true })
      // diff | bureauOnly | oursOnly
      .string('kind', 12, { notNull: true })
      .money('bureau_self')
      .money('bureau_company')
      .money('our_self')
      .money('our_company')
      // open | accepted
      .string('state', 10, { notNull: true })
      .string('reason', 200)
      .string('accepted_by', 50)
      .datetime('accepted_time')
      .month('target_month')
      .timestamps()
      .index('recon_id', 'state'),
  );
}
