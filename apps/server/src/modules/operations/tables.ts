import type { HandTableSet } from '../../core/dbTypes.ts';

/**
 * The tables of data sources, models, model tasks and the dashboard (modules/operations) that no definition
 * describes: table -> column -> stored kind, in the notation of HandTableSet (core/dbTypes.ts). Assembled in
 * src/dbTables.ts; test/db-types.test.ts checks them against the migrated tables.
 */
export const OPERATIONS_TABLES = {
  // data sources (migration 0011)
  data_origin: { id: 'int', data_name: 'string!', code: 'string', type: 'string!', db_kind: 'string', db_site: 'string', db_port: 'int', db_user: 'string', db_password_enc: 'text', db_name: 'string', query: 'text', file_key: 'string', file_ref: 'text', file_name: 'string', character_encoding: 'string!', custom_datasource_id: 'ref', table_data: 'text', row_count: 'int', owner_id: 'ref', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  custom_datasource: { id: 'int', name: 'string!', dataset: 'string!', character_encoding: 'string!', table_data: 'text', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  data_source_upload: { id: 'int', storage_key: 'string!', storage_ref: 'text', file_name: 'string!', extension: 'string!', size: 'int!', owner_id: 'int!', create_time: 'datetime' },
  // models, model tasks, their outputs and the dashboard choice (migration 0012)
  analysis_model: { id: 'int', model_name: 'string!', site: 'string!', file_type: 'string!', statu: 'int=', parameter_info: 'text', output_kind: 'string!', builtin: 'bool=', secret_enc: 'text', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  model_task: { id: 'int', job_name: 'string!', is_pause: 'int=', resume_state: 'int=', model_id: 'int!', data_id: 'int!', cron_time: 'string!', params: 'text', owner_id: 'int!', owner_dept_id: 'ref', timeout_sec: 'int=', last_run_at: 'datetime', last_status: 'string', last_traits: 'text', create_time: 'datetime', update_time: 'datetime' },
  model_output: { id: 'int', task_id: 'ref', task_name: 'string', output_kind: 'string!', model_title: 'string', group_name: 'string!', file_name: 'string!', storage_key: 'string!', rows_out: 'int=', bytes: 'int=', owner_dept_id: 'ref', create_time: 'datetime!', provider: 'string=', bucket: 'string=', type: 'string' },
  dashboard_pref: { id: 'int', user_id: 'int!', task_ids: 'string!', update_time: 'datetime' },
} as const satisfies HandTableSet;
