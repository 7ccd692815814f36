import { CompiledQuery, Kysely, MysqlDialect, PostgresDialect, SqliteDialect, sql, type RawBuilder } from 'kysely';
import fs from 'node:fs';
import path from 'node:path';
import { attachQueryStats, QueryStats } from './queryStats.ts';
import type { DB } from './dbTypes.ts';
import { StatementCachingDatabase } from './sqliteStatementCache.ts';
import { ensurePrivateDatabaseFile, type Report } from './privateFiles.ts';

/** Which SQL dialect a database speaks; the few differences live in this file. */
export type DialectName = 'sqlite' | 'postgres' | 'mysql';

/** The database with every table and column the migrations create (core/dbTypes.ts). */
export type Db = Kysely<DB>;

/**
 * The generic engine's view of the same database (registerResource, link tables, trees, imports, data-source
 * tables): the table comes from a definition at run time and the columns by name, so the row is a record of
 * values that the field kinds convert. Typed, not `any`: a read value is `unknown` until a kind converts it.
 */
export type DynamicDb = Kysely<Record<string, Record<string, unknown>>>;

/** The generic view of a database (see DynamicDb); the same connection or transaction. */
export function dynamicDb(db: Db | DynamicDb): DynamicDb {
  return db as unknown as DynamicDb;
}

export interface Database {
  db: Db;
  dialect: DialectName;
  destroy(): Promise<void>;
  /** The URL it was opened from (the backup job hands it to pg_dump / mariadb-dump). */
  url?: string;
  /** SQLite only: the driver's handle, for its online backup (`backup()`), which Kysely does not expose. */
  sqlite?: import('better-sqlite3').Database;
}

/**
 * SQL monitor (系统工具 › SQL监控): every Kysely instance opened here gets Kysely's `log` hook, which hands each
 * executed statement (text, parameters, duration, error) to a bounded QueryStats collector (core/queryStats.ts)
 * registered for that instance; the monitor's routes read it with queryStatsOf(app.ctx.db).
 */
function monitored(db: Db, stats: QueryStats): Db {
  attachQueryStats(db, stats);
  return db;
}

/**
 * Open a database from a URL. Values are normalised at the driver edge so every dialect returns the same
 * JS types: integers and bigints as numbers, decimals as numbers, dates/times as the stored strings.
 */
export async function openDatabase(url: string, opts: { report?: Report } = {}): Promise<Database> {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    const { default: SQLite } = await import('better-sqlite3');
    if (file !== ':memory:') {
      // the file holds every salary and password hash: 0600 from its first byte, in a 0700 folder when we make it
      fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
      ensurePrivateDatabaseFile(file, opts.report ?? ((line) => console.warn(line)));
    }
    const database = new SQLite(file);
    database.pragma('journal_mode = WAL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    const stats = new QueryStats('sqlite');
    const db = monitored(new Kysely<DB>({ dialect: new SqliteDialect({ database: new StatementCachingDatabase(database) }), log: stats.log }), stats);
    return { db, dialect: 'sqlite', destroy: () => db.destroy(), url, sqlite: database };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pg = await import('pg');
    const { Pool, types } = pg.default;
    // Per-pool type parsers: bigint/count and numeric as numbers, date/timestamp kept as text.
    const typeParsers = {
      getTypeParser(oid: number, format?: 'text' | 'binary') {
        if (oid === 20 || oid === 1700) return (v: string) => (v === null ? null : Number(v));
        if (oid === 1082 || oid === 1114 || oid === 1184) return (v: string) => v;
        return types.getTypeParser(oid, format);
      },
    };
    const pool = new Pool({ connectionString: url, max: 10, types: typeParsers });
    const stats = new QueryStats('postgres', () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: 10 }));
    const db = monitored(new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: stats.log }), stats);
    return { db, dialect: 'postgres', destroy: () => db.destroy(), url };
  }
  if (url.startsWith('mysql://') || url.startsWith('mariadb://')) {
    const mysql = await import('mysql2');
    const pool = mysql.createPool({
      uri: url.replace(/^mariadb:/, 'mysql:'),
      connectionLimit: 10,
      dateStrings: true,
      decimalNumbers: true,
      supportBigNumbers: true,
      bigNumberStrings: false,
      charset: 'utf8mb4',
      timezone: 'Z',
    });
    // mysql2 keeps its pool counts in underscore fields (no public API); read defensively
    const p = pool as unknown as { _allConnections?: { length: number }; _freeConnections?: { length: number }; _connectionQueue?: { length: number } };
    const stats = new QueryStats('mysql', () =>
      p._allConnections ? { total: p._allConnections.length, idle: p._freeConnections?.length ?? 0, waiting: p._connectionQueue?.length ?? 0, max: 10 } : null,
    );
    const db = new Kysely<DB>({
      log: stats.log,
      dialect: new MysqlDialect({
        pool,
        // InnoDB's default REPEATABLE READ keeps the snapshot a transaction took at its first read: a write that
        // then waits for a lock (the salary month's batch row) would still read "not confirmed" after the confirm
        // it waited for had committed (finding P1). READ COMMITTED, as PostgreSQL uses, reads what is committed
        // at each statement, so every check made after taking a lock sees the winner's work.
        onCreateConnection: async (connection) => {
          await connection.executeQuery(CompiledQuery.raw('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED'));
        },
      }),
    });
    monitored(db, stats);
    return { db, dialect: 'mysql', destroy: () => db.destroy(), url };
  }
  throw new Error(`不支持的数据库地址: ${url.replace(/:[^:@/]*@/, ':***@')}`);
}

