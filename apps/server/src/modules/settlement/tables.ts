import type { HandTableSet } from '../../core/dbTypes.ts';

/**
 * The tables of client settlement statements (modules/settlement) that no definition describes: table -> column ->
 * stored kind, in the notation of HandTableSet (core/dbTypes.ts). Assembled in src/dbTables.ts; test/db-
 * types.test.ts checks them against the migrated tables.
 */
export const SETTLEMENT_TABLES = {
  // client settlement statements, their lines, receipts and state history (migration 0028, modules/settlement)
  accounts_settlement: { id: 'int', company_id: 'int!', company_name: 'string', dispatch_company: 'string', month: 'month!', version: 'int!', state: 'string!', needs_reopen: 'bool=', superseded: 'bool=', heads: 'int!', current_due: 'money!', arrears_in: 'money!', total_due: 'money!', received: 'money=', vat_regime: 'string', header: 'text', terms: 'text', dispute_reason: 'string', invoice_no: 'string', invoice_date: 'date', invoice_amount: 'money', generated_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_settlement_line: { id: 'int', settlement_id: 'int!', seq: 'int!', staff_name: 'string', id_card_masked: 'string', amounts: 'text' },
  accounts_settlement_receipt: { id: 'int', settlement_id: 'int!', company_id: 'int!', month: 'month!', amount: 'money!', receipt_date: 'date!', note: 'string', username: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_settlement_event: { id: 'int', settlement_id: 'int!', from_state: 'string', to_state: 'string!', note: 'string', username: 'string', create_time: 'datetime', update_time: 'datetime' },
} as const satisfies HandTableSet;
