import type { LogEvent } from 'kysely';
import type { PoolState, QueryStatsSnapshot, StatementStats } from '@app/shared/sqlMonitor';
import type { Db } from './db.ts';

/**
 * Query statistics for the SQL monitor (系统工具 › SQL监控, issue 12 item 7): every statement Kysely runs passes
 * through the `log` hook of the instance opened in core/db.ts, which calls `record()`. Statements are grouped by
 * a normalised text (literals and parameter lists folded, so `where id in (?, ?, ?)` and `in (?)` are one
 * statement) and counted per minute, so the screen can show "since start" or the last 5 / 60 minutes.
 *
 * Memory is bounded: at most `maxStatements` distinct statements (later new ones are counted under one
 * overflow entry), at most 60 minute buckets each, and a bounded cache of raw text -> normalised text.
 * Parameter values are never kept: the slowest execution of a statement keeps only their types and lengths.
 * `record()` runs on every query, so it does little: one map lookup for the normalised text and a few adds.
 */

/** Statements slower than this (ms) count as slow (spec §9: above 300 ms a time is shown as a warning). */
export const SLOW_QUERY_MS = 300;
/** Distinct statements kept; further new ones are counted together under OVERFLOW_STATEMENT. */
export const DEFAULT_MAX_STATEMENTS = 500;
/** The entry that counts statements beyond the cap. */
export const OVERFLOW_STATEMENT = '(其他语句：已达到统计上限 / other statements beyond the cap)';
/** Minutes of per-minute history kept (the longest window the screen offers). */
const HISTORY_MINUTES = 60;
/** Longest normalised text kept (very long generated statements are cut). */
const MAX_SQL_LENGTH = 4000;
const NORMALISED_CACHE_LIMIT = 2000;

interface Bucket {
  /** Minute number since the epoch. */
  minute: number;
  count: number;
  totalMs: number;
  maxMs: number;
  errors: number;
  slow: number;
  /** Masked parameters of the slowest execution in this minute. */
  maxParams: string[];
  maxAt: number;
}

interface Statement {
  sql: string;
  kind: string;
  /** Totals since start (or the last reset). */
  total: Omit<Bucket, 'minute'>;
  /** Per-minute history, newest last, at most HISTORY_MINUTES entries. */
  minutes: Bucket[];
  lastError?: string;
  lastErrorAt?: number;
  lastAt: number;
}


export type { PoolState, QueryStatsSnapshot, StatementStats };


const emptyTotals = (): Omit<Bucket, 'minute'> => ({ count: 0, totalMs: 0, maxMs: 0, errors: 0, slow: 0, maxParams: [], maxAt: 0 });

/**
 * The statement's shape without its values: string and number literals become `?`, numbered placeholders
 * (`$1`) become `?`, lists of placeholders (`in (?, ?, ?)`, multi-row `values (?, ?), (?, ?)`) fold to one,
 * whitespace is collapsed. Pure; exported for the tests.
 */
