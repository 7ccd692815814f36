import type { FastifyInstance } from 'fastify';
import { resetSqlStatistics, slowSqlStatements, sqlStatistics } from '@app/shared/contracts/monitor';
import { AppError } from '../../../core/errors.ts';
import { type QueryStats, queryStatsOf } from '../../../core/queryStats.ts';
import { routeContract } from '../../../crud/registerContract.ts';

/**
 * 系统工具 › SQL监控 (issue 12 item 7): the statement statistics the database layer collects (core/queryStats.ts,
 * fed by Kysely's log hook in core/db.ts) — counts and times per normalised statement, the slowest executions
 * with their parameters masked, errors, the pool — since start or over the last 5 / 60 minutes, and a reset.
 * Administrators only: ADMIN or SQL_MONITOR_*.
 */

export function registerSqlMonitor(fastify: FastifyInstance): void {
  const app = fastify;
  const stats = (): QueryStats => {
    const s = queryStatsOf(app.ctx.db);
    if (!s) throw new AppError('SQL_MONITOR_UNAVAILABLE', {});
    return s;
  };

  routeContract(app, sqlStatistics, async (req) => {
      const snap = stats().snapshot(req.query.window);
      const key = req.query.sort ?? 'totalMs';
      snap.statements.sort((a, b) => b[key] - a[key] || b.count - a.count);
      snap.statements = snap.statements.slice(0, req.query.limit);
      return snap;
  });

  routeContract(app, slowSqlStatements, async (req) => {
      const snap = stats().snapshot(req.query.window);
      return { slowThresholdMs: snap.slowThresholdMs, content: snap.statements.sort((a, b) => b.maxMs - a.maxMs).slice(0, 20) };
  });

  routeContract(app, resetSqlStatistics, async (_req, reply) => {
      stats().reset();
      return reply.code(204).send();
  });
}
