import type { FastifyInstance } from 'fastify';
import {
  alipayNotify,
  alipayReturn,
  alipaySettings,
  listAlipayOrders,
  payAsPc,
  payAsWeb,
  queryAlipayOrder as queryOrderContract,
  saveAlipaySettings as saveSettingsContract,
} from '@app/shared/contracts/payment';
import { AppError } from '../../../core/errors.ts';
import { parsePaging } from '../../../crud/listQuery.ts';
import { countOf, orderedPage } from '../../../crud/pagedQuery.ts';
import { routeContract } from '../../../crud/registerContract.ts';
import { checkPaymentForm, createPayment, fenToYuan, handleNotify, type PayChannel } from './orders.ts';
import { queryAlipayOrder } from './query.ts';
import { alipayClient, type PaymentDb, readAlipaySettings, readAlipayView, saveAlipaySettings } from './settings.ts';

/**
 * Spec §7 Payment: GET, PUT /api/aliPay; POST /api/aliPay/toPayAsPC and /toPayAsWeb; plus the order list and
 * Alipay's two callbacks, which are public (Alipay calls them without a login) and trust only signatures.
 */

/**
 * The notify or return parameters as text, or null when one is not text. Keyed by the sender's names: no prototype,
 * so a parameter called `__proto__` is kept (and signed over) instead of silently dropped.
 */
export function stringParams(raw: Record<string, unknown> | undefined): Record<string, string> | null {
  const out: Record<string, string> = Object.create(null);
  for (const [k, v] of Object.entries(raw ?? {})) {
    if (typeof v !== 'string') return null;
    out[k] = v;
  }
  return out;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function registerPaymentRoutes(fastify: FastifyInstance): void {
  const app = fastify;
  const db: PaymentDb = app.ctx.db;
  const { secrets } = app.ctx;

  async function settingsOrFail() {
    const s = await readAlipaySettings(db, secrets);
    if (!s) throw new AppError('ALIPAY_NOT_CONFIGURED', {});
    return s;
  }

  routeContract(app, alipaySettings, () => readAlipayView(db));

  routeContract(app, saveSettingsContract, async (req, reply) => {
    await saveAlipaySettings(db, secrets, req.body, req.user!.username);
    return reply.code(204).send();
  });

  for (const [contract, channel] of [
    [payAsPc, 'PC'],
    [payAsWeb, 'WAP'],
  ] as const satisfies readonly (readonly [typeof payAsPc | typeof payAsWeb, PayChannel])[]) {
    routeContract(app, contract, async (req) => {
      const form = checkPaymentForm(req.body);
      const settings = await settingsOrFail();
      return createPayment(db, settings, channel, form, req.user!.username);
    });
  }

  const sortable = new Map([
    ['id', 'id'],
    ['createTime', 'create_time'],
    ['state', 'state'],
  ]);
  routeContract(app, listAlipayOrders, async (req) => {
    const paging = parsePaging(req.query, sortable, [['id', 'desc']]);
    let qb = db.selectFrom('tool_alipay_order');
    if (req.query.state) qb = qb.where('state', '=', req.query.state.toUpperCase());
    if (req.query.outTradeNo) qb = qb.where('out_trade_no', '=', req.query.outTradeNo);
    const total = await countOf(qb);
    const rows = total ? await orderedPage(qb.selectAll(), paging).execute() : [];
    return {
      content: rows.map((r) => ({
        id: Number(r.id),
        outTradeNo: r.out_trade_no,
        subject: r.subject,
        body: r.body,
        totalAmount: fenToYuan(Number(r.amount_fen)),
        channel: r.channel,
        state: r.state,
        tradeNo: r.trade_no,
        paidTime: r.paid_time,
        createBy: r.create_by,
        createTime: r.create_time,
      })),
      totalElements: total,
    };
  });

  // The fallback for a notify that never came: ask Alipay for the order's state (alipay.trade.query).
  routeContract(app, queryOrderContract, async (req) => {
    const { outTradeNo } = req.params;
    const settings = await settingsOrFail();
    const outcome = await queryAlipayOrder(db, settings, outTradeNo);
    const row = await db.selectFrom('tool_alipay_order').select('state').where('out_trade_no', '=', outTradeNo).executeTakeFirstOrThrow();
    return { outTradeNo, ...outcome, state: row.state };
  });

  // Alipay's asynchronous notify: a form post, answered with the bare word Alipay expects. Anything but
  // `success` makes Alipay retry (up to 8 times over 25 hours), which is what a refused notify should cause.
  fastify.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    routeContract(scope, alipayNotify, async (req, reply) => {
      reply.type('text/plain; charset=utf-8');
      const params = stringParams(req.body);
      const settings = await readAlipaySettings(db, secrets).catch(() => null);
      if (!params || !settings) {
        req.log.warn({ outTradeNo: params?.out_trade_no }, 'alipay notify refused: not configured or not a form');
        return 'failure';
      }
      const outcome = await handleNotify(db, settings, params);
      if (!outcome.ok) {
        // the reason and the order number only: never the parameters (they carry the signature)
        req.log.warn({ reason: outcome.reason, outTradeNo: params.out_trade_no }, 'alipay notify refused');
        return 'failure';
      }
      return 'success';
    });
  });

  // The synchronous return: the buyer's browser comes back here. It shows the order's state and never changes it.
  routeContract(app, alipayReturn, async (req, reply) => {
    const params = stringParams(req.query);
    const settings = await readAlipaySettings(db, secrets).catch(() => null);
    let line = '支付结果无法确认：参数签名校验失败';
    if (params && settings) {
      let signed = false;
      try {
        signed = (await alipayClient(settings)).checkNotifySignV2(params);
      } catch {
        signed = false;
      }
      const order = signed && params.out_trade_no ? await db.selectFrom('tool_alipay_order').selectAll().where('out_trade_no', '=', params.out_trade_no).executeTakeFirst() : undefined;
      if (order) {
        const state = order.state === 'PAID' ? '已支付' : order.state === 'CLOSED' ? '已关闭' : '等待支付宝异步通知确认';
        line = `订单 ${order.out_trade_no}（${order.subject}，${fenToYuan(Number(order.amount_fen))} 元）：${state}`;
      }
    }
    reply.type('text/html; charset=utf-8');
    return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>支付结果</title></head><body style="font-family:sans-serif;padding:40px"><h2>支付结果</h2><p data-testid="alipay-return">${escapeHtml(line)}</p><p><a href="/">返回系统</a></p></body></html>`;
  });
}
