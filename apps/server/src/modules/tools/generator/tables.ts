import type { HandTableSet } from '../../../core/dbTypes.ts';

/**
 * The tables of code generator settings (modules/tools/generator) that no definition describes: table -> column ->
 * stored kind, in the notation of HandTableSet (core/dbTypes.ts). Assembled in src/dbTables.ts; test/db-
 * types.test.ts checks them against the migrated tables.
 */
export const GENERATOR_TABLES = {
  // code generator settings (migration 0015); the flags are nullable with a default
  gen_config: { id: 'int', author: 'string', pack: 'string', module_name: 'string', path: 'string', api_path: 'string', cover: 'bool', prefix: 'string', menu_parent: 'string', menu_icon: 'string', create_time: 'datetime', update_time: 'datetime' },
  gen_column: { id: 'int', table_name: 'string!', column_name: 'string!', label: 'string', kind: 'string', column_query: 'string', column_show: 'bool', form_show: 'bool', required: 'bool', dict_name: 'string', sort: 'int', create_time: 'datetime', update_time: 'datetime' },
} as const satisfies HandTableSet;
