import type { HandTableSet } from '../../core/dbTypes.ts';

/**
 * The tables of 调基 补差 and 社保平账 (modules/siAdjust) that no definition describes: table -> column -> stored kind, in
 * the notation of HandTableSet (core/dbTypes.ts). Assembled in src/dbTables.ts; test/db-types.test.ts checks them
 * against the migrated tables.
 */
export const SI_ADJUST_TABLES = {
  // 调基 补差 and 社保平账 (migration 0032, modules/siAdjust)
  accounts_si_adjust_batch: { id: 'int', company_id: 'int!', company_name: 'string', from_month: 'month!', source: 'string!', target_month: 'month', people: 'int!', item_count: 'int!', total_self: 'money!', total_company: 'money!', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_si_back_item: { id: 'int', company_id: 'int!', id_card: 'string!', staff_name: 'string', insurance: 'string!', refer_month: 'month!', target_month: 'month!', amount_self: 'money!', amount_company: 'money!', source: 'string!', batch_id: 'int', recon_line_id: 'int', reason: 'string', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_si_recon: { id: 'int', company_id: 'int!', company_name: 'string', month: 'month!', file_name: 'string', file_rows: 'int!', matched: 'int!', line_count: 'int!', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  accounts_si_recon_line: { id: 'int', recon_id: 'int!', id_card: 'string!', staff_name: 'string', insurance: 'string!', kind: 'string!', bureau_self: 'money', bureau_company: 'money', our_self: 'money', our_company: 'money', state: 'string!', reason: 'string', accepted_by: 'string', accepted_time: 'datetime', target_month: 'month', create_time: 'datetime', update_time: 'datetime' },
} as const satisfies HandTableSet;
