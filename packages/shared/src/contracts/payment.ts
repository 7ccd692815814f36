import { z } from 'zod';
import { defineContract } from './contract.ts';
import { pagingQueryFields, queryText, safeText } from './schemas.ts';
import { codedText } from '../errors/zodIssues.ts';

/**
 * 系统工具 › 支付宝工具 (spec §7 Payment): the Alipay settings (both keys write-only: a read shows the mask), test
 * payments (PC and mobile), the test orders and the order query; plus Alipay's two callbacks, which are public
 * (Alipay and the buyer's browser call them without a login) and trust only the signature. Server:
 * apps/server/src/modules/integrations/payment; screen: apps/web/src/modules/integrations/AliPayToolPage.tsx.
 */
const tags = ['支付宝工具'] as const;

export const ALIPAY_CODES = {
  orderRead: ['ALIPAY_ALL', 'ALIPAY_SELECT'],
  // whoever may change the settings may also see them (keys masked)
  settingsRead: ['ALIPAY_ALL', 'ALIPAY_SELECT', 'ALIPAY_EDIT'],
  edit: ['ALIPAY_ALL', 'ALIPAY_EDIT'],
  pay: ['ALIPAY_ALL', 'ALIPAY_PAY'],
} as const;

/** Alipay's sandbox (where a test payment goes unless the operator enters the production gateway) and production. */
export const SANDBOX_GATEWAY = 'https://openapi-sandbox.dl.alipaydev.com/gateway.do';
export const PRODUCTION_GATEWAY = 'https://openapi.alipay.com/gateway.do';

export const alipaySettingsBody = z.looseObject({
  appID: safeText('应用ID', 32).optional(),
  sysServiceProviderId: safeText('商户号', 32).optional(),
  privateKey: safeText('商户私钥', 8000).optional(),
  publicKey: safeText('支付宝公钥', 4000).optional(),
  gateway: safeText('支付宝网关', 255).optional(),
  returnUrl: safeText('回调地址', 500).optional(),
  notifyUrl: safeText('回调地址', 500).optional(),
});
export type AlipaySettingsInput = z.infer<typeof alipaySettingsBody>;

export const alipaySettingsView = z.object({
  appID: z.string(),
  sysServiceProviderId: z.string(),
  privateKey: z.string().meta({ description: '已保存时为 ******，从不返回密钥' }),
  publicKey: z.string().meta({ description: '已保存时为 ******，从不返回密钥' }),
  gateway: z.string(),
  returnUrl: z.string(),
  notifyUrl: z.string(),
  updateTime: z.string().nullable(),
});
export type AlipaySettingsView = z.infer<typeof alipaySettingsView>;

const payBody = z.looseObject({
  subject: z.string(codedText('ALIPAY_SUBJECT_REQUIRED')).max(256, codedText('FIELD_TOO_LONG', { label: '商品名称', max: 256 })).optional(),
  totalAmount: z.union([z.string().max(20), z.number()], codedText('ALIPAY_AMOUNT_FORMAT')).optional(),
  body: z.string(codedText('ALIPAY_BODY_REQUIRED')).max(400, codedText('FIELD_TOO_LONG', { label: '商品描述', max: 400 })).optional(),
});
const payAnswer = z.object({ url: z.string().meta({ description: '签名后的支付页面地址，在新窗口打开' }), outTradeNo: z.string() });

export const alipayOrderRow = z.object({
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
export type AlipayOrderRow = z.infer<typeof alipayOrderRow>;

export const alipaySettings = defineContract({
  method: 'GET',
  path: '/api/aliPay',
  auth: ALIPAY_CODES.settingsRead,
  summary: '支付宝配置（密钥不返回）',
  tags,
  response: alipaySettingsView,
});

/** Answers 204 (no body). */
export const saveAlipaySettings = defineContract({
  method: 'PUT',
  path: '/api/aliPay',
  auth: ALIPAY_CODES.edit,
  summary: '保存支付宝配置（密钥加密保存；空或 ****** 保留原值）',
  log: '修改支付宝配置',
  tags,
  body: alipaySettingsBody,
});

export const payAsPc = defineContract({
  method: 'POST',
  path: '/api/aliPay/toPayAsPC',
  auth: ALIPAY_CODES.pay,
  summary: '电脑网站支付（alipay.trade.page.pay）',
  log: '支付宝测试支付',
  tags,
  body: payBody,
  response: payAnswer,
});

export const payAsWeb = defineContract({
  method: 'POST',
  path: '/api/aliPay/toPayAsWeb',
  auth: ALIPAY_CODES.pay,
  summary: '手机网站支付（alipay.trade.wap.pay）',
  log: '支付宝测试支付',
  tags,
  body: payBody,
  response: payAnswer,
});

export const listAlipayOrders = defineContract({
  method: 'GET',
  path: '/api/aliPay/orders',
  auth: ALIPAY_CODES.orderRead,
  summary: '测试订单（分页）',
  tags,
  query: z.looseObject({
    ...pagingQueryFields,
    state: queryText({ code: 'ALIPAY_STATUS_FILTER' }, 10),
    outTradeNo: queryText({ code: 'FIELD_TOO_LONG', params: { label: '订单号', max: 64 } }, 64),
  }),
  response: z.object({ content: z.array(alipayOrderRow), totalElements: z.number() }),
});

/** The fallback for a notify that never came: Alipay is asked for the order's state. */
export const queryAlipayOrder = defineContract({
  method: 'POST',
  path: '/api/aliPay/orders/:outTradeNo/query',
  auth: ALIPAY_CODES.pay,
  summary: '向支付宝查询订单状态（alipay.trade.query，应答验签）；已支付或已关闭时更新订单',
  log: '支付宝查询订单',
  tags,
  params: z.object({ outTradeNo: safeText('订单号', 64).pipe(z.string().min(1)) }),
  response: z.object({
    outTradeNo: z.string(),
    tradeStatus: z.string().meta({ description: '支付宝交易状态；NOT_EXIST 表示买家尚未付款' }),
    changed: z.boolean(),
    state: z.string(),
  }),
});

/**
 * Alipay's asynchronous notify: a form post (application/x-www-form-urlencoded, parsed by the route's own scope),
 * answered with the bare word `success` or `failure` as text/plain, hence no JSON response here.
 */
export const alipayNotify = defineContract({
  method: 'POST',
  path: '/api/aliPay/notify',
  auth: 'public',
  summary: '支付宝异步通知（验签，并核对 app_id、订单号、金额、卖家；幂等）',
  log: '支付宝异步通知',
  tags,
  body: z.record(z.string(), z.unknown()).optional().meta({ description: '支付宝回调参数（application/x-www-form-urlencoded）' }),
});

/** The synchronous return: the buyer's browser comes back here; the answer is an HTML page (no JSON response). */
export const alipayReturn = defineContract({
  method: 'GET',
  path: '/api/aliPay/return',
  auth: 'public',
  summary: '支付宝同步跳转页（只显示订单状态，不改变状态）',
  tags,
  query: z.looseObject({
    out_trade_no: z.unknown().optional().meta({ type: 'string', description: '商户订单号' }),
    trade_no: z.unknown().optional().meta({ type: 'string', description: '支付宝交易号' }),
    total_amount: z.unknown().optional().meta({ type: 'string', description: '金额（元）' }),
    sign: z.unknown().optional().meta({ type: 'string', description: '支付宝签名' }),
  }),
});
