import type { MigrationContext } from './index.ts';

/**
 * The annual one-time bonus on the salary row (issue 10 item 7): the amount (fen), whether it is merged into
 * the month's wages instead of taxed separately (0 = 单独计税, the default), and the separate bonus tax (fen).
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema.alterTable('accounts_salary').addColumn('bonus', 'bigint').execute();
  await db.schema.alterTable('accounts_salary').addColumn('bonus_merged', 'smallint', (c) => c.defaultTo(0)).execute();
  await db.schema.alterTable('accounts_salary').addColumn('bonus_tax', 'bigint').execute();
}
