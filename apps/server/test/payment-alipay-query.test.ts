import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beijingTimestamp } from '../src/modules/integrations/payment/query.ts';
import { createTestApp, TEST_DB, type TestApp } from './helpers.ts';
import { adminCaller, type Caller, userWithCodes } from './system-fixtures.ts';

/**
 * Finding M9: Alipay reads the request timestamp as Beijing time whatever the server's zone, and a lost
 * notify is recovered by alipay.trade.query. The gateway is a local stand-in that checks the request's
 * signature with the application's public key and signs its answers with "Alipay's" private key.
 */

const pair = () => crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const appKeys = pair();
const alipayKeys = pair();
const pem = (k: crypto.KeyObject, type: 'pkcs8' | 'spki') => k.export({ type: type as 'pkcs8', format: 'pem' }).toString();
const APP_ID = '9021000000000011';
const SELLER = '2088000000000012';
const config = {
  appID: APP_ID,
  sysServiceProviderId: SELLER,
  privateKey: pem(appKeys.privateKey, 'pkcs8'),
  publicKey: pem(alipayKeys.publicKey, 'spki'),
  gateway: 'https://openapi-sandbox.dl.alipaydev.com/gateway.do',
  returnUrl: 'https://payroll.example.com/api/aliPay/return',
  notifyUrl: 'https://payroll.example.com/api/aliPay/notify',
};

/** What the stand-in gateway answers for the next query, by out_trade_no. */
const answers = new Map<string, { body: Record<string, string>; badSign?: boolean }>();
const requests: Record<string, string>[] = [];
let gateway: http.Server;
let t: TestApp;
let admin: Caller;

