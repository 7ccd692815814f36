import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * Alerts that reach a person (issue 25 item 2, finding M4).
 *
 * `sys_notice`: the in-app notices behind the header's bell, one row per recipient (a failed run and its
 * auto-pause go to the job's owner and every admin), read state kept per user.
 *
 * `sys_scheduled_job` gains what RuoYi/yudao users expect of a job: retries (count and interval) before a run
 * counts as failed, the misfire policy (`once`: a fire missed while no instance ran is run once when one is
 * back; `skip`: it is left out and logged), whether runs may overlap, and the owner (who created or last
 * edited it) that alerts go to. Existing jobs: no retries, run once after a misfire (Quartz's default for a
 * cron trigger), no overlap (what the engines did), no owner (alerts go to the admins).
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'sys_notice', (t) =>
    t
      .id()
      .int('user_id', { notNull: true })
      // job_failed | job_paused
      .string('kind', 30, { notNull: true })
      .string('title', 200, { notNull: true })
      .text('content')
      // the screen that shows more (the run log), a path of the web app
      .string('link', 200)
      .bool('is_read', { notNull: true, default: false })
      .timestamps()
      .index('user_id', 'is_read'),
  );
  await db.schema.alterTable('sys_scheduled_job').addColumn('retry_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('sys_scheduled_job').addColumn('retry_interval_sec', 'integer', (c) => c.notNull().defaultTo(60)).execute();
  await db.schema.alterTable('sys_scheduled_job').addColumn('misfire_policy', 'varchar(10)', (c) => c.notNull().defaultTo('once')).execute();
  await db.schema.alterTable('sys_scheduled_job').addColumn('allow_overlap', 'smallint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('sys_scheduled_job').addColumn('owner_id', 'integer').execute();
}
