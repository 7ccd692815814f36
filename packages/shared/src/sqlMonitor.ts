/**
 * One statement's figures in the SQL monitor (issue 12 item 7): what the server's query statistics
 * (apps/server/src/core/queryStats.ts) collect and GET /api/monitor/sql sends, and what the screen lists.
 */
export interface StatementStats {
  sql: string;
  /** select / insert / update / delete / other. */
  kind: string;
  count: number;
  totalMs: number;
  avgMs: number;
  maxMs: number;
  errors: number;
  slow: number;
  /** Types and lengths of the parameters of the slowest execution (values are never kept). */
  maxParams: string[];
  maxAt: string | null;
  lastAt: string;
  lastError: string | null;
}

/** The database pool at the time of a snapshot (null where the driver does not tell). */
export interface PoolState {
  /** Connections open (in use + idle). */
  total: number;
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
  max: number;
}

/** What GET /api/monitor/sql answers: the totals of a window and its statements. */
export interface QueryStatsSnapshot {
  /** 'all' (since start or the last reset) or the minutes of the window. */
  window: 'all' | number;
  since: string;
  dialect: string;
  queries: number;
  errors: number;
  slow: number;
  totalMs: number;
  avgMs: number;
  distinctStatements: number;
  /** True when statements beyond the cap were counted under the overflow entry. */
  capped: boolean;
  maxStatements: number;
  slowThresholdMs: number;
  pool: PoolState | null;
  statements: StatementStats[];
}
