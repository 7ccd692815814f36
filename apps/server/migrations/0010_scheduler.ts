import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * The scheduler (issue 11 items 1-2, core/scheduler):
 * - `sys_scheduled_job`: the system jobs of 系统工具 › 定时任务 (spec §3 "another job variant"). Not `sys_job`,
 *   which has held the positions (岗位) since 0001. `bean_name`/`method_name` name a handler registered in code,
 *   never a class to load; `consecutive_failures` drives the auto-pause.
 * - `sys_job_log`: one row per run of any schedule (system jobs `job:<id>`, model tasks `task:<id>`), written by
 *   the scheduler itself. `fire_time` is the cron fire a run belongs to (null for 执行一次), so "one run per fire"
 *   can be checked across instances; counts feed the dashboard.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'sys_scheduled_job', (t) =>
    t
      .id()
      .string('job_name', 100, { notNull: true, unique: true })
      .string('bean_name', 100, { notNull: true })
      .string('method_name', 100, { notNull: true })
      .text('params')
      .string('cron_expression', 120, { notNull: true })
      .bool('is_pause', { notNull: true, default: false })
      .string('remark', 255)
      .int('consecutive_failures', { notNull: true, default: 0 })
      // a seeded job's handler name: seeding skips rows it made before, even after an operator renamed them
      .string('seed_key', 100, { unique: true })
      .datetime('last_run_time')
      .bool('last_success')
      .timestamps(),
  );
  await createTable(db, dialect, 'sys_job_log', (t) =>
    t
      .id()
      .string('job_key', 64, { notNull: true })
      .string('job_name', 100)
      .string('bean_name', 100)
      .string('method_name', 100)
      .text('params')
      .string('cron_expression', 120)
      .string('trigger_kind', 10, { notNull: true })
      .datetime('fire_time')
      .bool('is_success', { notNull: true })
      .int('time')
      .text('exception_detail')
      .string('summary', 500)
      .int('output_count')
      .int('calc_count')
      .string('instance', 100)
      .datetime('create_time', { notNull: true })
      .index('job_key', 'create_time')
      .index('job_name', 'create_time')
      .index('create_time'),
  );
}
