import { firstIssueMessage } from '@app/shared/errors/zodIssues';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { z } from 'zod';
import { isUniqueViolation, likeContains, nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { nextFireTimes, normaliseCron } from '../../core/scheduler/cron.ts';
import { countOf } from '../../crud/pagedQuery.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { armJobs, handlerOf, jobKey, jobRowToApi, missedSince, paramsObject, runOptionsOfRow, type ScheduledJobDbRow, seedSystemJobs } from './jobStore.ts';
import { assertLogRetentionFloor, HANDLER_PARAMS, registerSystemHandlers, SYSTEM_HANDLERS } from './systemHandlers.ts';
import { createJob, deleteJob, deleteJobs, execJob, type JobListRow, type jobBody, jobHandlers, jobLogException, jobNextRuns, listJobLogs, listJobs, toggleJob, updateJob } from '@app/shared/contracts/jobs';
import { MAINTENANCE_HANDLER_PARAMS, registerMaintenanceHandlers } from './maintenanceHandlers.ts';
import { OFFICE_HANDLER_PARAMS, registerOfficeHandlers } from './officeHandlers.ts';

/** Beans of handlers that belong to the model tasks (/taskManagement), not to system jobs. */
const MODEL_TASK_BEANS = new Set(['modelTask']);

/**
 * 系统工具 › 定时任务 (spec §7 "Jobs variant"): system jobs over the scheduler plugin. A row names a registered
 * handler (`beanName.methodName`, chosen from `GET /api/jobs/handlers`) and its params are checked by that
 * handler's schema; its key on the scheduler is `job:<id>`. The run log is `GET /api/jobLogs` (the rows of
 * `job:` keys; model tasks read theirs under /taskManagement).
 */
export async function registerJobs(fastify: FastifyInstance): Promise<void> {
  const app = fastify;
  const db = app.ctx.db;
  registerSystemHandlers(app);
  registerOfficeHandlers(app);
  registerMaintenanceHandlers(app);

  // a run's end updates its row: last run, consecutive failures, and the pause the scheduler decided
  app.scheduler.onRunEnd(async (e) => {
    const m = /^job:(\d+)$/.exec(e.key);
    if (!m) return;
    const id = Number(m[1]);
    await db
      .updateTable('sys_scheduled_job')
      .set({ last_run_time: nowIso(), last_success: e.ok ? 1 : 0, consecutive_failures: e.ok ? 0 : sql<number>`consecutive_failures + 1`, ...(e.autoPaused ? { is_pause: 1 } : {}) })
      .where('id', '=', id)
      .execute();
  });

  app.addHook('onReady', async () => {
    await seedSystemJobs(app);
    await armJobs(app);
  });

  /** Handlers a job row may name: all but the model-task runner, which 任务管理 schedules with its own checks. */
  const systemHandlers = () => app.scheduler.handlers().filter((h) => !MODEL_TASK_BEANS.has(h.name.split('.')[0]));

  /** The checked row values of a create or update body: a registered handler, a firing cron, valid params. */
  function checkedValues(body: z.infer<typeof jobBody>) {
    const handler = `${body.beanName}.${body.methodName}`;
    if (!systemHandlers().some((h) => h.name === handler)) throw new AppError('JOB_HANDLER_UNKNOWN', { handler: handler.slice(0, 100) });
    const cron = normaliseCron(body.cronExpression).display;
    let params: Record<string, unknown>;
    if (body.params === null || body.params === undefined || (typeof body.params === 'string' && !body.params.trim())) params = {};
    else if (typeof body.params === 'string') {
      try {
        params = JSON.parse(body.params);
      } catch {
        throw new AppError('JOB_PARAMS_INVALID', { reason: { code: 'JOB_PARAMS_NOT_JSON' } });
      }
      if (!params || typeof params !== 'object' || Array.isArray(params)) throw new AppError('JOB_PARAMS_INVALID', { reason: { code: 'JOB_PARAMS_NOT_OBJECT' } });
    } else params = body.params;
    const schema = HANDLER_PARAMS[handler] ?? OFFICE_HANDLER_PARAMS[handler] ?? MAINTENANCE_HANDLER_PARAMS[handler];
    if (schema) {
      const r = schema.safeParse(params);
      if (!r.success) throw new AppError('JOB_PARAMS_INVALID', { reason: firstIssueMessage(r.error) });
      if (handler === SYSTEM_HANDLERS.logRetention) assertLogRetentionFloor(app, Number((r.data as { days: number }).days));
    }
    return {
      handler,
      params,
      values: {
        job_name: body.jobName,
        bean_name: body.beanName,
        method_name: body.methodName,
        params: Object.keys(params).length ? JSON.stringify(params) : '',
        cron_expression: cron,
        remark: body.remark ?? null,
        ...(body.retryCount === undefined ? {} : { retry_count: body.retryCount }),
        ...(body.retryIntervalSec === undefined ? {} : { retry_interval_sec: body.retryIntervalSec }),
        ...(body.misfirePolicy === undefined ? {} : { misfire_policy: body.misfirePolicy }),
        ...(body.allowOverlap === undefined ? {} : { allow_overlap: body.allowOverlap ? 1 : 0 }),
      },
    };
  }

  async function loadRow(id: number): Promise<ScheduledJobDbRow> {
    const row = await db.selectFrom('sys_scheduled_job').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('SCHEDULED_JOB_NOT_FOUND', {});
    return row;
  }

  async function arm(row: ScheduledJobDbRow): Promise<void> {
    const api = jobRowToApi(row);
    await app.scheduler.schedule(jobKey(api.id), { jobName: api.jobName, cron: api.cronExpression, handler: handlerOf(row), params: paramsObject(api.params), paused: api.isPause, options: runOptionsOfRow(api), since: missedSince(api) });
  }

  routeContract(app, listJobs, async (req) => {
      const { jobName, page = 0, size = 10 } = req.query;
      let qb = db.selectFrom('sys_scheduled_job');
      if (jobName) qb = qb.where(likeContains(app.ctx.dialect, 'job_name', jobName));
      const totalElements = await countOf(qb);
      const rows = totalElements ? await qb.selectAll().orderBy('id', 'desc').limit(size).offset(page * size).execute() : [];
      const content = await Promise.all(
        rows.map(async (r): Promise<JobListRow> => {
          const api = jobRowToApi(r);
          const [running, next] = await Promise.all([app.scheduler.isRunning(jobKey(api.id)), api.isPause ? null : app.scheduler.nextRun(jobKey(api.id))]);
          return { ...api, running, nextRunTime: next ? next.toISOString() : null };
        }),
      );
      return { content, totalElements };
  });

  routeContract(app, jobHandlers, async () =>
      systemHandlers().map((h) => {
          const [beanName, methodName = ''] = h.name.split('.');
          return { name: h.name, beanName, methodName, title: h.title };
        }),
  );

  routeContract(app, jobNextRuns, async (req) => ({ times: nextFireTimes(req.query.cron, 5) }));

  routeContract(app, createJob, async (req, reply) => {
    const { values } = checkedValues(req.body);
    const now = nowIso();
    const isPause = req.body.isPause === true ? 1 : 0;
    try {
      await db
        .insertInto('sys_scheduled_job')
        .values({ ...values, is_pause: isPause, consecutive_failures: 0, owner_id: req.user?.id ?? null, create_time: now, update_time: now })
        .execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('JOB_NAME_TAKEN', {});
      throw err;
    }
    const row = await db.selectFrom('sys_scheduled_job').selectAll().where('job_name', '=', values.job_name).executeTakeFirstOrThrow();
    await arm(row);
    return reply.code(201).send(jobRowToApi(row));
  });

  routeContract(app, updateJob, async (req, reply) => {
    const existing = await loadRow(req.body.id);
    const { values } = checkedValues(req.body);
    // the editor becomes the owner: the alerts of what they set up go to them
    const set = { ...values, owner_id: req.user?.id ?? null, update_time: nowIso(), ...(req.body.isPause === undefined ? {} : { is_pause: req.body.isPause ? 1 : 0 }) };
    try {
      await db.updateTable('sys_scheduled_job').set(set).where('id', '=', existing.id).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('JOB_NAME_TAKEN', {});
      throw err;
    }
    await arm(await loadRow(existing.id));
    return reply.code(204).send();
  });

  // 暂停/恢复: one toggle, as the screen's single button calls it
  routeContract(app, toggleJob, async (req) => {
    const row = await loadRow(req.params.id);
    const isPause = Number(row.is_pause) === 1 ? 0 : 1;
    // resuming clears the failure streak that may have paused it
    await db
      .updateTable('sys_scheduled_job')
      .set({ is_pause: isPause, update_time: nowIso(), ...(isPause ? {} : { consecutive_failures: 0 }) })
      .where('id', '=', row.id)
      .execute();
    if (!isPause) await app.ctx.cache.del(`sched:failures:${jobKey(row.id)}`);
    const updated = await loadRow(row.id);
    try {
      await arm(updated);
    } catch (err) {
      // resuming a row whose handler or cron is no longer valid: keep it paused and say why
      if (!isPause) await db.updateTable('sys_scheduled_job').set({ is_pause: 1 }).where('id', '=', row.id).execute();
      throw err;
    }
    return { id: row.id, isPause: isPause === 1 };
  });

  routeContract(app, execJob, async (req) => {
    const row = await loadRow(req.params.id);
    const api = jobRowToApi(row);
    await app.scheduler.runNow(jobKey(api.id), { jobName: api.jobName, handler: handlerOf(row), params: paramsObject(api.params), cron: api.cronExpression, options: runOptionsOfRow(api) });
    return { id: api.id };
  });

  async function removeJob(id: number): Promise<void> {
    const row = await loadRow(id);
    if (await app.scheduler.isRunning(jobKey(row.id))) throw new AppError('JOB_RUNNING', {});
    await app.scheduler.unschedule(jobKey(row.id));
    await db.deleteFrom('sys_scheduled_job').where('id', '=', row.id).execute();
  }

  routeContract(app, deleteJob, async (req) => {
    await removeJob(req.params.id);
    return {};
  });

  routeContract(app, deleteJobs, async (req) => {
    // all or nothing: every job must exist and be idle before any is deleted
    for (const id of req.body) {
      await loadRow(id);
      if (await app.scheduler.isRunning(jobKey(id))) throw new AppError('JOB_RUNNING', {});
    }
    for (const id of req.body) await removeJob(id);
    return {};
  });

  routeContract(app, listJobLogs, async (req) => {
    const { jobName, isSuccess, page = 0, size = 6 } = req.query;
    let qb = db.selectFrom('sys_job_log').where('job_key', 'like', 'job:%');
    if (jobName) qb = qb.where(likeContains(app.ctx.dialect, 'job_name', jobName));
    if (isSuccess) qb = qb.where('is_success', '=', isSuccess === 'true' ? 1 : 0);
    const totalElements = await countOf(qb);
    const rows = totalElements
      ? await qb
          .select(['id', 'job_key', 'job_name', 'bean_name', 'method_name', 'params', 'cron_expression', 'trigger_kind', 'fire_time', 'is_success', 'time', 'summary', 'output_count', 'calc_count', 'instance', 'create_time'])
          .select(sql<number>`case when exception_detail is null then 0 else 1 end`.as('has_detail'))
          .orderBy('id', 'desc')
          .limit(size)
          .offset(page * size)
          .execute()
      : [];
    // the list leaves the exception text out (long); GET /api/jobLogs/{id} reads one
    const content = rows.map((r) => ({
      id: Number(r.id),
      jobKey: r.job_key,
      jobName: r.job_name,
      beanName: r.bean_name,
      methodName: r.method_name,
      params: r.params,
      cronExpression: r.cron_expression,
      trigger: r.trigger_kind,
      fireTime: r.fire_time,
      isSuccess: Number(r.is_success) === 1,
      time: Number(r.time ?? 0),
      summary: r.summary,
      outputCount: r.output_count === null ? null : Number(r.output_count),
      calcCount: r.calc_count === null ? null : Number(r.calc_count),
      instance: r.instance,
      hasException: Number(r.has_detail) === 1,
      createTime: r.create_time,
    }));
    return { content, totalElements };
  });

  routeContract(app, jobLogException, async (req) => {
      const row = await db.selectFrom('sys_job_log').select('exception_detail').where('id', '=', req.params.id).where('job_key', 'like', 'job:%').executeTakeFirst();
      if (!row) throw new AppError('JOB_LOG_NOT_FOUND', {});
      return { exceptionDetail: row.exception_detail ?? '' };
  });
}
