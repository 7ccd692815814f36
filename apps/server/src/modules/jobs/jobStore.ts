import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import { isUniqueViolation, nowIso } from '../../core/db.ts';
import type { DB } from '../../core/dbTypes.ts';
import type { JobRow } from '@app/shared/contracts/jobs';
import type { RunOptions } from '../../core/scheduler/index.ts';

export type { JobRow };
import { SYSTEM_JOB_SEEDS } from './systemHandlers.ts';


/** A `sys_scheduled_job` row as read from the database. */
export type ScheduledJobDbRow = Selectable<DB['sys_scheduled_job']>;

export const jobKey = (id: number) => `job:${id}`;
export const handlerOf = (row: { bean_name: string; method_name: string }) => (row.method_name ? `${row.bean_name}.${row.method_name}` : row.bean_name);

export function jobRowToApi(r: ScheduledJobDbRow): JobRow {
  return {
    id: Number(r.id),
    jobName: r.job_name,
    beanName: r.bean_name,
    methodName: r.method_name,
    params: r.params ?? '',
    cronExpression: r.cron_expression,
    isPause: Number(r.is_pause) === 1,
    remark: r.remark ?? null,
    consecutiveFailures: Number(r.consecutive_failures ?? 0),
    lastRunTime: r.last_run_time ?? null,
    lastSuccess: r.last_success === null ? null : Number(r.last_success) === 1,
    createTime: r.create_time ?? null,
    updateTime: r.update_time ?? null,
    retryCount: Number(r.retry_count ?? 0),
    retryIntervalSec: Number(r.retry_interval_sec ?? 60),
    misfirePolicy: r.misfire_policy === 'skip' ? 'skip' : 'once',
    allowOverlap: Number(r.allow_overlap ?? 0) === 1,
    ownerId: r.owner_id === null || r.owner_id === undefined ? null : Number(r.owner_id),
  };
}

/** The run options a row stores, as the scheduler takes them. */
export function runOptionsOfRow(row: JobRow): Partial<RunOptions> {
  return { retries: row.retryCount, retryIntervalMs: row.retryIntervalSec * 1000, misfire: row.misfirePolicy, overlap: row.allowOverlap };
}

/** Since when a fire counts as missed: the later of its last run and its last edit (a resume is an edit). */
export function missedSince(row: JobRow): Date | null {
  const times = [row.lastRunTime, row.updateTime, row.createTime].filter((t): t is string => !!t).map((t) => Date.parse(t.includes('T') || t.endsWith('Z') ? t : `${t.replace(' ', 'T')}Z`)).filter((n) => Number.isFinite(n));
  return times.length ? new Date(Math.max(...times)) : null;
}

/** Params text of a row → the object a handler gets ('' → {}). */
export function paramsObject(text: string | null | undefined): Record<string, unknown> {
  if (!text?.trim()) return {};
  const v = JSON.parse(text);
  return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
}

/**
 * Insert the system jobs shipped with the code, once: each seed is remembered in `sys_sync_state` (kind
 * `scheduled_job`), so a later start neither duplicates it nor brings back a job an operator deleted. Safe when
 * instances start together (the unique (kind, sync_key) decides).
 */
export async function seedSystemJobs(app: FastifyInstance): Promise<void> {
  const db = app.ctx.db;
  for (const seed of SYSTEM_JOB_SEEDS) {
    const known = await db.selectFrom('sys_sync_state').select('row_id').where('kind', '=', 'scheduled_job').where('sync_key', '=', seed.seedKey).executeTakeFirst();
    if (known) continue;
    const now = nowIso();
    const [bean, method] = seed.seedKey.split('.');
    try {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('sys_sync_state').values({ kind: 'scheduled_job', sync_key: seed.seedKey, row_id: 0, shipped: JSON.stringify(seed), update_time: now }).execute();
        // an existing row with the same name (made by hand before this release) is adopted, not duplicated
        const existing = await trx.selectFrom('sys_scheduled_job').select('id').where('job_name', '=', seed.jobName).executeTakeFirst();
        let id = existing?.id;
        if (!id) {
          const values = {
            job_name: seed.jobName,
            bean_name: bean,
            method_name: method,
            params: Object.keys(seed.params).length ? JSON.stringify(seed.params) : '',
            cron_expression: seed.cron,
            is_pause: 0,
            remark: seed.remark,
            consecutive_failures: 0,
            seed_key: seed.seedKey,
            create_time: now,
            update_time: now,
          };
          const res = await trx.insertInto('sys_scheduled_job').values(values).executeTakeFirst();
          id = Number(res.insertId ?? (await trx.selectFrom('sys_scheduled_job').select('id').where('seed_key', '=', seed.seedKey).executeTakeFirst())?.id);
        }
        await trx.updateTable('sys_sync_state').set({ row_id: Number(id) }).where('kind', '=', 'scheduled_job').where('sync_key', '=', seed.seedKey).execute();
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err; // another instance seeded it at the same moment
    }
  }
}

/** Arm every row of this database on this instance's scheduler (at start; idempotent). */
export async function armJobs(app: FastifyInstance): Promise<void> {
  const rows = await app.ctx.db.selectFrom('sys_scheduled_job').selectAll().execute();
  for (const r of rows) {
    const row = jobRowToApi(r);
    try {
      await app.scheduler.schedule(jobKey(row.id), {
        jobName: row.jobName,
        cron: row.cronExpression,
        handler: handlerOf(r),
        params: paramsObject(row.params),
        paused: row.isPause,
        options: runOptionsOfRow(row),
        since: missedSince(row),
      });
    } catch (err) {
      // a row naming a handler this release no longer has, or a cron that stopped firing: shown on the screen, not armed
      app.log.warn({ err: (err as Error).message, jobId: row.id, jobName: row.jobName }, 'scheduled job not armed');
    }
  }
}
