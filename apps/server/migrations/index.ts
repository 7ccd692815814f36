import { dynamicDb } from '../src/core/db.ts';
import { type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Db, DialectName } from '../src/core/db.ts';
import * as m0001 from './0001_platform.ts';
import * as m0002 from './0002_dispatch.ts';
import * as m0003 from './0003_payroll.ts';
import * as m0004 from './0004_salary_merge.ts';
import * as m0005 from './0005_salary_proration.ts';
import * as m0006 from './0006_definition_sync.ts';
import * as m0007 from './0007_payroll_tax_inputs.ts';
import * as m0008 from './0008_employer_cost.ts';
import * as m0009 from './0009_salary_corrections.ts';
import * as m0016 from './0016_payslip_lines.ts';
import * as m0017 from './0017_salary_bonus.ts';
import * as m0018 from './0018_tax_deductions.ts';
import * as m0019 from './0019_salary_ytd.ts';
import * as m0020 from './0020_keyword_trgm.ts';
import * as m0021 from './0021_salary_tag_month.ts';
import * as m0022 from './0022_model_output_store.ts';
import * as m0023 from './0023_payroll_carry_items.ts';
import * as m0024 from './0024_tax_deduction_caps.ts';
import * as m0025 from './0025_entry_is_regular_text.ts';
import * as m0026 from './0026_user_must_change_password.ts';
import * as m0027 from './0027_notices.ts';
import * as m0028 from './0028_settlement.ts';
import * as m0029 from './0029_payout.ts';
import * as m0030 from './0030_payslip_delivery.ts';
import * as m0031 from './0031_iit.ts';
import * as m0032 from './0032_si_adjust.ts';
import * as m0033 from './0033_si_change_templates.ts';
import * as m0010 from './0010_scheduler.ts';
import * as m0011 from './0011_data_sources.ts';
import * as m0012 from './0012_models_tasks.ts';
import * as m0013 from './0013_storage.ts';
import * as m0014 from './0014_mail_payment.ts';
import * as m0015 from './0015_generator.ts';

export interface MigrationContext {
  db: Db;
  dialect: DialectName;
}

/** Reviewed migrations in order. Add a new file and list it here; never edit one that has shipped. */
export const MIGRATIONS: [name: string, up: (ctx: MigrationContext) => Promise<void>][] = [
  ['0001_platform', m0001.up],
  ['0002_dispatch', m0002.up],
  ['0003_payroll', m0003.up],
  ['0004_salary_merge', m0004.up],
  ['0005_salary_proration', m0005.up],
  ['0006_definition_sync', m0006.up],
  ['0007_payroll_tax_inputs', m0007.up],
  ['0008_employer_cost', m0008.up],
  ['0009_salary_corrections', m0009.up],
  ['0010_scheduler', m0010.up],
  ['0011_data_sources', m0011.up],
  ['0012_models_tasks', m0012.up],
  ['0013_storage', m0013.up],
  ['0014_mail_payment', m0014.up],
  ['0015_generator', m0015.up],
  ['0016_payslip_lines', m0016.up],
  ['0017_salary_bonus', m0017.up],
  ['0018_tax_deductions', m0018.up],
  ['0019_salary_ytd', m0019.up],
  ['0020_keyword_trgm', m0020.up],
  ['0021_salary_tag_month', m0021.up],
  ['0022_model_output_store', m0022.up],
  ['0023_payroll_carry_items', m0023.up],
  ['0024_tax_deduction_caps', m0024.up],
  ['0025_entry_is_regular_text', m0025.up],
  ['0026_user_must_change_password', m0026.up],
  ['0027_notices', m0027.up],
  ['0028_settlement', m0028.up],
  ['0029_payout', m0029.up],
  ['0030_payslip_delivery', m0030.up],
  ['0031_iit', m0031.up],
  ['0032_si_adjust', m0032.up],
  ['0033_si_change_templates', m0033.up],
];

/** Kysely's bookkeeping tables (its defaults, named here because the upgrade step writes them too). */
const MIGRATION_TABLE = 'kysely_migration';
const MIGRATION_LOCK_TABLE = 'kysely_migration_lock';
/** Where releases before Kysely's Migrator recorded the names they applied. */
const LEGACY_TABLE = 'schema_migrations';

/** The in-code list as Kysely's provider (no directory scan: the list above is the reviewed order). */
function provider(dialect: DialectName, migrations: typeof MIGRATIONS): MigrationProvider {
  return {
    getMigrations: async () =>
      Object.fromEntries(migrations.map(([name, up]): [string, Migration] => [name, { up: (db) => up({ db, dialect }) }])),
  };
}

async function tableNames(db: Db, dialect: DialectName): Promise<Set<string>> {
  const rows =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
      : dialect === 'postgres'
        ? await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db)
        : await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = database()`.execute(db);
  return new Set(rows.rows.map((r) => String(r.name)));
}

/**
 * Databases created by a release before the Migrator recorded their migrations in `schema_migrations`: copy
 * those names into Kysely's table (created here with Kysely's own shape) so they count as applied and
 * 0001-0004 never run twice. Idempotent; `schema_migrations` is left in place for a rollback to the old release.
 */
async function adoptLegacyBookkeeping(db: Db, dialect: DialectName): Promise<void> {
  const tables = await tableNames(db, dialect);
  if (!tables.has(LEGACY_TABLE)) return;
  await db.schema
    .createTable(MIGRATION_TABLE)
    .ifNotExists()
    .addColumn('name', 'varchar(255)', (c) => c.notNull().primaryKey())
    .addColumn('timestamp', 'varchar(255)', (c) => c.notNull())
    .execute();
  const legacy = await dynamicDb(db).selectFrom(LEGACY_TABLE).select(['name', 'applied_at']).execute();
  const known = new Set((await dynamicDb(db).selectFrom(MIGRATION_TABLE).select('name').execute()).map((r) => String(r.name)));
  const missing = legacy.filter((r) => !known.has(String(r.name)));
  if (missing.length) await dynamicDb(db).insertInto(MIGRATION_TABLE).values(missing.map((r) => ({ name: r.name, timestamp: r.applied_at }))).execute();
}

/**
 * Apply every migration not yet recorded, through Kysely's Migrator (PostgreSQL: all pending ones in one
 * transaction; MySQL cannot roll back DDL). Returns the names applied; throws the failing migration's error.
 * Callers that may start beside another instance run this under the startup lock (src/sync/startupLock.ts).
 */
export async function migrateToLatest(db: Db, dialect: DialectName, migrations: typeof MIGRATIONS = MIGRATIONS): Promise<string[]> {
  await adoptLegacyBookkeeping(db, dialect);
  // On PostgreSQL the bookkeeping lives in the connection's own schema: without it, Kysely's "does the table
  // exist" check would also see another schema's kysely_migration (throwaway test schemas, several apps in
  // one database) and skip creating ours.
  const schema = dialect === 'postgres' ? String((await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0].s) : undefined;
  const migrator = new Migrator({
    db,
    provider: provider(dialect, migrations),
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    if (failed && error instanceof Error) error.message = `迁移 ${failed.migrationName} 失败 / migration ${failed.migrationName} failed: ${error.message}`;
    throw error;
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
