import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleNotify } from '../src/modules/integrations/payment/orders.ts';
import { readAlipaySettings } from '../src/modules/integrations/payment/settings.ts';
import { captureLogLines } from './email-fixtures.ts';
import { createTestApp, TEST_DB, type TestApp } from './helpers.ts';
import { adminCaller, type Caller, userWithCodes } from './system-fixtures.ts';

/**
 * The Alipay tool with real RSA-2048 signatures: one key pair is the application's, the other stands in for
 * Alipay's. The page-pay URL must verify with the application's public key; a notify must verify with
 * "Alipay's" key *and* name our app, an order we made, its exact amount and our seller before the order is
 * paid, once.
 */

const pair = () => crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const appKeys = pair();
const alipayKeys = pair();
const pem = (k: crypto.KeyObject, type: 'pkcs8' | 'pkcs1' | 'spki') => k.export({ type: type as 'pkcs8', format: 'pem' }).toString();
const base64Body = (p: string) => p.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

const APP_ID = '9021000000000001';
const SELLER = '2088000000000002';
// the open platform shows keys as bare Base64: the app key pasted that way (PKCS#1), Alipay's as PEM
const APP_PRIVATE_PASTED = base64Body(pem(appKeys.privateKey, 'pkcs1'));
const ALIPAY_PUBLIC_PEM = pem(alipayKeys.publicKey, 'spki');
// from the private exponent onwards (the first ~400 characters encode the modulus, which the public key shares)
const PRIVATE_FRAGMENT = base64Body(pem(appKeys.privateKey, 'pkcs8')).slice(800, 860);
const PASTED_FRAGMENT = APP_PRIVATE_PASTED.slice(800, 860);

const config = {
  appID: APP_ID,
  sysServiceProviderId: SELLER,
  privateKey: APP_PRIVATE_PASTED,
  publicKey: ALIPAY_PUBLIC_PEM,
  gateway: 'https://openapi-sandbox.dl.alipaydev.com/gateway.do',
  returnUrl: 'https://payroll.example.com/api/aliPay/return',
  notifyUrl: 'https://payroll.example.com/api/aliPay/notify',
};

