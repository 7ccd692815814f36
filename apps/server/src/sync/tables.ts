import type { HandTableSet } from '../core/dbTypes.ts';

/**
 * The tables of what the definition sync has shipped (sync/syncDefinitions.ts) that no definition describes: table
 * -> column -> stored kind, in the notation of HandTableSet (core/dbTypes.ts). Assembled in src/dbTables.ts;
 * test/db-types.test.ts checks them against the migrated tables.
 */
export const SYNC_TABLES = {
  sys_sync_state: { kind: 'string', sync_key: 'string', row_id: 'int', shipped: 'text', update_time: 'datetime' },
} as const satisfies HandTableSet;
