import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { createTask, deleteTask, execTask, listTaskLogs, listTasks, TASK_CODES, type TaskBody, type TaskState, taskDispatch, type taskRow, taskNextRuns, toggleTask, updateTask } from '@app/shared/contracts/operations/tasks';
import { likeContains, nowIso } from '../../../core/db.ts';
import { AppError } from '../../../core/errors.ts';
import { routeContract } from '../../../crud/registerContract.ts';
import { nextFireTimes, normaliseCron } from '../../../core/scheduler/index.ts';
import { coerceTaskParameters, needsProperty } from '../models/catalogue.ts';
import { findModel, ON_SHELF } from '../models/modelStore.ts';
import { runModelTask } from './runModelTask.ts';
import { armTask, findTask, MODEL_TASK_HANDLER, nextFire, TASK_STATE, type TaskDbRow, type TaskRow, taskFromDb, taskKey } from './taskStore.ts';
import { countOf } from '../../../crud/pagedQuery.ts';

export { TASK_CODES };

function paramsOf(body: TaskBody): Record<string, unknown> {
  if (typeof body.params === 'string') {
    if (!body.params.trim()) return {};
    try {
      const v = JSON.parse(body.params);
      if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      /* falls through */
    }
    throw new AppError('INVALID_JSON');
  }
  return (body.params ?? {}) as Record<string, unknown>;
}

/** The §5 rules in the spec's order, then the server's own (model on shelf, source exists, property a field). */
async function validateTask(app: FastifyInstance, body: TaskBody) {
  const modelId = body.modelInfo?.id ?? body.modelId ?? null;
  if (!modelId) throw new AppError('TASK_MODEL_REQUIRED');
  const jobName = String(body.jobName ?? '').trim();
  if (!jobName) throw new AppError('TASK_NAME_REQUIRED');
  if (jobName.length > 100) throw new AppError('FIELD_TOO_LONG', { label: '任务名称', max: 100 });
  const cron = String(body.cronTime ?? '').trim();
  if (!cron) throw new AppError('TASK_CRON_REQUIRED');
  if (!body.dataId) throw new AppError('TASK_DATA_REQUIRED');
  const model = await findModel(app, modelId).catch(() => {
    throw new AppError('TASK_MODEL_REQUIRED');
  });
  const given = paramsOf(body);
  const property = String(body.property ?? given.properties ?? '').trim();
  if (needsProperty(model.modelName) && !property) throw new AppError('MODEL_PROPERTY_REQUIRED');
  const { display } = normaliseCron(cron);
  if (model.statu !== ON_SHELF) throw new AppError('MODEL_OFF_SHELF');
  const source = await app.ctx.db.selectFrom('data_origin').select('table_data').where('id', '=', body.dataId).executeTakeFirst().catch(() => undefined);
  if (!source) throw new AppError('TASK_DATA_NOT_FOUND');
  if (property) {
    let fields: string[] = [];
    try {
      fields = (JSON.parse(source.table_data ?? '[]') as { fieldName: string }[]).map((f) => f.fieldName);
    } catch {
      fields = [];
    }
    if (fields.length && !fields.includes(property)) throw new AppError('TASK_PROPERTY_UNKNOWN', { field: property.slice(0, 50) });
  }
  const modelParams = coerceTaskParameters(model.parameterInfo, given);
  const params: Record<string, unknown> = { jobName, ...modelParams };
  if (property) params.properties = property;
  return { jobName, modelId: model.id, modelName: model.modelName, dataId: Number(body.dataId), cron: display, params };
}

async function taskToApi(_app: FastifyInstance, t: TaskRow, models: Map<number, string>): Promise<z.input<typeof taskRow>> {
  return {
    id: t.id,
    jobName: t.jobName,
    // the rows hold only what this module writes: a TASK_STATE and 'success' / 'failure'
    isPause: t.isPause as TaskState,
    modelInfo: { id: t.modelId, modelName: models.get(t.modelId) ?? null },
    dataId: t.dataId,
    cronTime: t.cronTime,
    beanName: 'modelTask',
    params: JSON.stringify(t.params),
    nextRunAt: t.isPause === TASK_STATE.enabled ? nextFire(t.cronTime) : null,
    lastRunAt: t.lastRunAt,
    lastStatus: t.lastStatus as 'success' | 'failure' | null,
    createTime: t.createTime,
    updateTime: t.updateTime,
  };
}

async function modelNames(app: FastifyInstance, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await app.ctx.db.selectFrom('analysis_model').select(['id', 'model_name']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [Number(r.id), String(r.model_name)]));
}

