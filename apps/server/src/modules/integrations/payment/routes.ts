import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../core/errors.ts';
import { parsePaging } from '../../../crud/listQuery.ts';
import { countOf, orderedPage, pagingQueryFields } from '../../../crud/pagedQuery.ts';
import { queryText, safeText } from '../../../crud/routeSchemas.ts';
import { checkPaymentForm, createPayment, fenToYuan, handleNotify, type PayChannel } from './orders.ts';
import { queryAlipayOrder } from './query.ts';
import { alipayClient, alipaySettingsBody, alipaySettingsView, type PaymentDb, readAlipaySettings, readAlipayView, saveAlipaySettings } from './settings.ts';

/**
 * Spec §7 Payment: GET, PUT /api/aliPay; POST /api/aliPay/toPayAsPC and /toPayAsWeb; plus the order list and
 * Alipay's two callbacks, which are public (Alipay calls them without a login) and trust only signatures.
 */

const tags = ['支付宝工具'];
const READ = ['ALIPAY_ALL', 'ALIPAY_SELECT'];
// whoever may change the settings may also see them (keys masked)
const READ_SETTINGS = ['ALIPAY_ALL', 'ALIPAY_SELECT', 'ALIPAY_EDIT'];
const EDIT = ['ALIPAY_ALL', 'ALIPAY_EDIT'];
const PAY = ['ALIPAY_ALL', 'ALIPAY_PAY'];

const payBody = z.looseObject({
  subject: z.string({ error: '商品名称不能为空' }).max(256, '商品名称长度不能超过256个字符').optional(),
  totalAmount: z.union([z.string().max(20), z.number()], { error: '商品价格必须是数字，最多两位小数' }).optional(),
  body: z.string({ error: '商品描述不能为空' }).max(400, '商品描述长度不能超过400个字符').optional(),
});

const orderQuery = z.looseObject({
  ...pagingQueryFields,
  state: queryText('状态只能是 WAITING、PAID 或 CLOSED', 10),
  outTradeNo: queryText('订单号长度不能超过64个字符', 64),
});

const orderRow = z.object({
  id: z.number(),
  outTradeNo: z.string(),
  subject: z.string(),
  body: z.string().nullable(),
  totalAmount: z.string().meta({ description: '元，两位小数' }),
  channel: z.string(),
  state: z.string(),
  tradeNo: z.string().nullable(),
  paidTime: z.string().nullable(),
  createBy: z.string().nullable(),
  createTime: z.string().nullable(),
});

/** Alipay's callbacks are form posts (notify) or query strings (return); everything arrives as text. */
const callbackParams = z.record(z.string(), z.unknown()).optional().meta({ description: '支付宝回调参数（application/x-www-form-urlencoded）' });
const returnQuery = z.looseObject({
  out_trade_no: z.unknown().optional().meta({ type: 'string', description: '商户订单号' }),
  trade_no: z.unknown().optional().meta({ type: 'string', description: '支付宝交易号' }),
  total_amount: z.unknown().optional().meta({ type: 'string', description: '金额（元）' }),
  sign: z.unknown().optional().meta({ type: 'string', description: '支付宝签名' }),
});

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
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db: PaymentDb = app.ctx.db;
  const { secrets } = app.ctx;

  async function settingsOrFail() {
    const s = await readAlipaySettings(db, secrets);
    if (!s) throw new AppError('ALIPAY_NOT_CONFIGURED', {});
    return s;
  }

  app.get('/api/aliPay', { config: { auth: READ_SETTINGS }, schema: { tags, summary: '支付宝配置（密钥不返回）', response: { 200: alipaySettingsView } } }, () => readAlipayView(db));

  app.put(
    '/api/aliPay',
    { config: { auth: EDIT, log: '修改支付宝配置' }, schema: { tags, summary: '保存支付宝配置（密钥加密保存；空或 ****** 保留原值）', body: alipaySettingsBody } },
    async (req, reply) => {
      await saveAlipaySettings(db, secrets, req.body, req.user!.username);
      return reply.code(204).send();
    },
  );

  const payResponse = { 200: z.object({ url: z.string().meta({ description: '签名后的支付页面地址，在新窗口打开' }), outTradeNo: z.string() }) };
  for (const [path, channel, summary] of [
    ['/api/aliPay/toPayAsPC', 'PC', '电脑网站支付（alipay.trade.page.pay）'],
    ['/api/aliPay/toPayAsWeb', 'WAP', '手机网站支付（alipay.trade.wap.pay）'],
  ] as [string, PayChannel, string][]) {
    app.post(path, { config: { auth: PAY, log: '支付宝测试支付' }, schema: { tags, summary, body: payBody, response: payResponse } }, async (req) => {
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
  app.get(
    '/api/aliPay/orders',
    { config: { auth: READ }, schema: { tags, summary: '测试订单（分页）', querystring: orderQuery, response: { 200: z.object({ content: z.array(orderRow), totalElements: z.number() }) } } },
    async (req) => {
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
    },
  );

  // The fallback for a notify that never came: ask Alipay for the order's state (alipay.trade.query).
  app.post(
    '/api/aliPay/orders/:outTradeNo/query',
    {
      config: { auth: PAY, log: '支付宝查询订单' },
      schema: {
        tags,
        summary: '向支付宝查询订单状态（alipay.trade.query，应答验签）；已支付或已关闭时更新订单',
        params: z.object({ outTradeNo: safeText('订单号', 64).pipe(z.string().min(1)) }),
        response: { 200: z.object({ outTradeNo: z.string(), tradeStatus: z.string().meta({ description: '支付宝交易状态；NOT_EXIST 表示买家尚未付款' }), changed: z.boolean(), state: z.string() }) },
      },
    },
    async (req) => {
      const { outTradeNo } = req.params;
      const settings = await settingsOrFail();
      const outcome = await queryAlipayOrder(db, settings, outTradeNo);
      const row = await db.selectFrom('tool_alipay_order').select('state').where('out_trade_no', '=', outTradeNo).executeTakeFirstOrThrow();
      return { outTradeNo, ...outcome, state: row.state };
    },
  );

  // Alipay's asynchronous notify: a form post, answered with the bare word Alipay expects. Anything but
  // `success` makes Alipay retry (up to 8 times over 25 hours), which is what a refused notify should cause.
  fastify.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    const typed = scope.withTypeProvider<ZodTypeProvider>();
    typed.post(
      '/api/aliPay/notify',
      { config: { auth: 'public', log: '支付宝异步通知' }, schema: { tags, summary: '支付宝异步通知（验签，并核对 app_id、订单号、金额、卖家；幂等）', body: callbackParams } },
      async (req, reply) => {
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
      },
    );
  });

  // The synchronous return: the buyer's browser comes back here. It shows the order's state and never changes it.
  app.get(
    '/api/aliPay/return',
    { config: { auth: 'public' }, schema: { tags, summary: '支付宝同步跳转页（只显示订单状态，不改变状态）', querystring: returnQuery } },
    async (req, reply) => {
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
    },
  );
}
