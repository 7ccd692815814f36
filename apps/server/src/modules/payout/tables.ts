import type { HandTableSet } from '../../core/dbTypes.ts';

/**
 * The tables of payout batches (modules/payout) that no definition describes: table -> column -> stored kind, in
 * the notation of HandTableSet (core/dbTypes.ts). Assembled in src/dbTables.ts; test/db-types.test.ts checks them
 * against the migrated tables.
 */
export const PAYOUT_TABLES = {
  // payout batches to the bank and their payees with the bank's answer (migration 0029, modules/payout)
  accounts_payout_batch: { id: 'int', company_id: 'int!', company_name: 'string', dispatch_company: 'string', month: 'month!', template_id: 'int!', template_name: 'string', kind: 'string!', parent_id: 'int', state: 'string!', row_count: 'int!', total: 'money!', file_name: 'string', export_time: 'datetime', export_by: 'string', return_time: 'datetime', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_payout_row: { id: 'int', batch_id: 'int!', seq: 'int!', salary_id: 'int', staff_id: 'int', staff_name: 'string!', id_card: 'string', account: 'string!', account_name: 'string!', bank_name: 'string', phone: 'string', amount: 'money!', luhn_override: 'bool=', result: 'string=', reason: 'string', repaid_by: 'int', create_time: 'datetime', update_time: 'datetime' },
} as const satisfies HandTableSet;
