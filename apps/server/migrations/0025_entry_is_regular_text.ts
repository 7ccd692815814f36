import { sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * 入职记录's 是否转正 is free text in the spec ("Dialog 500px, free text, no rules"), e.g. "是", "否", "试用期至
 * 2027-03": it was a 0/1 column, so a clerk's "是" was refused (findings E4). The column becomes varchar(20) on
 * every dialect through a new column (SQLite cannot change a column's type, and an integer column there would
 * turn a typed "1" back into a number); stored 1/0 become 是/否.
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema.alterTable('acc_entry').addColumn('is_regular_text', 'varchar(20)').execute();
  await sql`update acc_entry set is_regular_text = case when is_regular = 1 then '是' when is_regular = 0 then '否' else null end`.execute(db);
  await db.schema.alterTable('acc_entry').dropColumn('is_regular').execute();
  await db.schema.alterTable('acc_entry').renameColumn('is_regular_text', 'is_regular').execute();
}
