import type { SqlSnapshot, SqlStatement } from './contracts/monitor.ts';

/**
 * The SQL monitor's figures (issue 12 item 7) as the server's query statistics (apps/server/src/core/queryStats.ts)
 * collect them: the shapes are the contract's (contracts/monitor.ts, GET /api/monitor/sql), named for the collector.
 */
export type StatementStats = SqlStatement;
/** The database pool at the time of a snapshot (null where the driver does not tell). */
export type PoolState = NonNullable<SqlSnapshot['pool']>;
export type QueryStatsSnapshot = SqlSnapshot;
