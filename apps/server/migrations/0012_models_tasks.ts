import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * Models, model tasks, model data and the dashboard's settings (issue 11 items 3, 5, 6). The run log itself is
 * the scheduler's `sys_job_log` (keys `task:<id>`); these tables hold what only the model side knows.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  // spec §3 Model: statu 1 on shelf, 2 off; parameter_info JSON [{parameterCode, parameterName, parameterType}]
  await createTable(db, dialect, 'analysis_model', (t) =>
    t
      .id()
      .string('model_name', 50, { notNull: true, unique: true })
      .string('site', 500, { notNull: true })
      .string('file_type', 10, { notNull: true })
      .int('statu', { notNull: true, default: 2 })
      .text('parameter_info')
      .string('output_kind', 16, { notNull: true })
      .bool('builtin', { notNull: true, default: false })
      // HMAC key of an external model, sealed with app.ctx.secrets; never returned
      .text('secret_enc')
      .string('create_by', 50)
      .timestamps(),
  );
  // spec §3 Scheduled task: isPause 0 enabled, 1 paused, 2 finished, 3 running
  await createTable(db, dialect, 'model_task', (t) =>
    t
      .id()
      .string('job_name', 100, { notNull: true, unique: true })
      .int('is_pause', { notNull: true, default: 0 })
      // the state a run returns to (0 or 1): a paused task run by hand stays paused
      .int('resume_state', { notNull: true, default: 0 })
      .int('model_id', { notNull: true, index: true })
      .int('data_id', { notNull: true, index: true })
      .string('cron_time', 120, { notNull: true })
      .text('params')
      .int('owner_id', { notNull: true })
      .int('owner_dept_id')
      .int('timeout_sec', { notNull: true, default: 1800 })
      .datetime('last_run_at')
      .string('last_status', 16)
      // the last successful run's top-10 (name, number) pairs, JSON, for /instrument/traitList
      .text('last_traits')
      .timestamps(),
  );
  // one row per output workbook; a group is one run
  await createTable(db, dialect, 'model_output', (t) =>
    t
      .id()
      .int('task_id', { index: true })
      .string('task_name', 100)
      .string('output_kind', 16, { notNull: true })
      .string('model_title', 50)
      .string('group_name', 150, { notNull: true, index: true })
      .string('file_name', 200, { notNull: true })
      .string('storage_key', 300, { notNull: true })
      .int('rows_out', { notNull: true, default: 0 })
      .money('bytes', { notNull: true, default: 0 })
      .int('owner_dept_id')
      .datetime('create_time', { notNull: true, index: true }),
  );
  // the dashboard chart's chosen tasks, per user (1-4 ids, JSON)
  await createTable(db, dialect, 'dashboard_pref', (t) =>
    t.id().int('user_id', { notNull: true, unique: true }).string('task_ids', 200, { notNull: true }).datetime('update_time'),
  );
}
