import type { HandTableSet } from '../../../core/dbTypes.ts';

/**
 * The tables of e-mail settings and log (modules/integrations/email) that no definition describes: table -> column
 * -> stored kind, in the notation of HandTableSet (core/dbTypes.ts). Assembled in src/dbTables.ts; test/db-
 * types.test.ts checks them against the migrated tables.
 */
export const EMAIL_TABLES = {
  // e-mail and Alipay (migration 0014); secrets sealed
  tool_email_config: { id: 'int', from_user: 'string', user_name: 'string', pass_sealed: 'text', host: 'string', port: 'int', ssl_enable: 'bool=', update_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  tool_email_log: { id: 'int', subject: 'string', tos: 'text', recipient_count: 'int', status: 'string!', message_id: 'string', error: 'string', kind: 'string', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
} as const satisfies HandTableSet;