function signedContent(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((k) => k !== 'sign' && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

/** Beijing wall-clock time of `ms` computed without any time-zone API, for comparison. */
function beijingOf(ms: number): number {
  return ms + 8 * 3600_000;
}
const parseWallClock = (s: string) => Date.parse(`${s.replace(' ', 'T')}Z`);

beforeAll(async () => {
  gateway = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const params = { ...Object.fromEntries(new URL(req.url ?? '/', 'http://x').searchParams), ...Object.fromEntries(new URLSearchParams(raw)) };
      requests.push(params);
      const verified = crypto.createVerify('RSA-SHA256').update(signedContent(params), 'utf8').verify(appKeys.publicKey, params.sign ?? '', 'base64');
      const outTradeNo = JSON.parse(params.biz_content ?? '{}').out_trade_no as string;
      const answer = answers.get(outTradeNo);
      const body = !verified
        ? { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: '验签出错' }
        : (answer?.body ?? { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_NOT_EXIST', sub_msg: '交易不存在' });
      const json = JSON.stringify(body);
      const sign = crypto
        .createSign('RSA-SHA256')
        .update(answer?.badSign ? `${json} ` : json, 'utf8')
        .sign(alipayKeys.privateKey, 'base64');
      res.setHeader('content-type', 'application/json;charset=utf-8');
      res.end(`{"alipay_trade_query_response":${json},"sign":"${sign}"}`);
    });
  });
  await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
  t = await createTestApp();
  admin = await adminCaller(t);
  expect((await admin('PUT', '/api/aliPay', config)).statusCode).toBe(204);
  // the settings screen accepts only https gateways; the stand-in is plain http on loopback, so it is set in the table
  await t.app.ctx.db
    .updateTable('tool_alipay_config')
    .set({ gateway: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/gateway.do` })
    .execute();
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => gateway?.close(r));
});

async function pay(amount: string) {
  const res = await admin('POST', '/api/aliPay/toPayAsPC', { subject: '查单测试', totalAmount: amount, body: '连通性测试' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { url: string; outTradeNo: string };
}
const order = (outTradeNo: string) => t.app.ctx.db.selectFrom('tool_alipay_order').selectAll().where('out_trade_no', '=', outTradeNo).executeTakeFirstOrThrow();
const query = (outTradeNo: string, who: Caller = admin) => who('POST', `/api/aliPay/orders/${outTradeNo}/query`);

describe(`Alipay times and the query fallback (${TEST_DB})`, () => {
  it('formats the request timestamp in Beijing time whatever the host zone', async () => {
    expect(beijingTimestamp(new Date('2026-11-26T20:30:05Z'))).toBe('2026-11-27 04:30:05');
    expect(beijingTimestamp(new Date('2026-12-31T16:00:00Z'))).toBe('2027-01-01 00:00:00');
    const saved = process.env.TZ;
    try {
      // Node re-reads TZ when it is assigned: the SDK's own formatting would follow it
      for (const zone of ['UTC', 'America/Los_Angeles', 'Asia/Shanghai']) {
        process.env.TZ = zone;
        const before = Date.now();
        const { url } = await pay('1.00');
        const stamp = new URL(url).searchParams.get('timestamp') ?? '';
        expect(stamp, zone).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
        const at = parseWallClock(stamp);
        expect(at, zone).toBeGreaterThanOrEqual(beijingOf(before) - 1000);
        expect(at, zone).toBeLessThanOrEqual(beijingOf(Date.now()) + 1000);
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('records a payment whose notify never came, once, from a signed alipay.trade.query answer', async () => {
    const { outTradeNo } = await pay('12.34');
    // not paid yet: Alipay does not know the trade, the order stays waiting
    const unknown = await query(outTradeNo);
    expect(unknown.statusCode, unknown.body).toBe(200);
    expect(unknown.json()).toEqual({ outTradeNo, tradeStatus: 'NOT_EXIST', changed: false, state: 'WAITING' });
    const sent = requests.at(-1)!;
    expect(sent).toMatchObject({ method: 'alipay.trade.query', app_id: APP_ID });
    expect(Math.abs(parseWallClock(sent.timestamp) - beijingOf(Date.now()))).toBeLessThan(5000);

    answers.set(outTradeNo, {
      body: { code: '10000', msg: 'Success', out_trade_no: outTradeNo, trade_no: '2026112622001400000000000009', trade_status: 'TRADE_SUCCESS', total_amount: '12.34', buyer_user_id: '2088102177846880', send_pay_date: '2026-11-26 09:15:02' },
    });
    const paid = await query(outTradeNo);
    expect(paid.json()).toEqual({ outTradeNo, tradeStatus: 'TRADE_SUCCESS', changed: true, state: 'PAID' });
    expect(await order(outTradeNo)).toMatchObject({ state: 'PAID', trade_no: '2026112622001400000000000009', buyer_id: '2088102177846880', paid_time: '2026-11-26 09:15:02' });
    expect((await query(outTradeNo)).json()).toMatchObject({ changed: false, state: 'PAID' });
  });

  it('refuses an answer with another amount or a bad signature, and leaves the order waiting', async () => {
    const { outTradeNo } = await pay('5.00');
    answers.set(outTradeNo, { body: { code: '10000', msg: 'Success', out_trade_no: outTradeNo, trade_status: 'TRADE_SUCCESS', total_amount: '0.01', trade_no: 'x' } });
    const wrongAmount = await query(outTradeNo);
    expect(wrongAmount.statusCode).toBe(502);
    expect(wrongAmount.json()).toMatchObject({ code: 'ALIPAY_QUERY_FAILED', message: '向支付宝查询订单失败：应答的金额与订单不符' });
    answers.set(outTradeNo, { body: { code: '10000', msg: 'Success', out_trade_no: outTradeNo, trade_status: 'TRADE_SUCCESS', total_amount: '5.00', trade_no: 'x' }, badSign: true });
    const forged = await query(outTradeNo);
    expect(forged.statusCode).toBe(502);
    expect(forged.json().message).toBe('向支付宝查询订单失败：应答签名校验失败');
    expect((await order(outTradeNo)).state).toBe('WAITING');

    answers.set(outTradeNo, { body: { code: '10000', msg: 'Success', out_trade_no: outTradeNo, trade_status: 'TRADE_CLOSED', total_amount: '5.00' } });
    expect((await query(outTradeNo)).json()).toMatchObject({ tradeStatus: 'TRADE_CLOSED', changed: true, state: 'CLOSED' });
  });

  it('answers 404 for an unknown order and guards the query by ALIPAY_PAY', async () => {
    const missing = await query('20260101000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('ALIPAY_ORDER_NOT_FOUND');
    const { outTradeNo } = await pay('1.00');
    const reader = await userWithCodes(t, ['ALIPAY_SELECT']);
    expect((await query(outTradeNo, reader.call)).statusCode).toBe(403);
    const payer = await userWithCodes(t, ['ALIPAY_PAY']);
    expect((await query(outTradeNo, payer.call)).statusCode).toBe(200);
  });
});
