import type { MigrationContext } from './index.ts';

/** A payslip line for every amount of 应发 (finding P7): the salary flow's 加班费 and pre-tax 扣款, fen. */
export async function up({ db }: MigrationContext): Promise<void> {
  for (const column of ['jiaban', 'koukuan']) await db.schema.alterTable('ac_payslip').addColumn(column, 'bigint').execute();
}
