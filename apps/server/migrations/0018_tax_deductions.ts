import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * 专项附加扣除 and 其他扣除 by category per worker, withholding agent and month (issue 10 item 6); the month's
 * 其他扣除 and the 60,000 simplified basic deduction flag (国家税务总局公告2020年第19号) on the salary row, the flag
 * also on the staff record it is snapshotted from.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'accounts_tax_deduction', (t) => {
    t.id().string('dispatch_company', 100, { notNull: true }).string('staff_name', 50).string('id_card', 18, { notNull: true }).month('month', { notNull: true });
    for (const c of ['child_education', 'continuing_education', 'housing_loan_interest', 'housing_rent', 'elderly_support', 'infant_care', 'serious_illness', 'health_insurance', 'private_pension']) t.money(c);
    t.string('remark', 255).timestamps().unique('dispatch_company', 'id_card', 'month').index('month');
  });
  await db.schema.alterTable('accounts_salary').addColumn('other_deduct', 'bigint').execute();
  await db.schema.alterTable('accounts_salary').addColumn('simplified_deduction', 'smallint', (c) => c.defaultTo(0)).execute();
  await db.schema.alterTable('accounts_staff').addColumn('simplified_deduction', 'smallint', (c) => c.defaultTo(0)).execute();
}
