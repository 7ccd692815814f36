import type { Db, DialectName } from '../src/core/db.ts';
import { nowIso } from '../src/core/db.ts';
import * as m0001 from './0001_platform.ts';
import * as m0002 from './0002_dispatch.ts';
import * as m0003 from './0003_payroll.ts';

export interface MigrationContext {
  db: Db;
  dialect: DialectName;
}

/**
 * Reviewed migrations in order. Add a new file and list it here; never edit one that has shipped.
 * (Kysely's Migrator is not used because its lock table and provider add nothing for us but
 * dialect-specific quirks; this runner records applied names in `schema_migrations` in a transaction each.)
 */
export const MIGRATIONS: [name: string, up: (ctx: MigrationContext) => Promise<void>][] = [
  ['0001_platform', m0001.up],
  ['0002_dispatch', m0002.up],
  ['0003_payroll', m0003.up],
];

/** Apply every migration not yet recorded. Returns the names applied. */
export async function migrateToLatest(db: Db, dialect: DialectName): Promise<string[]> {
  await db.schema
    .createTable('schema_migrations')
    .ifNotExists()
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('applied_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  const done = new Set((await db.selectFrom('schema_migrations').select('name').execute()).map((r) => r.name as string));
  const applied: string[] = [];
  for (const [name, up] of MIGRATIONS) {
    if (done.has(name)) continue;
    // MySQL cannot roll back DDL, so a transaction would only give a false sense of safety there.
    if (dialect === 'mysql') {
      await up({ db, dialect });
      await db.insertInto('schema_migrations').values({ name, applied_at: nowIso() }).execute();
    } else {
      await db.transaction().execute(async (trx) => {
        await up({ db: trx, dialect });
        await trx.insertInto('schema_migrations').values({ name, applied_at: nowIso() }).execute();
      });
    }
    applied.push(name);
  }
  return applied;
}
