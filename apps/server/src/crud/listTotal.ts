import { CompiledQuery, type SelectQueryBuilder, sql } from 'kysely';
import type { Db, DialectName } from '../core/db.ts';

/**
 * How many rows a generic list matches (`totalElements`). SQLite and MySQL/MariaDB count exactly. PostgreSQL counts
 * exactly when the filter matches fewer than EXACT_COUNT_BELOW rows by the planner's estimate, and otherwise answers
 * the estimate, saying so (`totalEstimated: true`): its `count(*)` reads every matching row (~15 ms at 100,000 users,
 * the whole cost of the users list, issue 27), while a screen pages through the first rows of such a list and shows
 * its size as a page count. A table whose statistics say it holds fewer rows is counted without asking the planner;
 * table sizes and estimates are kept for a minute.
 */
export const EXACT_COUNT_BELOW = 10_000;

export interface ListTotal {
  totalElements: number;
  /** true: the planner's estimate (PostgreSQL, EXACT_COUNT_BELOW rows or more); absent: exact. */
  totalEstimated?: true;
}

/** Table sizes from pg_class per database (statistics move slowly; asked again after a minute). */
const tableRows = new WeakMap<Db, Map<string, { rows: number; until: number }>>();
const TABLE_ROWS_TTL_MS = 60_000;

/** The statistics' row count of a table (-1 when never analysed), kept for a minute. */
async function statisticsRows(db: Db, table: string): Promise<number> {
  let sizes = tableRows.get(db);
  if (!sizes) tableRows.set(db, (sizes = new Map()));
  const known = sizes.get(table);
  if (known && known.until > Date.now()) return known.rows;
  const row = (await sql<{ rows: number | null }>`select reltuples::float8 as rows from pg_class where oid = to_regclass(${table})`.execute(db)).rows[0];
  const rows = row?.rows ?? -1;
  sizes.set(table, { rows, until: Date.now() + TABLE_ROWS_TTL_MS });
  return rows;
}

/** Planner estimates per database and statement (text and parameters), kept as long as the table sizes above. */
const plannedByStatement = new WeakMap<Db, Map<string, { rows: number; until: number }>>();
const MAX_PLANNED_STATEMENTS = 1000;

/**
 * The planner's estimate of how many rows a filtered selection returns. The same selection (a screen paging
 * through one list) is asked of the planner once a minute, not on every page: the estimate follows the statistics,
 * which move as slowly as the table sizes kept above, and an EXPLAIN round trip was one statement of the five of
 * every big list's page (issue 27).
 */
async function plannedRows(db: Db, filtered: SelectQueryBuilder<any, any, any>): Promise<number> {
  const query = filtered.select(sql`1`.as('one')).compile();
  let known = plannedByStatement.get(db);
  if (!known) plannedByStatement.set(db, (known = new Map()));
  const key = `${query.sql}\0${JSON.stringify(query.parameters, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`;
  const hit = known.get(key);
  const now = Date.now();
  if (hit && hit.until > now) return hit.rows;
  const result = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] | string }>(CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]));
  const plan = result.rows[0]?.['QUERY PLAN'];
  const parsed = typeof plan === 'string' ? JSON.parse(plan) : plan;
  const rows = Number(parsed?.[0]?.Plan?.['Plan Rows'] ?? 0);
  if (known.size >= MAX_PLANNED_STATEMENTS) known.clear();
  known.set(key, { rows, until: now + TABLE_ROWS_TTL_MS });
  return rows;
}

/**
 * The total of a list: `count()` runs the exact count; `known` is what the page already proves (at least this many
 * rows: offset + rows read, exact when the page came back short).
 */
export async function listTotal(db: Db, dialect: DialectName, table: string, filtered: SelectQueryBuilder<any, any, any>, count: () => Promise<number>): Promise<ListTotal> {
  if (dialect !== 'postgres') return { totalElements: await count() };
  const rows = await statisticsRows(db, table);
  if (rows >= 0 && rows < EXACT_COUNT_BELOW) return { totalElements: await count() };
  const estimate = Math.round(await plannedRows(db, filtered));
  if (estimate < EXACT_COUNT_BELOW) return { totalElements: await count() };
  return { totalElements: estimate, totalEstimated: true };
}
