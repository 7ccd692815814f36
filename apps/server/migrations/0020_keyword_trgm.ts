import { sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * The keyword searches run `lower(col) LIKE '%kw%'` (core/db.ts likeContains); a B-tree cannot serve a pattern
 * with a leading `%`, so on PostgreSQL every search read the whole table (user search 130–280 ms at 100k rows,
 * finding "Performance"). A GIN trigram index on the same `lower(col)` expression answers it in a few ms.
 * Columns: what the list screens search by keyword — users' blurry fields, the staff and company filters.
 */
export const KEYWORD_TRGM_INDEXES: [index: string, table: string, column: string][] = [
  ['sys_user_username_trgm', 'sys_user', 'username'],
  ['sys_user_email_trgm', 'sys_user', 'email'],
  ['accounts_staff_staff_name_trgm', 'accounts_staff', 'staff_name'],
  ['accounts_staff_id_card_trgm', 'accounts_staff', 'id_card'],
  ['accounts_staff_phone_trgm', 'accounts_staff', 'phone'],
  ['accounts_company_company_name_trgm', 'accounts_company', 'company_name'],
  ['accounts_company_contact_trgm', 'accounts_company', 'contact'],
  ['accounts_company_phone_trgm', 'accounts_company', 'phone'],
];

/**
 * PostgreSQL only (SQLite and MariaDB: nothing to do — their LIKE scans stay as they are). The search works
 * without the extension, only slower, so a server where pg_trgm cannot be created (not installed, or the
 * role may not create it) gets one warning and no indexes instead of a failed start.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  const schema = await trgmSchema(db);
  if (!schema) return;
  for (const [index, table, column] of KEYWORD_TRGM_INDEXES) {
    await sql`create index if not exists ${sql.id(index)} on ${sql.table(table)} using gin (lower(${sql.ref(column)}) ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
  }
}

/**
 * The schema pg_trgm lives in, creating the extension when missing; null (after one warning) when it cannot.
 * An extension belongs to the whole database, in one schema: where it already is, it stays. A new one goes to
 * `public` when that exists, so that it does not vanish with an application schema dropped with CASCADE (the
 * test suite's throwaway schemas) and take other schemas' indexes with it; the operator class is therefore
 * always named with its schema, whatever the search_path.
 */
async function trgmSchema(db: MigrationContext['db']): Promise<string | null> {
  const existing = await installedIn(db);
  if (existing) return existing;
  const hasPublic = await sql<{ n: number }>`select count(*) as n from pg_namespace where nspname = 'public'`.execute(db);
  const target = Number(hasPublic.rows[0]?.n) > 0 ? 'public' : String((await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0].s);
  // Migrations run in one transaction on PostgreSQL: a failed statement would abort it, so the attempt is
  // fenced by a savepoint and rolled back to it on failure.
  const inTransaction = db.isTransaction;
  if (inTransaction) await sql`savepoint keyword_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm with schema ${sql.id(target)}`.execute(db);
    if (inTransaction) await sql`release savepoint keyword_trgm`.execute(db);
    return target;
  } catch (err) {
    if (inTransaction) await sql`rollback to savepoint keyword_trgm`.execute(db);
    // another instance (or test process) may have created it at the same moment: IF NOT EXISTS is no lock
    const now = await installedIn(db);
    if (now) return now;
    console.warn(`[迁移 0020] 无法启用 PostgreSQL 扩展 pg_trgm，关键字搜索不使用三元组索引（结果不变，只是较慢）: ${(err as Error).message}`);
    return null;
  }
}

/** The schema holding pg_trgm, or null when the database does not have it. */
async function installedIn(db: MigrationContext['db']): Promise<string | null> {
  const r = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  return r.rows[0]?.schema ?? null;
}
