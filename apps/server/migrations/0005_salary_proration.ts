import { sql } from 'kysely';
import { nowIso } from '../src/core/db.ts';
import type { MigrationContext } from './index.ts';

/**
 * Who is paid for a month and for how many days (finding P2): each client company chooses how a joiner's or
 * leaver's part month is paid (`proration_rule`: calendar days, or working days over 21.75), and each salary
 * row keeps the monthly salary it was prorated from (`full_salary`, fen), the days paid (`paid_days`, null for
 * a whole month) and the rule used. The rule's dictionary is added for databases seeded before it existed.
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('accounts_company')
    .addColumn('proration_rule', 'varchar(20)', (c) => c.notNull().defaultTo('calendar'))
    .execute();
  await db.schema.alterTable('accounts_salary').addColumn('full_salary', 'bigint').execute();
  await db.schema.alterTable('accounts_salary').addColumn('paid_days', 'integer').execute();
  await db.schema.alterTable('accounts_salary').addColumn('proration_rule', 'varchar(20)').execute();
  const seeded = await db.selectFrom('sys_dict').select('id').limit(1).executeTakeFirst();
  const exists = await db.selectFrom('sys_dict').select('id').where('name', '=', 'proration_rule').executeTakeFirst();
  // An empty database gets its dictionaries from the first-start seed; an existing one gets this one here.
  if (!seeded || exists) return;
  const now = nowIso();
  await db.insertInto('sys_dict').values({ name: 'proration_rule', remark: '不满月工资计算方式', create_time: now }).execute();
  const dict = await db.selectFrom('sys_dict').select('id').where('name', '=', 'proration_rule').executeTakeFirstOrThrow();
  await db
    .insertInto('sys_dict_detail')
    .values([
      { dict_id: sql.lit(Number(dict.id)), label: '按日历天数', value: 'calendar', sort: 1, create_time: now },
      { dict_id: sql.lit(Number(dict.id)), label: '按21.75天计薪', value: 'workdays', sort: 2, create_time: now },
    ])
    .execute();
}
