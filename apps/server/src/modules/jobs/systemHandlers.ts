import { codedText } from '@app/shared/errors/zodIssues';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { chinaToday } from '../dispatch/lookups.ts';
import { markContractReminders } from '../dispatch/contractReminders.ts';

/**
 * The system handlers a job row may name (系统工具 › 定时任务). Each is code registered by name: a row stores
 * `beanName.methodName` of one of these, never a class or method to look up. `paramsSchema` checks a row's
 * params when it is saved and again when it runs.
 */
export const SYSTEM_HANDLERS = {
  contractReminders: 'contractReminderTask.refresh',
  logRetention: 'logRetentionTask.run',
  jobLogRetention: 'jobLogRetentionTask.run',
  /** Registered by the model-data module (operations/tasks/modelData.ts); seeded here with the other system jobs. */
  modelDataRetention: 'modelDataRetention.run',
} as const;

const daysParams = (dflt: number) =>
  z.object({
    days: z.coerce.number(codedText('JOB_PARAM_INT_RANGE', { name: 'days', min: 1, max: 3650 })).int(codedText('JOB_PARAM_INT_RANGE', { name: 'days', min: 1, max: 3650 })).min(1, codedText('JOB_PARAM_INT_RANGE', { name: 'days', min: 1, max: 3650 })).max(3650, codedText('JOB_PARAM_INT_RANGE', { name: 'days', min: 1, max: 3650 })).default(dflt),
  });

/** Params schemas by handler name (the routes check a row's params with them). */
export const HANDLER_PARAMS: Record<string, z.ZodType<Record<string, unknown>>> = {
  [SYSTEM_HANDLERS.contractReminders]: z.object({}),
  [SYSTEM_HANDLERS.logRetention]: daysParams(180),
  [SYSTEM_HANDLERS.jobLogRetention]: daysParams(90),
  // no days given: MODELDATA_KEEP_DAYS (default 180) decides
  [SYSTEM_HANDLERS.modelDataRetention]: z.object({
    days: z.coerce.number(codedText('JOB_PARAM_INT_RANGE', { name: 'days', min: 1, max: 3650 })).int(codedText('JOB_PARAM_INT_RANGE', { name: 'days', min: 1, max: 3650 })).min(1, codedText('JOB_PARAM_INT_RANGE', { name: 'days', min: 1, max: 3650 })).max(3650, codedText('JOB_PARAM_INT_RANGE', { name: 'days', min: 1, max: 3650 })).optional(),
  }),
};

/** The cut-off time `days` ago, as the datetime columns store it (ISO, UTC). */
function daysAgoIso(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString();
}

/** The `method` of the audit row each log purge leaves; the purge never deletes rows marked so. */
export const LOG_PURGE_AUDIT_METHOD = `job ${SYSTEM_HANDLERS.logRetention}`;
/** The fewest days of operation/error logs a purge keeps unless LOG_RETENTION_MIN_DAYS lowers it. */
export const LOG_RETENTION_FLOOR_DAYS = 180;

/** Refuse a log retention shorter than the floor (LOG_RETENTION_MIN_DAYS, default 180): when saved and when run. */
export function assertLogRetentionFloor(app: FastifyInstance, days: number): void {
  const floor = app.ctx.config.logRetentionMinDays ?? LOG_RETENTION_FLOOR_DAYS;
  if (days < floor) throw new AppError('LOG_RETENTION_BELOW_FLOOR', { days, min: floor });
}

/** Delete in slices, so a large table is not locked by one huge statement and the run can stop between slices. */
async function deleteOlderThan(app: FastifyInstance, table: 'sys_log' | 'sys_job_log', before: string, signal: AbortSignal): Promise<number> {
  const db = app.ctx.db;
  let total = 0;
  for (;;) {
    if (signal.aborted) throw signal.reason;
    let qb = db.selectFrom(table).select('id').where('create_time', '<', before);
    // the trail of earlier purges stays (N8): who purged how much is not itself purged
    if (table === 'sys_log') qb = qb.where((eb) => eb.or([eb('method', 'is', null), eb('method', '<>', LOG_PURGE_AUDIT_METHOD)]));
    const ids = await qb.orderBy('id').limit(2000).execute();
    if (ids.length === 0) return total;
    await db
      .deleteFrom(table)
      .where(
        'id',
        'in',
        ids.map((r) => r.id),
      )
      .execute();
    total += ids.length;
  }
}