/** Case-insensitive LIKE with the user's `%`, `_` and `!` taken literally. */
export function likeContains(dialect: DialectName, column: string, value: string): RawBuilder<boolean> {
  return likeMatches(dialect, column, likePattern(dialect, value));
}

/** The LIKE pattern (a statement's parameter) that finds `value` anywhere, its `%`, `_` and `!` taken literally. */
export function likePattern(dialect: DialectName, value: string): string {
  const pattern = `%${value.replace(/[!%_]/g, (c) => `!${c}`)}%`;
  // lower() LIKE is about three times faster than ILIKE on PostgreSQL (measured on 100k rows).
  return dialect === 'postgres' ? pattern.toLowerCase() : pattern;
}

/** `column` LIKE a pattern of likePattern (a value or a compiled statement's placeholder), case-insensitive. */
export function likeMatches(dialect: DialectName, column: string, pattern: unknown): RawBuilder<boolean> {
  if (dialect === 'postgres') return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '!'`;
  return sql<boolean>`${sql.ref(column)} like ${pattern} escape '!'`;
}

/** A table or column name quoted for the dialect (names come from definitions, never from requests). */
export function quoteIdentifier(dialect: DialectName, name: string): string {
  return dialect === 'mysql' ? `\`${name.replace(/`/g, '``')}\`` : `"${name.replace(/"/g, '""')}"`;
}

/**
 * A multi-row INSERT sent as plain SQL: for thousands of rows, building and compiling Kysely's query tree
 * costs several times the database work (measured: the import's chunks, the payroll ledger's month). All rows
 * have the same keys. PostgreSQL gets one INSERT ... SELECT FROM unnest() of one array per column, typed by
 * `pgTypes` (column -> element type, `text` when absent); SQLite and MySQL one VALUES list.
 */
export async function insertRowsRaw(
  db: Db | DynamicDb,
  dialect: DialectName,
  table: string,
  rows: readonly Record<string, unknown>[],
  pgTypes: ReadonlyMap<string, string> = new Map(),
): Promise<void> {
  if (!rows.length) return;
  const columns = Object.keys(rows[0]);
  const quote = (name: string) => quoteIdentifier(dialect, name);
  const into = `insert into ${quote(table)} (${columns.map(quote).join(',')})`;
  if (dialect === 'postgres') {
    const arrays = columns.map((c) => rows.map((r) => r[c] ?? null));
    const casts = columns.map((c, i) => `$${i + 1}::${pgTypes.get(c) ?? 'text'}[]`);
    await db.executeQuery(CompiledQuery.raw(`${into} select * from unnest(${casts.join(',')})`, arrays));
    return;
  }
  const params: unknown[] = [];
  for (const row of rows) for (const c of columns) params.push(row[c] ?? null);
  const tuple = `(${columns.map(() => '?').join(',')})`;
  await db.executeQuery(CompiledQuery.raw(`${into} values ${rows.map(() => tuple).join(',')}`, params));
}

