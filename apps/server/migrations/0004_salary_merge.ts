import type { MigrationContext } from './index.ts';

/**
 * What "生成" must keep when a month is generated again (finding P5): which rows a clerk added by hand
 * (`origin` = 'manual'; generated rows are 'generated') and which rows' 加班费/扣款 were edited by hand
 * (`adjust_edited` = 1). Rows that existed before this migration count as generated and unedited.
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('accounts_salary')
    .addColumn('origin', 'varchar(10)', (c) => c.notNull().defaultTo('generated'))
    .execute();
  await db.schema
    .alterTable('accounts_salary')
    .addColumn('adjust_edited', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