export function registerSystemHandlers(app: FastifyInstance): void {
  app.scheduler.registerHandler({
    name: SYSTEM_HANDLERS.contractReminders,
    title: '合同到期提醒：标记已到提醒日期的员工、已到期的合同',
    timeoutMs: 10 * 60_000,
    async run(ctx) {
      await ctx.progress('标记合同提醒', 0.1);
      const today = chinaToday();
      const counts = await markContractReminders(app.ctx.db, today);
      return { summary: `${today}：新提醒 ${counts.reminded} 人，合同到期 ${counts.expired} 人`, outputCount: counts.reminded + counts.expired };
    },
  });

  app.scheduler.registerHandler({
    name: SYSTEM_HANDLERS.logRetention,
    title: '日志清理：删除 days 天前的操作日志和异常日志',
    timeoutMs: 30 * 60_000,
    async run(ctx) {
      const { days } = HANDLER_PARAMS[SYSTEM_HANDLERS.logRetention].parse(ctx.params) as { days: number };
      // a floor, so that a job edited to days=1 cannot wipe the trail of what was just done (N8); the
      // operator may lower it in the server's configuration, not through the job screen
      assertLogRetentionFloor(app, days);
      const before = daysAgoIso(days);
      const started = Date.now();
      const removed = await deleteOlderThan(app, 'sys_log', before, ctx.signal);
      await app.ctx.db
        .insertInto('sys_log')
        .values({
          log_type: 'INFO',
          username: 'system',
          description: `日志清理：删除 ${before.slice(0, 10)} 之前（${days} 天前）的操作/异常日志 ${removed} 条`,
          method: LOG_PURGE_AUDIT_METHOD,
          params: JSON.stringify({ job: ctx.key, days, before, removed }),
          request_ip: null,
          browser: null,
          time: Date.now() - started,
          exception_detail: null,
          create_time: nowIso(),
        })
        .execute();
      return { summary: `删除 ${days} 天前的操作/异常日志 ${removed} 条`, calcCount: removed };
    },
  });

  app.scheduler.registerHandler({
    name: SYSTEM_HANDLERS.jobLogRetention,
    title: '执行日志清理：删除 days 天前的定时任务执行日志',
    timeoutMs: 30 * 60_000,
    async run(ctx) {
      const { days } = HANDLER_PARAMS[SYSTEM_HANDLERS.jobLogRetention].parse(ctx.params) as { days: number };
      const removed = await deleteOlderThan(app, 'sys_job_log', daysAgoIso(days), ctx.signal);
      return { summary: `删除 ${days} 天前的执行日志 ${removed} 条`, calcCount: removed };
    },
  });
}

/** Job rows seeded on first start (by `seed_key`: an operator's edits and deletions stay). */
export const SYSTEM_JOB_SEEDS = [
  { seedKey: SYSTEM_HANDLERS.contractReminders, jobName: '合同到期提醒', cron: '0 0 1 * * ?', params: {}, remark: '每天 01:00 标记合同提醒与到期' },
  { seedKey: SYSTEM_HANDLERS.logRetention, jobName: '日志清理', cron: '0 30 2 * * ?', params: { days: 180 }, remark: '每天 02:30 删除 180 天前的操作/异常日志' },
  { seedKey: SYSTEM_HANDLERS.jobLogRetention, jobName: '执行日志清理', cron: '0 40 2 * * ?', params: { days: 90 }, remark: '每天 02:40 删除 90 天前的执行日志' },
  { seedKey: SYSTEM_HANDLERS.modelDataRetention, jobName: '模型数据清理', cron: '0 50 2 * * ?', params: {}, remark: '每天 02:50 删除保留期（MODELDATA_KEEP_DAYS，默认180天；参数 days 可覆盖）之前的模型数据文件' },
];