/** Alipay's notify signature: RSA-SHA256 over the sorted k=v pairs without sign and sign_type. */
function signAsAlipay(params: Record<string, string>, key: crypto.KeyObject = alipayKeys.privateKey): Record<string, string> {
  const content = Object.keys(params)
    .filter((k) => k !== 'sign' && k !== 'sign_type' && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  return { ...params, sign_type: 'RSA2', sign: crypto.createSign('RSA-SHA256').update(content, 'utf8').sign(key, 'base64') };
}

let t: TestApp;
let admin: Caller;
let logLines: string[];

async function notify(params: Record<string, string>) {
  return t.app.inject({ method: 'POST', url: '/api/aliPay/notify', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(params).toString() });
}
async function order(outTradeNo: string) {
  return t.app.ctx.db.selectFrom('tool_alipay_order').selectAll().where('out_trade_no', '=', outTradeNo).executeTakeFirstOrThrow();
}
async function pay(amount: string | number, subject = '测试商品"}', channel = 'toPayAsPC') {
  const res = await admin('POST', `/api/aliPay/${channel}`, { subject, totalAmount: amount, body: '连通性测试' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { url: string; outTradeNo: string };
}
function paidNotify(outTradeNo: string, overrides: Record<string, string> = {}) {
  return {
    gmt_create: '2026-11-24 10:00:00',
    charset: 'utf-8',
    gmt_payment: '2026-11-24 10:00:05',
    notify_time: '2026-11-24 10:00:06',
    subject: '测试商品',
    buyer_id: '2088102177846880',
    invoice_amount: '0.01',
    version: '1.0',
    notify_id: crypto.randomUUID(),
    fund_bill_list: '[{"amount":"0.01","fundChannel":"ALIPAYACCOUNT"}]',
    notify_type: 'trade_status_sync',
    out_trade_no: outTradeNo,
    total_amount: '0.01',
    trade_status: 'TRADE_SUCCESS',
    trade_no: '2026112422001446880500000001',
    auth_app_id: APP_ID,
    receipt_amount: '0.01',
    app_id: APP_ID,
    buyer_pay_amount: '0.01',
    seller_id: SELLER,
    ...overrides,
  };
}

beforeAll(async () => {
  t = await createTestApp({ logRequests: true });
  logLines = captureLogLines(t.app.log);
  admin = await adminCaller(t);
});
afterAll(async () => {
  await t?.close();
});

describe(`Alipay tool (${TEST_DB})`, () => {
  it('refuses to pay before it is configured, and checks the configuration by the spec rules', async () => {
    const early = await admin('POST', '/api/aliPay/toPayAsPC', { subject: 's', totalAmount: '1', body: 'b' });
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('ALIPAY_NOT_CONFIGURED');
    const cases: [Record<string, unknown>, string][] = [
      [{ ...config, appID: '' }, '应用ID不能为空'],
      [{ ...config, appID: '12345' }, '应用ID应为16位数字'],
      [{ ...config, sysServiceProviderId: '' }, '商户号不能为空'],
      [{ ...config, sysServiceProviderId: '1234567890123456' }, '商户号（PID）应为2088开头的16位数字'],
      [{ ...config, privateKey: '' }, '商户私钥不能为空'],
      [{ ...config, privateKey: 'not a key' }, '商户私钥格式不正确，请粘贴RSA2（2048位）应用私钥，PEM或Base64均可'],
      [{ ...config, publicKey: '' }, '支付宝公钥不能为空'],
      [{ ...config, publicKey: 'MIIBIjANBgkq' }, '支付宝公钥格式不正确，请粘贴开放平台上的"支付宝公钥"（不是应用公钥），PEM或Base64均可'],
      [{ ...config, publicKey: pem(appKeys.publicKey, 'spki') }, '支付宝公钥与商户私钥是同一对密钥：请填写支付宝公钥，而不是应用公钥'],
      [{ ...config, returnUrl: '' }, '回调地址不能为空'],
      [{ ...config, notifyUrl: 'ftp://x/notify' }, '回调地址必须以http://或https://开头'],
      [{ ...config, gateway: 'http://openapi.alipay.com/gateway.do' }, '支付宝网关必须是https://开头的地址'],
    ];
    for (const [body, message] of cases) {
      const res = await admin('PUT', '/api/aliPay', body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it('stores both keys sealed, never returns them, and keeps them when the masks are saved back', async () => {
    expect((await admin('PUT', '/api/aliPay', config)).statusCode).toBe(204);
    const view = (await admin('GET', '/api/aliPay')).json();
    expect(view).toMatchObject({ appID: APP_ID, sysServiceProviderId: SELLER, privateKey: '******', publicKey: '******', returnUrl: config.returnUrl, notifyUrl: config.notifyUrl });
    const row = await t.app.ctx.db.selectFrom('tool_alipay_config').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(PRIVATE_FRAGMENT);
    expect(JSON.stringify(row)).not.toContain(base64Body(ALIPAY_PUBLIC_PEM).slice(100, 160));
    expect((await admin('PUT', '/api/aliPay', { ...view, privateKey: '******', publicKey: '' })).statusCode).toBe(204);
    const opened = await readAlipaySettings(t.app.ctx.db, t.app.ctx.secrets);
    expect(opened?.privateKey).toBe(pem(appKeys.privateKey, 'pkcs8'));
    expect(opened?.alipayPublicKey).toBe(ALIPAY_PUBLIC_PEM);
  });

  it('checks the payment form: (0, 5000] yuan with at most two decimals, subject and description required', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ subject: ' ', totalAmount: '1', body: 'b' }, '商品名称不能为空'],
      [{ subject: 's', totalAmount: '', body: 'b' }, '商品价格不能为空'],
      [{ subject: 's', totalAmount: '1', body: '' }, '商品描述不能为空'],
      [{ subject: 's', totalAmount: '0', body: 'b' }, '测试金额必须大于0且不超过5000元'],
      [{ subject: 's', totalAmount: '5000.01', body: 'b' }, '测试金额必须大于0且不超过5000元'],
      [{ subject: 's', totalAmount: '-1', body: 'b' }, '商品价格必须是数字，最多两位小数'],
      [{ subject: 's', totalAmount: '1.234', body: 'b' }, '商品价格必须是数字，最多两位小数'],
      [{ subject: 's', totalAmount: 0.1 + 0.2, body: 'b' }, '商品价格必须是数字，最多两位小数'],
    ];
    for (const [body, message] of cases) {
      for (const channel of ['toPayAsPC', 'toPayAsWeb']) {
        const res = await admin('POST', `/api/aliPay/${channel}`, body);
        expect(res.statusCode, `${channel} ${message}`).toBe(400);
        expect(res.json().message).toBe(message);
      }
    }
  });

  it('builds a page-pay URL signed with the application key, with the amount in exact fen', async () => {
    const { url, outTradeNo } = await pay('5000');
    const u = new URL(url);
    expect(`${u.origin}${u.pathname}`).toBe(config.gateway);
    const params = Object.fromEntries(u.searchParams);
    expect(params).toMatchObject({ method: 'alipay.trade.page.pay', app_id: APP_ID, sign_type: 'RSA2', charset: 'utf-8', notify_url: config.notifyUrl, return_url: config.returnUrl });
    const content = Object.keys(params)
      .filter((k) => k !== 'sign')
      .sort()
      .map((k) => `${k}=${params[k]}`)
      .join('&');
    expect(crypto.createVerify('RSA-SHA256').update(content, 'utf8').verify(appKeys.publicKey, params.sign, 'base64')).toBe(true);
    expect(crypto.createVerify('RSA-SHA256').update(`${content}x`, 'utf8').verify(appKeys.publicKey, params.sign, 'base64')).toBe(false);
    const biz = JSON.parse(params.biz_content);
    // the subject's quote and brace stay inside the JSON string (no concatenated JSON)
    expect(biz).toEqual({ out_trade_no: outTradeNo, product_code: 'FAST_INSTANT_TRADE_PAY', total_amount: '5000.00', subject: '测试商品"}', body: '连通性测试' });
    const row = await order(outTradeNo);
    expect(Number(row.amount_fen)).toBe(500_000);
    expect(row).toMatchObject({ state: 'WAITING', channel: 'PC' });

    const wap = await pay(19.9, '手机', 'toPayAsWeb');
    const wapBiz = JSON.parse(new URL(wap.url).searchParams.get('biz_content')!);
    expect(wapBiz).toMatchObject({ product_code: 'QUICK_WAP_WAY', total_amount: '19.90' });
    expect(new URL(wap.url).searchParams.get('method')).toBe('alipay.trade.wap.pay');
    expect(Number((await order(wap.outTradeNo)).amount_fen)).toBe(1990);
  });

  it('marks an order paid on a notify signed by Alipay, once; a replay is a no-op', async () => {
    const { outTradeNo } = await pay('0.01');
    const signed = signAsAlipay(paidNotify(outTradeNo));
    const res = await notify(signed);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('success');
    const paid = await order(outTradeNo);
    expect(paid).toMatchObject({ state: 'PAID', trade_no: '2026112422001446880500000001', paid_time: '2026-11-24 10:00:05' });
    const replay = await notify(signed);
    expect(replay.body).toBe('success');
    expect(await order(outTradeNo)).toEqual(paid);
    // a later closing notify for a paid order changes nothing either
    expect((await notify(signAsAlipay(paidNotify(outTradeNo, { trade_status: 'TRADE_CLOSED' })))).body).toBe('success');
    expect((await order(outTradeNo)).state).toBe('PAID');
  });

  it('refuses a notify with a wrong signature, app id, order, amount or seller, and leaves the order waiting', async () => {
    const { outTradeNo } = await pay('0.01');
    const refused: [string, Record<string, string>][] = [
      ['signed with the application key', signAsAlipay(paidNotify(outTradeNo), appKeys.privateKey)],
      ['amount changed after signing', { ...signAsAlipay(paidNotify(outTradeNo)), total_amount: '0.02' }],
      ['no signature', paidNotify(outTradeNo)],
      ['another app', signAsAlipay(paidNotify(outTradeNo, { app_id: '9021000000000999' }))],
      ['unknown order', signAsAlipay(paidNotify('20261124000000999999'))],
      ['wrong amount', signAsAlipay(paidNotify(outTradeNo, { total_amount: '0.02' }))],
      ['amount as float noise', signAsAlipay(paidNotify(outTradeNo, { total_amount: '0.010000001' }))],
      ['another seller', signAsAlipay(paidNotify(outTradeNo, { seller_id: '2088000000000999' }))],
    ];
    for (const [why, params] of refused) {
      const res = await notify(params);
      expect(res.body, why).toBe('failure');
    }
    const json = await t.app.inject({ method: 'POST', url: '/api/aliPay/notify', payload: { out_trade_no: outTradeNo, nested: { x: 1 } } });
    expect(json.body).toBe('failure');
    expect((await order(outTradeNo)).state).toBe('WAITING');
  });

  it('lets only one of two concurrent notifies change the order', async () => {
    const { outTradeNo } = await pay('12.34');
    const settings = (await readAlipaySettings(t.app.ctx.db, t.app.ctx.secrets))!;
    const params = signAsAlipay(paidNotify(outTradeNo, { total_amount: '12.34' }));
    const outcomes = await Promise.all([handleNotify(t.app.ctx.db, settings, params), handleNotify(t.app.ctx.db, settings, params)]);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(outcomes.filter((o) => o.ok && o.changed)).toHaveLength(1);
  });

  it('shows the order state on the return page without changing it', async () => {
    const { outTradeNo } = await pay('1');
    const params = signAsAlipay({ app_id: APP_ID, out_trade_no: outTradeNo, total_amount: '1.00', seller_id: SELLER, trade_no: '1', method: 'alipay.trade.page.pay.return', timestamp: '2026-11-24 10:00:00', charset: 'utf-8', version: '1.0' });
    const page = await t.app.inject({ method: 'GET', url: `/api/aliPay/return?${new URLSearchParams(params)}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('等待支付宝异步通知确认');
    expect((await order(outTradeNo)).state).toBe('WAITING');
    const forged = await t.app.inject({ method: 'GET', url: `/api/aliPay/return?${new URLSearchParams({ ...params, total_amount: '0.01' })}` });
    expect(forged.body).toContain('签名校验失败');
  });

  it('lists orders in fen-exact yuan, guards every route by ALIPAY_* codes and lets no answer or log hold a key', async () => {
    const list = await admin('GET', '/api/aliPay/orders', undefined, { query: { page: '0', size: '2' } });
    expect(list.statusCode).toBe(200);
    expect(list.json().content).toHaveLength(2);
    expect(list.json().totalElements).toBeGreaterThanOrEqual(5);
    const paid = (await admin('GET', '/api/aliPay/orders', undefined, { query: { state: 'PAID' } })).json();
    expect(paid.content.every((o: { state: string }) => o.state === 'PAID')).toBe(true);
    expect(paid.content.some((o: { totalAmount: string }) => o.totalAmount === '12.34')).toBe(true);

    const reader = await userWithCodes(t, ['ALIPAY_SELECT']);
    expect((await reader.call('GET', '/api/aliPay')).statusCode).toBe(200);
    expect((await reader.call('PUT', '/api/aliPay', config)).statusCode).toBe(403);
    expect((await reader.call('POST', '/api/aliPay/toPayAsPC', { subject: 's', totalAmount: '1', body: 'b' })).statusCode).toBe(403);
    const editor = await userWithCodes(t, ['ALIPAY_EDIT']);
    expect((await editor.call('GET', '/api/aliPay')).json().privateKey).toBe('******');
    expect((await editor.call('GET', '/api/aliPay/orders')).statusCode).toBe(403);
    const payer = await userWithCodes(t, ['ALIPAY_PAY']);
    expect((await payer.call('POST', '/api/aliPay/toPayAsWeb', { subject: 's', totalAmount: '1', body: 'b' })).statusCode).toBe(200);
    expect((await payer.call('GET', '/api/aliPay')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/aliPay' })).statusCode).toBe(401);

    const answers = [await admin('GET', '/api/aliPay'), await admin('GET', '/api/aliPay/orders'), await admin('GET', '/v3/api-docs')];
    for (const a of answers) {
      expect(a.body).not.toContain(PRIVATE_FRAGMENT);
      expect(a.body).not.toContain(PASTED_FRAGMENT);
    }
    const logs = JSON.stringify(await t.app.ctx.db.selectFrom('sys_log').selectAll().execute());
    expect(logs).toContain('修改支付宝配置');
    expect(logs).not.toContain(PRIVATE_FRAGMENT);
    expect(logs).not.toContain(PASTED_FRAGMENT);
    // the server's own log lines (requests, refused notifies) hold no key either
    expect(logLines.length).toBeGreaterThan(20);
    expect(logLines.some((l) => l.includes('alipay notify refused') && l.includes('"reason":"total_amount"'))).toBe(true);
    const printed = logLines.join('');
    expect(printed).not.toContain(PRIVATE_FRAGMENT);
    expect(printed).not.toContain(PASTED_FRAGMENT);
  });
});
