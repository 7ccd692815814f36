import type { HandTableSet } from '../../core/dbTypes.ts';

/**
 * The tables of the header bell's notices (modules/notices) that no definition describes: table -> column -> stored
 * kind, in the notation of HandTableSet (core/dbTypes.ts). Assembled in src/dbTables.ts; test/db-types.test.ts
 * checks them against the migrated tables.
 */
export const NOTICE_TABLES = {
  // in-app notices behind the header's bell, one row per recipient (migration 0027)
  sys_notice: { id: 'int', user_id: 'int!', kind: 'string!', title: 'string!', content: 'text', link: 'string', is_read: 'bool=', create_time: 'datetime', update_time: 'datetime' },
} as const satisfies HandTableSet;
