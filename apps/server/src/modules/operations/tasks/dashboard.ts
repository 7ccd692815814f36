import type { FastifyInstance, FastifyRequest } from 'fastify';
import { dashboardTasks, dataVolume, taskTraits } from '@app/shared/contracts/operations/tasks';
import { ORDINARY_EMPLOYEE_JOB } from '@app/shared/permissions';
import { nowIso } from '../../../core/db.ts';
import { AppError } from '../../../core/errors.ts';
import { computeDeptScope, type DeptScope } from '../../../core/rbac.ts';
import { routeContract } from '../../../crud/registerContract.ts';
import { scopedByOwnerDept } from './modelData.ts';
import { taskFromDb } from './taskStore.ts';

/** Rows to 万条 with two decimals, half-up, on integers. */
export const toWan = (rows: number): number => Math.floor((rows + 50) / 100) / 100;

/** UTC ISO instants where today's and this month's China calendar day/month begin. */
export function chinaPeriodStarts(now = new Date()): { day: string; month: string } {
  const china = new Date(now.getTime() + 8 * 3600_000);
  const y = china.getUTCFullYear();
  const m = china.getUTCMonth();
  const d = china.getUTCDate();
  const at = (yy: number, mm: number, dd: number) => new Date(Date.UTC(yy, mm, dd) - 8 * 3600_000).toISOString();
  return { day: at(y, m, d), month: at(y, m, 1) };
}

function refuseOrdinaryEmployee(req: FastifyRequest): void {
  // the dashboard tab is hidden for 普通员工 (spec §1); the server agrees
  if (req.user?.jobName === ORDINARY_EMPLOYEE_JOB && !req.user.permissions.includes('ADMIN')) throw new AppError('FORBIDDEN');
}

/**
 * /instrument/*: the dashboard's statistics cards and top-10 chart, from the run log of model tasks. They show
 * what model tasks computed, so they need the codes that read model data (task or model-data select, as
 * /dataManagement/*) and cover only tasks whose owner's department the caller's data scope sees (N3, E7).
 */
export function registerDashboardRoutes(fastify: FastifyInstance): void {
  const app = fastify;
  const db = app.ctx.db;

  /** Ids of the tasks the caller's scope sees, or null when the scope is everything. */
  async function visibleTaskIds(scope: DeptScope): Promise<number[] | null> {
    if (scope === null) return null;
    return (await scopedByOwnerDept(db.selectFrom('model_task'), scope).select('id').execute()).map((r) => Number(r.id));
  }

  routeContract(app, dataVolume, async (req) => {
    refuseOrdinaryEmployee(req);
    const { day, month } = chinaPeriodStarts();
    const visible = await visibleTaskIds(await computeDeptScope(db, req.user!));
    // raw counts beside the spec's 万条 figures: 5 rows are 0.00 万条, and the home screen shows 5 条 (U10)
    const rows: Record<'day' | 'mouth' | 'sum', [number, number]> = { day: [0, 0], mouth: [0, 0], sum: [0, 0] };
    const sums = async (from?: string, key: keyof typeof rows = 'sum'): Promise<[number, number]> => {
      if (visible?.length === 0) return [0, 0];
      let qb = db.selectFrom('sys_job_log').where('job_key', 'like', 'task:%');
      // runs of tasks since deleted have no owner left to judge: counted only for an unlimited scope
      if (visible) qb = qb.where('job_key', 'in', visible.map((id) => `task:${id}`));
      if (from) qb = qb.where('create_time', '>=', from);
      const r = await qb.select((eb) => [eb.fn.sum<number>('output_count').as('out'), eb.fn.sum<number>('calc_count').as('calc')]).executeTakeFirst();
      rows[key] = [Number(r?.out ?? 0), Number(r?.calc ?? 0)];
      return [toWan(Number(r?.out ?? 0)), toWan(Number(r?.calc ?? 0))];
    };
    const [d, m, s] = await Promise.all([sums(day, 'day'), sums(month, 'mouth'), sums()]);
    // `mouth` keeps the spelling of the spec's response
    return { day: [d], mouth: [m], sum: [s], unit: '万条' as const, rows };
  });

  // reading (or remembering) the home screen's chart choice is not an operation: no log row (U11; the contract's log '')
  routeContract(app, dashboardTasks, async (req) => {
      refuseOrdinaryEmployee(req);
      const user = req.user!;
      const scope = await computeDeptScope(db, user);
      const tasks = () => scopedByOwnerDept(db.selectFrom('model_task'), scope);
      const ids = req.body?.ids;
      let chosen: number[];
      if (ids === undefined || ids === null) {
        const saved = await db.selectFrom('dashboard_pref').select('task_ids').where('user_id', '=', user.id).executeTakeFirst();
        chosen = saved ? (JSON.parse(String(saved.task_ids)) as number[]) : [];
        if (!chosen.length) {
          const recent = await tasks().select('id').where('last_run_at', 'is not', null).orderBy('last_run_at', 'desc').limit(4).execute();
          chosen = recent.map((r) => Number(r.id));
        }
      } else {
        chosen = [...new Set(ids)];
        if (chosen.length < 1 || chosen.length > 4) throw new AppError('DASHBOARD_PICK_RANGE');
        // a task outside the caller's scope is as unknown as one that does not exist
        const found = new Set((await tasks().select('id').where('id', 'in', chosen).execute()).map((r) => Number(r.id)));
        const missing = chosen.filter((id) => !found.has(id));
        if (missing.length) throw new AppError('DASHBOARD_TASK_UNKNOWN', { ids: missing.join(',') });
        const text = JSON.stringify(chosen);
        const updated = await db.updateTable('dashboard_pref').set({ task_ids: text, update_time: nowIso() }).where('user_id', '=', user.id).executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) await db.insertInto('dashboard_pref').values({ user_id: user.id, task_ids: text, update_time: nowIso() }).execute();
      }
      // a saved choice may name tasks the caller no longer sees (scope changed, task handed over): left out
      const visible = chosen.length ? (await tasks().select('id').where('id', 'in', chosen).execute()).map((r) => Number(r.id)) : [];
      if (!visible.length) return [];
      const rows = await db
        .selectFrom('model_task as t')
        .leftJoin('analysis_model as m', 'm.id', 't.model_id')
        .select(['t.id', 't.job_name', 'm.model_name'])
        .where('t.id', 'in', visible)
        .execute();
      const byId = new Map(rows.map((r) => [Number(r.id), r]));
      return chosen.filter((id) => byId.has(id)).map((id) => ({ id, jobName: byId.get(id)!.job_name, modelName: byId.get(id)?.model_name ?? null }));
  });

  routeContract(app, taskTraits, async (req) => {
      refuseOrdinaryEmployee(req);
      const scope = await computeDeptScope(db, req.user!);
      const row = await scopedByOwnerDept(db.selectFrom('model_task'), scope).selectAll().where('id', '=', req.query.id).executeTakeFirst();
      if (!row) throw new AppError('TASK_NOT_FOUND');
      return taskFromDb(row).lastTraits.map(([name, number]) => ({ name, number }));
  });
}
