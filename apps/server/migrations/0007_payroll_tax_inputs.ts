import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * Tax inputs. Months of employment for the basic deduction (finding P3): salary rows keep the worker's hire
 * date, and the year-to-date figures a withholding agent brings from before it used the product are kept per
 * worker, agent and tax year (期初累计数据). Dated rates (P4): a staff record and its salary rows say whether
 * the worker's own ratios override those of the rate dictionary version in force.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await db.schema.alterTable('accounts_salary').addColumn('induction_date', 'varchar(10)').execute();
  // P4: the dated rate dictionary decides ratios unless a worker's own ratios are explicitly kept.
  await db.schema
    .alterTable('accounts_staff')
    .addColumn('ratio_override', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('accounts_salary')
    .addColumn('ratio_override', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await createTable(db, dialect, 'accounts_tax_opening', (t) =>
    t
      .id()
      .string('dispatch_company', 100, { notNull: true })
      .string('staff_name', 50)
      .string('id_card', 18, { notNull: true })
      .int('tax_year', { notNull: true })
      .month('through_month', { notNull: true })
      .int('months', { notNull: true })
      .money('cumulative_income', { notNull: true })
      .money('cumulative_exempt_income')
      .money('cumulative_social')
      .money('cumulative_special_additional')
      .money('cumulative_other_deduct')
      .money('cumulative_tax_withheld', { notNull: true })
      .string('remark', 255)
      .timestamps()
      .unique('dispatch_company', 'id_card', 'tax_year'),
  );
}