export function normaliseSql(text: string): string {
  let s = text
    // quoted string literals ('it''s' included)
    .replace(/'(?:[^']|'')*'/g, '?')
    // PostgreSQL placeholders
    .replace(/\$\d+/g, '?')
    // numbers that are not part of an identifier (t1, col_2 stay)
    .replace(/(^|[^\w."`$])-?\d+(?:\.\d+)?(?![\w"`])/g, '$1?')
    .replace(/\s+/g, ' ')
    .trim();
  // in (?) and in (?, ?, ?) -> in (?...): a list's length does not make another statement
  s = s.replace(/\bin\s*\(\s*\?(?:\s*,\s*\?)*\s*\)/gi, 'in (?...)');
  // other lists (?, ?, ?) -> (?...)
  s = s.replace(/\(\s*\?(?:\s*,\s*\?)+\s*\)/g, '(?...)');
  // values (?...), (?...), ... -> values (?...)...
  s = s.replace(/(\((?:\?|\?\.\.\.)\))(?:\s*,\s*\((?:\?|\?\.\.\.)\))+/g, '$1...');
  return s.length > MAX_SQL_LENGTH ? `${s.slice(0, MAX_SQL_LENGTH)}…` : s;
}

/** A parameter as its type and size only (values may be ID cards, salaries, password hashes). */
export function maskParameter(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return `string(${v.length})`;
  if (typeof v === 'number' || typeof v === 'bigint') return 'number';
  if (typeof v === 'boolean') return 'boolean';
  if (v instanceof Date) return 'date';
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return `bytes(${v.length})`;
  return typeof v;
}

/** An error's first line, with quoted values folded (MySQL names the duplicate value in its message). */
function maskError(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  const first = String(e?.message ?? err).split('\n')[0];
  const masked = first.replace(/'(?:[^'\\]|\\.)*'/g, "'?'").replace(/\((?:[^()]*)\)=\((?:[^()]*)\)/g, '(?)=(?)');
  const code = e?.code ? `[${String(e.code)}] ` : '';
  return `${code}${masked}`.slice(0, 300);
}

function statementKind(sql: string): string {
  const m = /^\s*\(?\s*(\w+)/.exec(sql);
  const w = (m?.[1] ?? '').toLowerCase();
  return ['select', 'insert', 'update', 'delete', 'with'].includes(w) ? (w === 'with' ? 'select' : w) : 'other';
}

export class QueryStats {
  private statements = new Map<string, Statement>();
  private normalised = new Map<string, string>();
  private startedAt = Date.now();
  private capped = false;

  constructor(
    readonly dialect: string,
    /** Pool state where the driver exposes it (PostgreSQL, MySQL); null for SQLite's single connection. */
    private readonly poolState: () => PoolState | null = () => null,
    readonly maxStatements = DEFAULT_MAX_STATEMENTS,
    /** The clock (tests move it to check the windows). */
    private readonly now: () => number = Date.now,
  ) {}

  /** Kysely's `log` option. */
  readonly log = (event: LogEvent): void => {
    try {
      this.record(event.query.sql, event.query.parameters, event.queryDurationMillis, event.level === 'error' ? event.error : undefined);
    } catch {
      // statistics must never break a query
    }
  };

  record(rawSql: string, parameters: readonly unknown[], durationMs: number, error?: unknown): void {
    let key = this.normalised.get(rawSql);
    if (key === undefined) {
      key = normaliseSql(rawSql);
      if (this.normalised.size >= NORMALISED_CACHE_LIMIT) this.normalised.clear();
      this.normalised.set(rawSql, key);
    }
    const at = this.now();
    let st = this.statements.get(key);
    if (!st) {
      if (this.statements.size >= this.maxStatements) {
        this.capped = true;
        key = OVERFLOW_STATEMENT;
        st = this.statements.get(key);
      }
      if (!st) {
        st = { sql: key, kind: key === OVERFLOW_STATEMENT ? 'other' : statementKind(key), total: emptyTotals(), minutes: [], lastAt: at };
        this.statements.set(key, st);
      }
    }
    const minute = Math.floor(at / 60_000);
    let bucket = st.minutes[st.minutes.length - 1];
    if (!bucket || bucket.minute !== minute) {
      bucket = { minute, ...emptyTotals() };
      st.minutes.push(bucket);
      // drop what is older than the longest window
      while (st.minutes.length && st.minutes[0].minute <= minute - HISTORY_MINUTES) st.minutes.shift();
    }
    const ms = Number.isFinite(durationMs) ? durationMs : 0;
    for (const b of [st.total, bucket]) {
      b.count += 1;
      b.totalMs += ms;
      if (ms >= SLOW_QUERY_MS) b.slow += 1;
      if (error !== undefined) b.errors += 1;
      if (ms >= b.maxMs) {
        b.maxMs = ms;
        b.maxAt = at;
        b.maxParams = parameters.slice(0, 50).map(maskParameter);
      }
    }
    st.lastAt = at;
    if (error !== undefined) {
      st.lastError = maskError(error);
      st.lastErrorAt = at;
    }
  }

  /** Forget everything counted so far (the screen's 重置). */
  reset(): void {
    this.statements.clear();
    this.normalised.clear();
    this.capped = false;
    this.startedAt = this.now();
  }

  /** The figures since start/reset (`windowMinutes` absent) or over the last `windowMinutes` minutes. */
  snapshot(windowMinutes?: number): QueryStatsSnapshot {
    const nowMs = this.now();
    const fromMinute = windowMinutes ? Math.floor(nowMs / 60_000) - windowMinutes + 1 : undefined;
    const statements: StatementStats[] = [];
    for (const st of this.statements.values()) {
      let t: Omit<Bucket, 'minute'>;
      if (fromMinute === undefined) t = st.total;
      else {
        t = emptyTotals();
        for (const b of st.minutes) {
          if (b.minute < fromMinute) continue;
          t.count += b.count;
          t.totalMs += b.totalMs;
          t.errors += b.errors;
          t.slow += b.slow;
          if (b.maxMs >= t.maxMs) {
            t.maxMs = b.maxMs;
            t.maxAt = b.maxAt;
            t.maxParams = b.maxParams;
          }
        }
        if (t.count === 0) continue;
      }
      statements.push({
        sql: st.sql,
        kind: st.kind,
        count: t.count,
        totalMs: round(t.totalMs),
        avgMs: round(t.count ? t.totalMs / t.count : 0),
        maxMs: round(t.maxMs),
        errors: t.errors,
        slow: t.slow,
        maxParams: t.maxParams,
        maxAt: t.maxAt ? new Date(t.maxAt).toISOString() : null,
        lastAt: new Date(st.lastAt).toISOString(),
        lastError: st.lastError ?? null,
      });
    }
    const queries = statements.reduce((n, s) => n + s.count, 0);
    const totalMs = statements.reduce((n, s) => n + s.totalMs, 0);
    let pool: PoolState | null = null;
    try {
      pool = this.poolState();
    } catch {
      pool = null;
    }
    return {
      window: windowMinutes ?? 'all',
      since: new Date(fromMinute === undefined ? this.startedAt : Math.max(this.startedAt, fromMinute * 60_000)).toISOString(),
      dialect: this.dialect,
      queries,
      errors: statements.reduce((n, s) => n + s.errors, 0),
      slow: statements.reduce((n, s) => n + s.slow, 0),
      totalMs: round(totalMs),
      avgMs: round(queries ? totalMs / queries : 0),
      distinctStatements: this.statements.size,
      capped: this.capped,
      maxStatements: this.maxStatements,
      slowThresholdMs: SLOW_QUERY_MS,
      pool,
      statements,
    };
  }
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

/** Which statistics belong to which Kysely instance (set by core/db.ts; read by the SQL monitor routes). */
const byDb = new WeakMap<object, QueryStats>();

export function attachQueryStats(db: Db, stats: QueryStats): void {
  byDb.set(db, stats);
}

/** The statistics of a database opened by core/db.ts; undefined for one opened elsewhere. */
export function queryStatsOf(db: Db): QueryStats | undefined {
  return byDb.get(db);
}
