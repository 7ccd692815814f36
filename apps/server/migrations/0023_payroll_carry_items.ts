import { sql } from 'kysely';
import { nowIso } from '../src/core/db.ts';
import type { MigrationContext } from './index.ts';

/**
 * Payroll you can trust (issue 20), items 5 and 7.
 * - A month whose deductions exceed the pay (finding PB4) no longer blocks: each client company chooses what
 *   happens to what could not be deducted (`arrears_rule`: 'carry' = 下月扣回, the default, or 'advance' =
 *   单位垫付), and the salary row keeps 上月应扣未扣 deducted this month (`carried_in`), 应扣未扣 left over
 *   (`unpaid`) and 单位垫付 (`advanced`), fen.
 * - New pay items (PB6): 补发 and 补扣 with the month they refer to (`back_pay`, `back_pay_month`,
 *   `back_deduct`, `back_deduct_month`), and 经济补偿金 (`severance`) with its exempt part and its separate tax
 *   (`severance_exempt`, `severance_tax`), fen.
 * The rule's dictionary is added for databases seeded before it existed (as 0005 did for proration_rule).
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('accounts_company')
    .addColumn('arrears_rule', 'varchar(20)', (c) => c.notNull().defaultTo('carry'))
    .execute();
  for (const column of ['carried_in', 'unpaid', 'advanced', 'back_pay', 'back_deduct', 'severance', 'severance_exempt', 'severance_tax']) {
    await db.schema.alterTable('accounts_salary').addColumn(column, 'bigint').execute();
  }
  for (const column of ['back_pay_month', 'back_deduct_month']) {
    await db.schema.alterTable('accounts_salary').addColumn(column, 'varchar(7)').execute();
  }
  // the payslip's own lines for them (see PAYSLIP_DEDUCTION_ITEMS / PAYSLIP_INCOME_ITEMS)
  for (const column of ['shangyueweikou', 'yingkouweikou', 'danweidianfu', 'bufa', 'bukou', 'jingjibuchang', 'buchangshui']) {
    await db.schema.alterTable('ac_payslip').addColumn(column, 'bigint').execute();
  }
  const seeded = await db.selectFrom('sys_dict').select('id').limit(1).executeTakeFirst();
  const exists = await db.selectFrom('sys_dict').select('id').where('name', '=', 'arrears_rule').executeTakeFirst();
  // An empty database gets its dictionaries from the first-start seed; an existing one gets this one here.
  if (!seeded || exists) return;
  const now = nowIso();
  await db.insertInto('sys_dict').values({ name: 'arrears_rule', remark: '欠款处理方式', create_time: now }).execute();
  const dict = await db.selectFrom('sys_dict').select('id').where('name', '=', 'arrears_rule').executeTakeFirstOrThrow();
  await db
    .insertInto('sys_dict_detail')
    .values([
      { dict_id: sql.lit(Number(dict.id)), label: '下月扣回', value: 'carry', sort: 1, create_time: now },
      { dict_id: sql.lit(Number(dict.id)), label: '单位垫付', value: 'advance', sort: 2, create_time: now },
    ])
    .execute();
}
