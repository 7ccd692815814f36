import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../core/errors.ts';
import { type QueryStats, queryStatsOf } from '../../../core/queryStats.ts';

/**
 * 系统工具 › SQL监控 (issue 12 item 7): the statement statistics the database layer collects (core/queryStats.ts,
 * fed by Kysely's log hook in core/db.ts) — counts and times per normalised statement, the slowest executions
 * with their parameters masked, errors, the pool — since start or over the last 5 / 60 minutes, and a reset.
 * Administrators only: ADMIN or SQL_MONITOR_*.
 */

const READ = ['SQL_MONITOR_ALL', 'SQL_MONITOR_SELECT'];
const RESET = ['SQL_MONITOR_ALL', 'SQL_MONITOR_DELETE'];
const tags = ['SQL监控'];

const WINDOW_MESSAGE = '统计时段只能是 all、5 或 60（分钟）';
const windowQuery = z
  .union([z.string(), z.number()], { error: WINDOW_MESSAGE })
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '' || v === 'all') return undefined;
    if (v === 5 || v === '5') return 5;
    if (v === 60 || v === '60') return 60;
    ctx.addIssue({ code: 'custom', message: WINDOW_MESSAGE });
    return z.NEVER;
  });

const statementSchema = z.object({
  sql: z.string(),
  kind: z.string(),
  count: z.number(),
  totalMs: z.number(),
  avgMs: z.number(),
  maxMs: z.number(),
  errors: z.number(),
  slow: z.number(),
  maxParams: z.array(z.string()),
  maxAt: z.string().nullable(),
  lastAt: z.string(),
  lastError: z.string().nullable(),
});
const snapshotSchema = z.object({
  window: z.union([z.literal('all'), z.number()]),
  since: z.string(),
  dialect: z.string(),
  queries: z.number(),
  errors: z.number(),
  slow: z.number(),
  totalMs: z.number(),
  avgMs: z.number(),
  distinctStatements: z.number(),
  capped: z.boolean(),
  maxStatements: z.number(),
  slowThresholdMs: z.number(),
  pool: z.object({ total: z.number(), idle: z.number(), waiting: z.number(), max: z.number() }).nullable(),
  statements: z.array(statementSchema),
});

const SORTS = ['count', 'totalMs', 'avgMs', 'maxMs', 'errors'] as const;

export function registerSqlMonitor(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const stats = (): QueryStats => {
    const s = queryStatsOf(app.ctx.db);
    if (!s) throw new AppError('SQL_MONITOR_UNAVAILABLE', {});
    return s;
  };

  app.get(
    '/api/monitor/sql',
    {
      config: { auth: READ },
      schema: {
        tags,
        summary: 'SQL 统计：按归一化语句的次数、总耗时、平均/最大耗时、错误、慢查询与连接池',
        querystring: z.object({
          window: windowQuery,
          sort: z.enum(SORTS, { error: '不支持的排序字段' }).optional(),
          limit: z
            .union([z.string(), z.number()], { error: 'size 必须是大于0的整数' })
            .optional()
            .transform((v, ctx) => {
              if (v === undefined || v === '') return 100;
              const n = Number(v);
              if (/^\d+$/.test(String(v)) && n > 0) return Math.min(n, 1000);
              ctx.addIssue({ code: 'custom', message: 'size 必须是大于0的整数' });
              return z.NEVER;
            }),
        }),
        response: { 200: snapshotSchema },
      },
    },
    async (req) => {
      const snap = stats().snapshot(req.query.window);
      const key = req.query.sort ?? 'totalMs';
      snap.statements.sort((a, b) => b[key] - a[key] || b.count - a.count);
      snap.statements = snap.statements.slice(0, req.query.limit);
      return snap;
    },
  );

  app.get(
    '/api/monitor/sql/slow',
    {
      config: { auth: READ },
      schema: {
        tags,
        summary: '最慢的语句（参数只显示类型与长度）',
        querystring: z.object({ window: windowQuery }),
        response: { 200: z.object({ slowThresholdMs: z.number(), content: z.array(statementSchema) }) },
      },
    },
    async (req) => {
      const snap = stats().snapshot(req.query.window);
      return { slowThresholdMs: snap.slowThresholdMs, content: snap.statements.sort((a, b) => b.maxMs - a.maxMs).slice(0, 20) };
    },
  );

  app.delete(
    '/api/monitor/sql',
    { config: { auth: RESET, log: '重置SQL监控统计' }, schema: { tags, summary: '重置 SQL 统计' } },
    async (_req, reply) => {
      stats().reset();
      return reply.code(204).send();
    },
  );
}
