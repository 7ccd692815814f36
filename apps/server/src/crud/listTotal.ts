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

/**
 * Row counts read from the statistics (table sizes from pg_class, planner estimates per statement), per database and
 * key, kept for a minute: statistics move slowly, and each read is a round trip on a list's page. A store holds at
 * most MAX_KEPT keys (statement keys carry the filter's values), then starts afresh.
 */
type KeptRows = WeakMap<Db, Map<string, { rows: number; until: number }>>;
const KEEP_MS = 60_000;
const MAX_KEPT = 1000;

async function keptForAMinute(store: KeptRows, db: Db, key: string, read: () => Promise<number>): Promise<number> {
  let known = store.get(db);
  if (!known) store.set(db, (known = new Map()));
  const hit = known.get(key);
  if (hit && hit.until > Date.now()) return hit.rows;
  const rows = await read();
  if (known.size >= MAX_KEPT) known.clear();
  known.set(key, { rows, until: Date.now() + KEEP_MS });
  return rows;
}

const tableRows: KeptRows = new WeakMap();
const plannedByStatement: KeptRows = new WeakMap();

/** The statistics' row count of a table (-1 when never analysed). */
function statisticsRows(db: Db, table: string): Promise<number> {
  return keptForAMinute(tableRows, db, table, async () => {
    const row = (await sql<{ rows: number | null }>`select reltuples::float8 as rows from pg_class where oid = to_regclass(${table})`.execute(db)).rows[0];
    return row?.rows ?? -1;
  });
}

/**
 * The planner's estimate of how many rows a filtered selection returns (`probe`: the selection as `select 1 from ...`).
 * The same selection (a screen paging through one list) is asked of the planner once a minute, not on every page:
 * the estimate follows the statistics, which move as slowly as the table sizes, and an EXPLAIN round trip was one
 * statement of the five of every big list's page (issue 27).
 */
async function plannedRows(db: Db, probe: CompiledQuery): Promise<number> {
  const key = `${probe.sql}\0${JSON.stringify(probe.parameters, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`;
  return keptForAMinute(plannedByStatement, db, key, async () => {
    const result = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] | string }>(CompiledQuery.raw(`explain (format json) ${probe.sql}`, [...probe.parameters]));
    const plan = result.rows[0]?.['QUERY PLAN'];
    const parsed = typeof plan === 'string' ? JSON.parse(plan) : plan;
    return Number(parsed?.[0]?.Plan?.['Plan Rows'] ?? 0);
  });
}

/** The filtered selection as the statement the planner is asked about (plannedRows). */
export const probeOf = (filtered: SelectQueryBuilder<any, any, any>) => filtered.select(sql`1`.as('one'));

/**
 * The planner's estimate when a list is too big to count (PostgreSQL, EXACT_COUNT_BELOW rows or more by the
 * statistics and the planner); null when its total is counted exactly (always on SQLite and MySQL/MariaDB).
 * `probe` builds the filtered selection's probeOf statement (only asked for when the table is big).
 */
export async function estimatedTotal(db: Db, dialect: DialectName, table: string, probe: () => CompiledQuery): Promise<ListTotal | null> {
  if (dialect !== 'postgres') return null;
  const rows = await statisticsRows(db, table);
  if (rows >= 0 && rows < EXACT_COUNT_BELOW) return null;
  const estimate = Math.round(await plannedRows(db, probe()));
  if (estimate < EXACT_COUNT_BELOW) return null;
  return { totalElements: estimate, totalEstimated: true };
}

/** The column a page carries its list's exact total in, when page and count are read in one statement. */
export const TOTAL_COLUMN = '__total';

/**
 * The page with the list's exact total as an extra column of every row: one statement and one round trip instead of a
 * count and a page (PostgreSQL and MySQL/MariaDB run the uncorrelated count once). A page past the end has no row to
 * carry the total (see totalOfPage): the caller counts.
 */
export const withTotalColumn = (page: SelectQueryBuilder<any, any, any>, filtered: SelectQueryBuilder<any, any, any>) => page.select(filtered.select((eb) => eb.fn.countAll().as('n')).as(TOTAL_COLUMN));

/** The total a withTotalColumn page carries; null for a page past the end. */
export const totalOfPage = (rows: readonly Record<string, unknown>[]): number | null => (rows.length ? Number(rows[0][TOTAL_COLUMN]) : null);
