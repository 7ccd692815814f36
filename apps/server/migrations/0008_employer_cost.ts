import type { MigrationContext } from './index.ts';

/** Employer cost per salary row (issue 10 item 9): the employer's part of each insurance item and the totals, fen. */
export const EMPLOYER_COLUMNS = [
  'employer_yanglao',
  'employer_yiliao',
  'employer_shiye',
  'employer_gongshang',
  'employer_shengyu',
  'employer_gongjijin',
  'employer_total',
  'labour_cost',
];

export async function up({ db }: MigrationContext): Promise<void> {
  for (const column of EMPLOYER_COLUMNS) await db.schema.alterTable('accounts_salary').addColumn(column, 'bigint').execute();
}