/** /taskManagement/*: model tasks on the shared scheduler (spec §2, §4 isPause buttons, §5 messages). */
export function registerTaskRoutes(fastify: FastifyInstance): void {
  const app = fastify;
  const db = app.ctx.db;

  app.scheduler.registerHandler({ name: MODEL_TASK_HANDLER, title: '模型任务', timeoutMs: 30 * 60_000, run: (ctx) => runModelTask(app, ctx) });

  // a run's end decides the state: auto-paused -> 1; started from paused -> 1; no future fire -> 2; else 0
  app.scheduler.onRunEnd(async (e) => {
    if (!e.key.startsWith('task:')) return;
    const id = Number(e.key.slice(5));
    const row = await db.selectFrom('model_task').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return;
    if (e.error === '上次运行未结束，本次跳过' && (await app.scheduler.isRunning(e.key))) return;
    const t = taskFromDb(row);
    const state = e.autoPaused ? TASK_STATE.paused : t.resumeState === TASK_STATE.paused ? TASK_STATE.paused : nextFire(t.cronTime) === null ? TASK_STATE.finished : TASK_STATE.enabled;
    await db
      .updateTable('model_task')
      .set({ is_pause: state, resume_state: state === TASK_STATE.finished ? t.resumeState : state, last_status: e.ok ? 'success' : 'failure' })
      .where('id', '=', id)
      .execute();
    if (state === TASK_STATE.finished || e.autoPaused) await app.scheduler.unschedule(e.key).catch(() => undefined);
  });

  // every instance arms the rows at start; a row left "running" by a dead instance returns to its resume state
  app.addHook('onReady', async () => {
    const rows = (await db.selectFrom('model_task').selectAll().execute()).map((r) => taskFromDb(r));
    for (const t of rows) {
      if (t.isPause === TASK_STATE.running && !(await app.scheduler.isRunning(taskKey(t.id)))) {
        await db.updateTable('model_task').set({ is_pause: t.resumeState, last_status: 'failure' }).where('id', '=', t.id).execute();
        t.isPause = t.resumeState;
      }
      await armTask(app, t).catch((err) => app.log.warn({ err, task: t.id }, 'model task not armed'));
    }
  });

  routeContract(app, listTasks, async (req) => {
    const { page = 0, size = 10, jobName } = req.query;
    let qb = db.selectFrom('model_task');
    if (jobName?.trim()) qb = qb.where(likeContains(app.ctx.dialect, 'job_name', jobName.trim()));
    const total = await countOf(qb);
    const rows = total ? (await qb.selectAll().orderBy('id', 'desc').limit(size).offset(page * size).execute()).map((r) => taskFromDb(r)) : [];
    const names = await modelNames(app, rows.map((r) => r.modelId));
    return { content: await Promise.all(rows.map((r) => taskToApi(app, r, names))), totalElements: total };
  });

  routeContract(app, createTask, async (req, reply) => {
    const v = await validateTask(app, req.body);
    if (await db.selectFrom('model_task').select('id').where('job_name', '=', v.jobName).executeTakeFirst()) throw new AppError('TASK_NAME_TAKEN');
    const now = nowIso();
    const user = req.user!;
    await db
      .insertInto('model_task')
      .values({
        job_name: v.jobName,
        is_pause: TASK_STATE.enabled,
        resume_state: TASK_STATE.enabled,
        model_id: v.modelId,
        data_id: v.dataId,
        cron_time: v.cron,
        params: JSON.stringify(v.params),
        owner_id: user.id,
        owner_dept_id: user.deptId,
        timeout_sec: 1800,
        create_time: now,
        update_time: now,
      })
      .execute();
    const t = taskFromDb(await db.selectFrom('model_task').selectAll().where('job_name', '=', v.jobName).executeTakeFirstOrThrow());
    await armTask(app, t);
    return reply.code(201).send(await taskToApi(app, t, new Map([[v.modelId, v.modelName]])));
  });

  routeContract(app, updateTask, async (req, reply) => {
    if (!req.body.id) throw new AppError('TASK_NOT_FOUND');
    const t = await findTask(app, req.body.id);
    if (t.isPause === TASK_STATE.running || (await app.scheduler.isRunning(taskKey(t.id)))) throw new AppError('TASK_RUNNING');
    const v = await validateTask(app, req.body);
    if (v.jobName !== t.jobName) throw new AppError('TASK_NAME_IMMUTABLE');
    // a finished task edited with a cron that fires again is enabled again
    const state = t.isPause === TASK_STATE.finished ? (nextFire(v.cron) ? TASK_STATE.enabled : TASK_STATE.finished) : t.isPause;
    // the editor becomes the owner: runs read the data source as the owner, so an editor who kept someone
    // else's ownership would borrow their rights and data scope (N4)
    const editor = req.user!;
    await db
      .updateTable('model_task')
      .set({
        model_id: v.modelId,
        data_id: v.dataId,
        cron_time: v.cron,
        params: JSON.stringify(v.params),
        is_pause: state,
        resume_state: state === TASK_STATE.finished ? t.resumeState : state,
        owner_id: editor.id,
        owner_dept_id: editor.deptId,
        update_time: nowIso(),
      })
      .where('id', '=', t.id)
      .execute();
    await armTask(app, { id: t.id, jobName: t.jobName, cronTime: v.cron, isPause: state, resumeState: state });
    return reply.code(204).send();
  });

  routeContract(app, deleteTask, async (req) => {
    const t = await findTask(app, req.params.id);
    if (t.isPause === TASK_STATE.running || (await app.scheduler.isRunning(taskKey(t.id)))) throw new AppError('TASK_RUNNING');
    await app.scheduler.unschedule(taskKey(t.id));
    await db.deleteFrom('model_task').where('id', '=', t.id).execute();
    return { message: '删除成功' };
  });

  // 开始: run once now; a paused task stays paused afterwards (resume_state)
  routeContract(app, execTask, async (req) => {
    const t = await findTask(app, req.params.id);
    if (t.isPause === TASK_STATE.running || (await app.scheduler.isRunning(taskKey(t.id)))) throw new AppError('TASK_RUNNING');
    if (t.isPause === TASK_STATE.finished) throw new AppError('TASK_FINISHED');
    await db.updateTable('model_task').set({ resume_state: t.isPause }).where('id', '=', t.id).execute();
    await app.scheduler.runNow(taskKey(t.id), { jobName: t.jobName, handler: MODEL_TASK_HANDLER, params: { taskId: t.id }, cron: t.cronTime });
    return { message: '开启任务执行成功' };
  });

  // 暂停 / 恢复: the same toggle, 0 <-> 1; finished and running tasks refuse it (their buttons are disabled)
  routeContract(app, toggleTask, async (req) => {
    const t = await findTask(app, req.params.id);
    if (t.isPause !== TASK_STATE.enabled && t.isPause !== TASK_STATE.paused) throw new AppError('TASK_TOGGLE_STATE');
    const next = t.isPause === TASK_STATE.enabled ? TASK_STATE.paused : TASK_STATE.enabled;
    await db.updateTable('model_task').set({ is_pause: next, resume_state: next, update_time: nowIso() }).where('id', '=', t.id).execute();
    await armTask(app, { ...t, isPause: next, resumeState: next });
    return { isPause: next, message: next === TASK_STATE.paused ? '任务暂停成功' : '任务恢复成功' };
  });

  routeContract(app, listTaskLogs, async (req) => {
    const { page = 0, size = 5, jobName, isSuccess } = req.query;
    let qb = db.selectFrom('sys_job_log').where('job_key', 'like', 'task:%');
    if (jobName?.trim()) qb = qb.where(likeContains(app.ctx.dialect, 'job_name', jobName.trim()));
    if (isSuccess) qb = qb.where('is_success', '=', isSuccess === 'true' || isSuccess === '1' ? 1 : 0);
    const total = await countOf(qb);
    const rows = total ? await qb.selectAll().orderBy('id', 'desc').limit(size).offset(page * size).execute() : [];
    const admin = req.user?.permissions.includes('ADMIN') ?? false;
    return {
      content: rows.map((x) => {
        const detail = x.exception_detail;
        return {
          id: Number(x.id),
          jobName: x.job_name,
          beanName: x.bean_name,
          methodName: x.method_name,
          params: x.params,
          cronExpression: x.cron_expression,
          // the stack part is for administrators; everyone sees the message line
          exceptionDetail: detail && !admin ? detail.split('\n')[0] : detail,
          time: Number(x.time ?? 0),
          isSuccess: Number(x.is_success) === 1,
          trigger: x.trigger_kind,
          summary: x.summary ?? null,
          rowsIn: x.calc_count === null ? null : Number(x.calc_count),
          rowsOut: x.output_count === null ? null : Number(x.output_count),
          createTime: x.create_time,
        };
      }),
      totalElements: total,
    };
  });

  // the task dialog's preview of a cron (the same Quartz normalisation as saving; a cron that never fires is a 400)
  routeContract(app, taskNextRuns, async (req) => ({ times: nextFireTimes(req.query.cron, 5) }));

  routeContract(app, taskDispatch, async (req) => {
      const { jobName, id } = req.query;
      let row: TaskDbRow | undefined;
      if (id) row = await db.selectFrom('model_task').selectAll().where('id', '=', id).executeTakeFirst();
      else if (jobName?.trim()) row = await db.selectFrom('model_task').selectAll().where('job_name', '=', jobName.trim()).executeTakeFirst();
      if (!row) throw new AppError('TASK_NOT_FOUND');
      const t = taskFromDb(row);
      const p = await app.scheduler.progressOf(taskKey(t.id));
      if (p) return p;
      return { msg: t.lastStatus ? (t.lastStatus === 'success' ? '完成' : '失败') : '未运行', percent: t.lastStatus ? 1 : 0 };
  });
}
