import type { HandTableSet } from '../../core/dbTypes.ts';

/**
 * The tables of IIT reconciliation (modules/iit) that no definition describes: table -> column -> stored kind, in
 * the notation of HandTableSet (core/dbTypes.ts). Assembled in src/dbTables.ts; test/db-types.test.ts checks them
 * against the migrated tables.
 */
export const IIT_TABLES = {
  // IIT reconciliation with ITS, its acknowledgements, payout overrides and the ITS person list (migration 0031, modules/iit)
  accounts_iit_reconcile: { id: 'int', dispatch_company: 'string!', month: 'month!', file_name: 'string', ours_count: 'int!', its_count: 'int!', diff_count: 'int!', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_iit_diff: { id: 'int', reconcile_id: 'int!', kind: 'string!', id_card: 'string!', staff_name: 'string', ours: 'money', its: 'money', ack_reason: 'string', ack_by: 'string', ack_time: 'datetime', create_time: 'datetime', update_time: 'datetime' },
  accounts_iit_override: { id: 'int', batch_id: 'int!', dispatch_company: 'string!', month: 'month!', reconcile_id: 'int!', open_count: 'int!', reason: 'string', username: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_iit_person: { id: 'int', dispatch_company: 'string!', month: 'month!', id_card: 'string!', staff_name: 'string', leave_date: 'date', status: 'string', create_time: 'datetime', update_time: 'datetime' },
} as const satisfies HandTableSet;
