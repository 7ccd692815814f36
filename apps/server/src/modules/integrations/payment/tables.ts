import type { HandTableSet } from '../../../core/dbTypes.ts';

/**
 * The tables of Alipay settings and orders (modules/integrations/payment) that no definition describes: table ->
 * column -> stored kind, in the notation of HandTableSet (core/dbTypes.ts). Assembled in src/dbTables.ts; test/db-
 * types.test.ts checks them against the migrated tables.
 */
export const PAYMENT_TABLES = {
  tool_alipay_config: { id: 'int', app_id: 'string', seller_id: 'string', private_key_sealed: 'text', public_key_sealed: 'text', gateway: 'string', return_url: 'string', notify_url: 'string', update_by: 'string', create_time: 'datetime', update_time: 'datetime' },
  tool_alipay_order: { id: 'int', out_trade_no: 'string!', subject: 'string!', body: 'string', amount_fen: 'int!', channel: 'string!', state: 'string!', trade_no: 'string', buyer_id: 'string', paid_time: 'datetime', create_by: 'string', create_time: 'datetime', update_time: 'datetime' },
} as const satisfies HandTableSet;
