import { nowIso } from '../../../core/db.ts';
import { AppError } from '../../../core/errors.ts';
import { type AlipaySettings, alipayClient, type PaymentDb } from './settings.ts';

/**
 * Alipay times and the query fallback (finding M9).
 *
 * Alipay reads a request's `timestamp` as Beijing time (yyyy-MM-dd HH:mm:ss) and refuses requests more than
 * a few minutes off; the SDK formats it in the host's zone, 8 hours behind on a UTC server. Every request
 * therefore carries a timestamp computed from the epoch at UTC+8, whatever TZ says.
 *
 * A notify can be lost (firewall, the server down for Alipay's whole retry window): `alipay.trade.query` asks
 * Alipay for the order's state and records it through the same checks and conditional updates as a notify.
 */

const BEIJING_OFFSET_MS = 8 * 3600_000;

/** `at` as Beijing wall-clock time, yyyy-MM-dd HH:mm:ss (China has no daylight saving time). */
export function beijingTimestamp(at: Date = new Date()): string {
  return new Date(at.getTime() + BEIJING_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** The order's amount as Alipay writes it (yuan, two decimals) to integer fen; null when malformed. */
function yuanTextToFen(raw: unknown): number | null {
  const m = typeof raw === 'string' ? /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(raw.trim()) : null;
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : null;
}

/** Alipay's trade states that mean the money arrived. */
export const PAID_STATES = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);

/** WAITING -> PAID, once (a notify and a query racing change the order one time). */
export async function markOrderPaid(db: PaymentDb, orderId: number, paid: { tradeNo: string; buyerId: string; paidTime: string }): Promise<boolean> {
  const now = nowIso();
  const r = await db
    .updateTable('tool_alipay_order')
    .set({ state: 'PAID', trade_no: paid.tradeNo.slice(0, 64) || null, buyer_id: paid.buyerId.slice(0, 64) || null, paid_time: (paid.paidTime || beijingTimestamp()).slice(0, 32), update_time: now })
    .where('id', '=', orderId)
    .where('state', '=', 'WAITING')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** WAITING -> CLOSED, once. */
export async function markOrderClosed(db: PaymentDb, orderId: number): Promise<boolean> {
  const r = await db.updateTable('tool_alipay_order').set({ state: 'CLOSED', update_time: nowIso() }).where('id', '=', orderId).where('state', '=', 'WAITING').executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export interface QueryOutcome {
  /** Alipay's trade_status, or NOT_EXIST when the buyer never opened the payment. */
  tradeStatus: string;
  changed: boolean;
}

/** Alipay's answer fields, as the SDK gives them (camelCased by default; snake_case kept for safety). */
function field(data: Record<string, unknown>, camel: string, snake: string): string {
  const v = data[camel] ?? data[snake];
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

/**
 * Asks Alipay (alipay.trade.query, response signature verified with Alipay's key) for one order and records a
 * paid or closed trade. The answer must name the same order and its exact amount, as a notify must. An order
 * Alipay does not know (ACQ.TRADE_NOT_EXIST: the buyer never scanned) stays WAITING.
 */
export async function queryAlipayOrder(db: PaymentDb, settings: AlipaySettings, outTradeNo: string): Promise<QueryOutcome> {
  const order = await db.selectFrom('tool_alipay_order').selectAll().where('out_trade_no', '=', outTradeNo).executeTakeFirst();
  if (!order) throw new AppError('ALIPAY_ORDER_NOT_FOUND', {});
  const sdk = await alipayClient(settings);
  let data: Record<string, unknown>;
  try {
    data = (await sdk.exec('alipay.trade.query', { bizContent: { out_trade_no: outTradeNo }, timestamp: beijingTimestamp() }, { validateSign: true })) as Record<string, unknown>;
  } catch (err) {
    // the SDK's message may quote the response; the reason for the user is the class of failure only
    const reason = err instanceof Error && /验签/.test(err.message) ? '应答签名校验失败' : '无法连接支付宝网关或应答格式错误';
    throw new AppError('ALIPAY_QUERY_FAILED', { reason });
  }
  const code = field(data, 'code', 'code');
  const subCode = field(data, 'subCode', 'sub_code');
  if (code !== '10000') {
    if (subCode === 'ACQ.TRADE_NOT_EXIST') return { tradeStatus: 'NOT_EXIST', changed: false };
    throw new AppError('ALIPAY_QUERY_FAILED', { reason: `${subCode || code} ${field(data, 'subMsg', 'sub_msg') || field(data, 'msg', 'msg')}`.trim().slice(0, 200) });
  }
  if (field(data, 'outTradeNo', 'out_trade_no') !== outTradeNo) throw new AppError('ALIPAY_QUERY_FAILED', { reason: { code: 'ALIPAY_REASON_ORDER_MISMATCH' } });
  const fen = yuanTextToFen(field(data, 'totalAmount', 'total_amount'));
  if (fen !== Number(order.amount_fen)) throw new AppError('ALIPAY_QUERY_FAILED', { reason: { code: 'ALIPAY_REASON_AMOUNT_MISMATCH' } });
  const tradeStatus = field(data, 'tradeStatus', 'trade_status');
  if (PAID_STATES.has(tradeStatus)) {
    const changed = await markOrderPaid(db, Number(order.id), {
      tradeNo: field(data, 'tradeNo', 'trade_no'),
      buyerId: field(data, 'buyerUserId', 'buyer_user_id') || field(data, 'buyerOpenId', 'buyer_open_id'),
      paidTime: field(data, 'sendPayDate', 'send_pay_date'),
    });
    return { tradeStatus, changed };
  }
  if (tradeStatus === 'TRADE_CLOSED') return { tradeStatus, changed: await markOrderClosed(db, Number(order.id)) };
  return { tradeStatus, changed: false };
}
