import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { DB } from '../../../core/dbTypes.ts';
import { nextFireTimes } from '../../../core/scheduler/index.ts';
import { AppError } from '../../../core/errors.ts';

/** isPause of spec §3/§4 (0 enabled, 1 paused, 2 finished, 3 running), stated with the contracts. */
import { TASK_STATE } from '@app/shared/contracts/operations/tasks';

export { TASK_STATE };

/** The handler every model task runs (its runs are logged as bean `modelTask`, method `run`). */
export const MODEL_TASK_HANDLER = 'modelTask.run';
export const taskKey = (id: number) => `task:${id}`;

export interface TaskRow {
  id: number;
  jobName: string;
  isPause: number;
  resumeState: number;
  modelId: number;
  dataId: number;
  cronTime: string;
  params: Record<string, unknown>;
  ownerId: number;
  ownerDeptId: number | null;
  timeoutSec: number;
  lastRunAt: string | null;
  lastStatus: string | null;
  lastTraits: [string, number][];
  createTime: string | null;
  updateTime: string | null;
}

function json<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string' || !text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A `model_task` row as read from the database. */
export type TaskDbRow = Selectable<DB['model_task']>;

export function taskFromDb(r: TaskDbRow): TaskRow {
  return {
    id: Number(r.id),
    jobName: r.job_name,
    isPause: Number(r.is_pause),
    resumeState: Number(r.resume_state),
    modelId: Number(r.model_id),
    dataId: Number(r.data_id),
    cronTime: r.cron_time,
    params: json<Record<string, unknown>>(r.params, {}),
    ownerId: Number(r.owner_id),
    ownerDeptId: r.owner_dept_id === null ? null : Number(r.owner_dept_id),
    timeoutSec: Number(r.timeout_sec),
    lastRunAt: r.last_run_at,
    lastStatus: r.last_status,
    lastTraits: json<[string, number][]>(r.last_traits, []),
    createTime: r.create_time,
    updateTime: r.update_time,
  };
}

export async function findTask(app: FastifyInstance, id: number): Promise<TaskRow> {
  const r = await app.ctx.db.selectFrom('model_task').selectAll().where('id', '=', id).executeTakeFirst();
  if (!r) throw new AppError('TASK_NOT_FOUND');
  return taskFromDb(r);
}

/** The next fire of a cron, or null when it never fires again (a past year): such a task ends as finished. */
export function nextFire(cron: string): string | null {
  try {
    return nextFireTimes(cron, 1)[0] ?? null;
  } catch {
    return null;
  }
}

/** (Re)arm a task's schedule from its row: enabled fires, paused is kept paused, finished is unscheduled. */
export async function armTask(app: FastifyInstance, t: Pick<TaskRow, 'id' | 'jobName' | 'cronTime' | 'isPause' | 'resumeState'>): Promise<void> {
  const key = taskKey(t.id);
  const state = t.isPause === TASK_STATE.running ? t.resumeState : t.isPause;
  if (state === TASK_STATE.finished || nextFire(t.cronTime) === null) {
    await app.scheduler.unschedule(key);
    return;
  }
  await app.scheduler.schedule(key, { jobName: t.jobName, cron: t.cronTime, handler: MODEL_TASK_HANDLER, params: { taskId: t.id }, paused: state === TASK_STATE.paused });
}
