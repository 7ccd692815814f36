import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../src/core/dbTypes.ts';
import { dbColumns } from '../src/dbTables.ts';
import { createTestApp, TEST_DB } from './helpers.ts';

/** The generated `DB` type describes the real tables, on every database. */
const t = await createTestApp();
afterAll(async () => {
  await t.close();
});

describe(`Kysely<DB> (${TEST_DB})`, () => {
  it('has exactly the columns of the migrated tables', async () => {
    // PostgreSQL lists every schema (other test files have theirs): only this app's
    const schema = TEST_DB === 'postgres' ? String((await sql<{ s: string }>`select current_schema() as s`.execute(t.app.ctx.db)).rows[0].s) : undefined;
    const tables = (await t.app.ctx.db.introspection.getTables()).filter((x) => schema === undefined || x.schema === schema);
    const actual = new Map(tables.filter((x) => !/^kysely_|^schema_migrations/.test(x.name)).map((x) => [x.name, x.columns.map((c) => c.name).sort()]));
    const expected = new Map([...dbColumns()].map(([k, v]) => [k, [...v].sort()]));
    // every migrated table is typed (a table missing from the DB type would leave its queries untyped, read
    // through casts), and every typed table exists with exactly its columns
    const missing = [...actual.keys()].filter((name) => !expected.has(name)).sort();
    expect(missing, 'migrated tables missing from the hand tables (src/dbTables.ts) and the definitions').toEqual([]);
    expect(Object.fromEntries([...actual].sort()), 'columns differ from the hand tables (src/dbTables.ts) or the definitions').toEqual(Object.fromEntries([...expected].sort()));
  });

  it('types queries by the definitions', async () => {
    const db = t.app.ctx.db as Kysely<DB>;
    const q = () => db.selectFrom('accounts_staff').select(['id', 'staff_name', 'id_card', 'company_id', 'salary']).where('company_id', '=', 1).executeTakeFirst();
    expectTypeOf<Awaited<ReturnType<typeof q>>>().toEqualTypeOf<{ id: number; staff_name: string | null; id_card: string | null; company_id: number | null; salary: number | string | null } | undefined>();
    const links = () => db.selectFrom('sys_users_roles').select(['user_id', 'role_id']).execute();
    expectTypeOf<Awaited<ReturnType<typeof links>>[number]['role_id']>().toEqualTypeOf<number | null>();
    expect(await q()).toBeUndefined();
  });

  it('types the hand-made tables: NOT NULL columns are not nullable, defaulted ones optional on insert', () => {
    const db = t.app.ctx.db as Kysely<DB>;
    const job = () => db.selectFrom('sys_scheduled_job').select(['job_name', 'is_pause', 'remark', 'last_success']).executeTakeFirstOrThrow();
    expectTypeOf<Awaited<ReturnType<typeof job>>>().toEqualTypeOf<{ job_name: string; is_pause: number; remark: string | null; last_success: number | null }>();
    const log = () => db.selectFrom('sys_job_log').select(['is_success', 'create_time', 'time']).executeTakeFirstOrThrow();
    expectTypeOf<Awaited<ReturnType<typeof log>>>().toEqualTypeOf<{ is_success: number; create_time: string; time: number | null }>();
    // is_pause and consecutive_failures have defaults, remark is nullable: none of them is needed on insert
    const insert = () => db.insertInto('sys_scheduled_job').values({ job_name: 'x', bean_name: 'b', method_name: 'm', cron_expression: '0 0 * * * ?' });
    expectTypeOf(insert).returns.toBeObject();
    // @ts-expect-error job_name is NOT NULL without a default
    db.insertInto('sys_scheduled_job').values({ bean_name: 'b', method_name: 'm', cron_expression: '0 0 * * * ?' });
  });
});