/**
 * Several rows updated by id in one plain-SQL statement, for the same reason as insertRowsRaw (one statement per
 * row is one round trip per row on PostgreSQL and MySQL). Every row sets the same columns. PostgreSQL: UPDATE ...
 * FROM unnest() of one array per column, typed by `pgTypes` as in insertRowsRaw; SQLite: UPDATE ... FROM a VALUES
 * list; MySQL: UPDATE ... JOIN a derived table of UNION ALL selects. An id that no longer exists is skipped, as
 * a one-row UPDATE would skip it. The caller keeps SQLite's and MySQL's `?` count in bounds.
 */
export async function updateRowsRaw(
  db: Db | DynamicDb,
  dialect: DialectName,
  table: string,
  rows: readonly { id: number; values: Record<string, unknown> }[],
  pgTypes: ReadonlyMap<string, string> = new Map(),
): Promise<void> {
  if (!rows.length) return;
  const columns = Object.keys(rows[0].values);
  const q = (name: string) => quoteIdentifier(dialect, name);
  const t = q(table);
  const rowId = q('row_id_');
  if (dialect === 'postgres') {
    const arrays = [rows.map((r) => r.id), ...columns.map((c) => rows.map((r) => r.values[c] ?? null))];
    const casts = ['$1::integer[]', ...columns.map((c, i) => `$${i + 2}::${pgTypes.get(c) ?? 'text'}[]`)];
    const sets = columns.map((c) => `${q(c)} = v.${q(c)}`).join(',');
    await db.executeQuery(CompiledQuery.raw(`update ${t} as s set ${sets} from unnest(${casts.join(',')}) as v(${rowId},${columns.map(q).join(',')}) where s.id = v.${rowId}`, arrays));
    return;
  }
  const params: unknown[] = [];
  for (const r of rows) {
    params.push(r.id);
    for (const c of columns) params.push(r.values[c] ?? null);
  }
  const placeholders = ['?', ...columns.map(() => '?')].join(',');
  if (dialect === 'sqlite') {
    const sets = columns.map((c) => `${q(c)} = v.${q(c)}`).join(',');
    const values = rows.map(() => `(${placeholders})`).join(',');
    await db.executeQuery(CompiledQuery.raw(`with v(${rowId},${columns.map(q).join(',')}) as (values ${values}) update ${t} set ${sets} from v where ${t}.id = v.${rowId}`, params));
    return;
  }
  // the first select names the derived table's columns
  const first = `select ${[rowId, ...columns.map(q)].map((c) => `? as ${c}`).join(',')}`;
  const selects = rows.map((_, i) => (i === 0 ? first : `select ${placeholders}`)).join(' union all ');
  const sets = columns.map((c) => `s.${q(c)} = v.${q(c)}`).join(',');
  await db.executeQuery(CompiledQuery.raw(`update ${t} s join (${selects}) v on s.id = v.${rowId} set ${sets}`, params));
}

/** Insert a row and return its generated id on every dialect. */
export async function insertReturningId(typed: Db | DynamicDb, dialect: DialectName, table: string, row: Record<string, unknown>): Promise<number> {
  const db = dynamicDb(typed);
  if (dialect === 'mysql') {
    const r = await db.insertInto(table).values(row).executeTakeFirstOrThrow();
    return Number(r.insertId);
  }
  const r = await db.insertInto(table).values(row).returning('id').executeTakeFirstOrThrow();
  return Number((r as { id: number }).id);
}

/** Is this driver error a unique-constraint violation? */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; errno?: number; message?: string };
  return (
    e?.code === '23505' || // postgres
    e?.code === 'ER_DUP_ENTRY' ||
    e?.errno === 1062 ||
    (typeof e?.code === 'string' && e.code.startsWith('SQLITE_CONSTRAINT_UNIQUE')) ||
    (typeof e?.message === 'string' && e.message.includes('UNIQUE constraint failed'))
  );
}

/** The current time as stored in datetime columns (ISO 8601, UTC, milliseconds). */
export function nowIso(): string {
  return new Date().toISOString();
}
