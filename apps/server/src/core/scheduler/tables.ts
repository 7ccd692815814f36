import type { HandTableSet } from '../dbTypes.ts';

/**
 * The tables of the scheduler's jobs and run log (core/scheduler) that no definition describes: table -> column ->
 * stored kind, in the notation of HandTableSet (core/dbTypes.ts). Assembled in src/dbTables.ts; test/db-
 * types.test.ts checks them against the migrated tables.
 */
export const SCHEDULER_TABLES = {
  // scheduler (migration 0010): the system jobs and the run log of every job, system or model task
  sys_scheduled_job: { id: 'int', job_name: 'string!', bean_name: 'string!', method_name: 'string!', params: 'text', cron_expression: 'string!', is_pause: 'bool=', remark: 'string', consecutive_failures: 'int=', seed_key: 'string', last_run_time: 'datetime', last_success: 'bool', create_time: 'datetime', update_time: 'datetime',
    // run options and owner (migration 0027)
    retry_count: 'int=', retry_interval_sec: 'int=', misfire_policy: 'string=', allow_overlap: 'bool=', owner_id: 'ref' },
  sys_job_log: { id: 'int', job_key: 'string!', job_name: 'string', bean_name: 'string', method_name: 'string', params: 'text', cron_expression: 'string', trigger_kind: 'string!', fire_time: 'datetime', is_success: 'bool!', time: 'int', exception_detail: 'text', summary: 'string', output_count: 'int', calc_count: 'int', instance: 'string', create_time: 'datetime!' },
} as const satisfies HandTableSet;
