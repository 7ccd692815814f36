import type { HandTableSet } from '../../core/dbTypes.ts';

/**
 * The tables of object storage settings, files and pictures (modules/storage, core/storage) that no definition
 * describes: table -> column -> stored kind, in the notation of HandTableSet (core/dbTypes.ts). Assembled in
 * src/dbTables.ts; test/db-types.test.ts checks them against the migrated tables.
 */
export const STORAGE_TABLES = {
  // storage and pictures (migration 0013)
  tool_storage_config: { id: 'int', provider: 'string=', access_key: 'string', secret_key: 'text', bucket: 'string', host: 'string', zone: 'string', type: 'string', endpoint: 'string', update_time: 'datetime' },
  tool_storage_file: { id: 'int', name: 'string!', object_key: 'string!', provider: 'string!', bucket: 'string=', type: 'string', size: 'int', content_type: 'string', username: 'string', create_time: 'datetime', update_time: 'datetime' },
  tool_picture: { id: 'int', filename: 'string!', object_key: 'string!', provider: 'string!', bucket: 'string=', type: 'string', size: 'int', width: 'int', height: 'int', username: 'string', create_time: 'datetime', update_time: 'datetime' },
} as const satisfies HandTableSet;
