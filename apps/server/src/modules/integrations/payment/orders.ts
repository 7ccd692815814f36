import crypto from 'node:crypto';
import { isUniqueViolation, nowIso } from '../../../core/db.ts';
import { AppError } from '../../../core/errors.ts';
import { beijingTimestamp, markOrderClosed, markOrderPaid, PAID_STATES } from './query.ts';
import { type AlipaySettings, alipayClient, type PaymentDb } from './settings.ts';

/**
 * Test payments (spec §7 Payment: toPayAsPC / toPayAsWeb) and Alipay's asynchronous notify. Amounts are
 * integer fen end to end: the form's yuan are parsed as text (never as a float), the order keeps fen, Alipay
 * gets a two-decimal string and a notify's amount is parsed back the same way before it is compared.
 */

/** Spec §9: a test payment is within (0, 5000] yuan. */
export const MAX_TEST_AMOUNT_FEN = 500_000;

/** Yuan as given by a form ("12.3", 12.34) to integer fen; null when it is not a non-negative amount with at most two decimals. */
export function yuanToFen(raw: unknown): number | null {
  const text = typeof raw === 'number' ? (Number.isFinite(raw) ? String(raw) : '') : typeof raw === 'string' ? raw.trim() : '';
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Fen as the two-decimal yuan string Alipay expects ("0.01"). */
export function fenToYuan(fen: number): string {
  return `${Math.trunc(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** The checked payment form: subject, amount in fen, description. */
export function checkPaymentForm(input: { subject?: unknown; totalAmount?: unknown; body?: unknown }): { subject: string; amountFen: number; body: string } {
  const subject = typeof input.subject === 'string' ? input.subject.trim() : '';
  if (!subject) throw new AppError('ALIPAY_SUBJECT_REQUIRED', {}, { subject: { code: 'ALIPAY_SUBJECT_REQUIRED' } });
  const amountRaw = input.totalAmount;
  if (amountRaw === undefined || amountRaw === null || amountRaw === '') throw new AppError('ALIPAY_AMOUNT_REQUIRED', {}, { totalAmount: { code: 'ALIPAY_AMOUNT_REQUIRED' } });
  const amountFen = yuanToFen(amountRaw);
  if (amountFen === null) throw new AppError('ALIPAY_AMOUNT_FORMAT', {}, { totalAmount: { code: 'ALIPAY_AMOUNT_FORMAT' } });
  if (amountFen <= 0 || amountFen > MAX_TEST_AMOUNT_FEN) throw new AppError('ALIPAY_AMOUNT_RANGE', {}, { totalAmount: { code: 'ALIPAY_AMOUNT_RANGE' } });
  const body = typeof input.body === 'string' ? input.body.trim() : '';
  if (!body) throw new AppError('ALIPAY_BODY_REQUIRED', {}, { body: { code: 'ALIPAY_BODY_REQUIRED' } });
  return { subject, amountFen, body };
}

/** yyyyMMddHHmmss in China time followed by 6 random digits: readable in Alipay's merchant portal, unique by index. */
function newOutTradeNo(): string {
  const china = new Date(Date.now() + 8 * 3600_000).toISOString();
  const stamp = china.slice(0, 19).replace(/[-T:]/g, '');
  return `${stamp}${crypto.randomInt(0, 1_000_000).toString().padStart(6, '0')}`;
}

export type PayChannel = 'PC' | 'WAP';
const METHOD: Record<PayChannel, { method: string; productCode: string }> = {
  PC: { method: 'alipay.trade.page.pay', productCode: 'FAST_INSTANT_TRADE_PAY' },
  WAP: { method: 'alipay.trade.wap.pay', productCode: 'QUICK_WAP_WAY' },
};

/**
 * Stores a WAITING order and answers the signed page-pay URL (opened by the browser in a new window). The
 * business content is an object that the SDK serialises, so a subject with quotes stays a string.
 */
export async function createPayment(
  db: PaymentDb,
  settings: AlipaySettings,
  channel: PayChannel,
  form: { subject: string; amountFen: number; body: string },
  username: string,
): Promise<{ url: string; outTradeNo: string }> {
  const sdk = await alipayClient(settings);
  for (let attempt = 0; ; attempt++) {
    const outTradeNo = newOutTradeNo();
    const now = nowIso();
    try {
      await db
        .insertInto('tool_alipay_order')
        .values({
          out_trade_no: outTradeNo,
          subject: form.subject,
          body: form.body,
          amount_fen: form.amountFen,
          channel,
          state: 'WAITING',
          trade_no: null,
          buyer_id: null,
          paid_time: null,
          create_by: username,
          create_time: now,
          update_time: now,
        })
        .execute();
    } catch (err) {
      if (isUniqueViolation(err) && attempt < 3) continue;
      throw err;
    }
    const { method, productCode } = METHOD[channel];
    const url = sdk.pageExecute(method, 'GET', {
      bizContent: { out_trade_no: outTradeNo, product_code: productCode, total_amount: fenToYuan(form.amountFen), subject: form.subject, body: form.body },
      returnUrl: settings.returnUrl,
      notifyUrl: settings.notifyUrl,
      // Beijing time whatever the host's zone (the SDK would use the host's)
      timestamp: beijingTimestamp(),
    });
    return { url, outTradeNo };
  }
}

export type NotifyOutcome = { ok: true; changed: boolean; outTradeNo: string } | { ok: false; reason: string };

/**
 * An asynchronous notify, checked in order: the signature (Alipay's key), then that it is about our app, an
 * order we created, its exact amount and our seller account; only then does a conditional update move the
 * order WAITING -> PAID (or CLOSED), so a replayed or concurrent duplicate changes nothing.
 */
export async function handleNotify(db: PaymentDb, settings: AlipaySettings, params: Record<string, string>): Promise<NotifyOutcome> {
  let signed = false;
  try {
    // V2: the values are used as received (the form parser has already decoded them once)
    signed = (await alipayClient(settings)).checkNotifySignV2(params);
  } catch {
    signed = false;
  }
  if (!signed) return { ok: false, reason: 'signature' };
  if (params.app_id !== settings.appId) return { ok: false, reason: 'app_id' };
  const outTradeNo = params.out_trade_no ?? '';
  const order = outTradeNo ? await db.selectFrom('tool_alipay_order').selectAll().where('out_trade_no', '=', outTradeNo).executeTakeFirst() : undefined;
  if (!order) return { ok: false, reason: 'out_trade_no' };
  const fen = yuanToFen(params.total_amount);
  if (fen === null || fen !== Number(order.amount_fen)) return { ok: false, reason: 'total_amount' };
  if (params.seller_id !== settings.sellerId) return { ok: false, reason: 'seller_id' };

  const status = params.trade_status ?? '';
  if (PAID_STATES.has(status)) {
    const changed = await markOrderPaid(db, Number(order.id), { tradeNo: params.trade_no ?? '', buyerId: params.buyer_id ?? params.buyer_open_id ?? '', paidTime: params.gmt_payment ?? '' });
    return { ok: true, changed, outTradeNo };
  }
  if (status === 'TRADE_CLOSED') return { ok: true, changed: await markOrderClosed(db, Number(order.id)), outTradeNo };
  // WAIT_BUYER_PAY and the like: acknowledged, nothing to record
  return { ok: true, changed: false, outTradeNo };
}
