/**
 * E-mail and Alipay tools over HTTP on SQLite, against loopback stand-ins (no targets in the spec; figures for
 * the README):
 * - sending one message to 50 recipients, and 50 separate messages (逐个发送) over one pooled STARTTLS connection;
 * - cleaning a 1 MB body with a 500 KB picture (sanitize-html + cid extraction);
 * - Alipay notifies: signature check + business checks + conditional update, first delivery and replays.
 * Run: node --import tsx bench/integrations.ts
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { openCache } from '../apps/server/src/core/cache.ts';
import { prepareMailBody } from '../apps/server/src/modules/integrations/email/content.ts';
import { seedDatabase } from '../apps/server/src/seed/index.ts';
import { STAND_IN_PASS, STAND_IN_USER, startSmtpStandIn } from '../apps/server/test/email-fixtures.ts';
import { openThrowawayDatabase } from '../apps/server/test/throwawayDatabase.ts';
import { benchConfig, benchKeys, signedAdminHeaders } from './_app.ts';

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

async function main() {
  const { database, drop } = await openThrowawayDatabase('sqlite', undefined);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'integrations-bench-'));
  // the SMTP stand-in's certificate is self-signed
  const config = benchConfig(dataDir, { dbUrl: 'bench', smtpTlsRejectUnauthorized: false });
  const keys = benchKeys();
  const app = await buildApp(config, { database, cache: await openCache(undefined, 'bench:'), keys });
  const smtp = await startSmtpStandIn('starttls');
  try {
    await seedDatabase(app.ctx.db, app.ctx.dialect, { adminPassword: undefined, production: false });
    const headers = await signedAdminHeaders(app, keys);
    const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => app.inject({ method, url, headers, payload: payload as never });

    await call('PUT', '/api/email', { fromUser: STAND_IN_USER, user: STAND_IN_USER, pass: STAND_IN_PASS, host: '127.0.0.1', port: smtp.port, sslEnable: false });
    const tos = Array.from({ length: 50 }, (_, i) => `staff${i}@example.com`);
    const content = `<p>${'工资条已发放，请查收。'.repeat(200)}</p>`;
    for (const separately of [false, true]) {
      const t0 = process.hrtime.bigint();
      const res = await call('POST', '/api/email', { subject: '基准测试', tos, content, separately });
      const took = ms(t0);
      if (res.statusCode !== 200) throw new Error(res.body);
      const messages = separately ? 50 : 1;
      console.log(`send to 50 recipients ${separately ? 'one by one (50 messages)' : 'in one message'}: ${took.toFixed(0)} ms (${((messages * 1000) / took).toFixed(1)} messages/s)`);
    }

    // a real 1x1 PNG padded to 500 KB after its end (the magic-byte check reads the chunks up to IDAT)
    const onePixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
    const png = Buffer.concat([onePixel, crypto.randomBytes(500 * 1024)]);
    const big = `${'<p>正文<b>加粗</b><script>x()</script><a href="javascript:1">x</a></p>'.repeat(12_000)}<img src="data:image/png;base64,${png.toString('base64')}">`;
    const t1 = process.hrtime.bigint();
    const prepared = await prepareMailBody(big);
    console.log(`clean a ${(big.length / 1e6).toFixed(1)} MB body with a 500 KB picture: ${ms(t1).toFixed(0)} ms (${prepared.images.length} cid attachment)`);

    // Alipay: app and "Alipay" key pairs, one order, then N notifies (the first pays, the rest are replays)
    const appPair = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const aliPair = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const put = await call('PUT', '/api/aliPay', {
      appID: '9021000000000001',
      sysServiceProviderId: '2088000000000002',
      privateKey: appPair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKey: aliPair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      returnUrl: 'https://example.com/r',
      notifyUrl: 'https://example.com/n',
    });
    if (put.statusCode !== 204) throw new Error(put.body);
    const t2 = process.hrtime.bigint();
    const PAYS = 200;
    let outTradeNo = '';
    for (let i = 0; i < PAYS; i++) outTradeNo = (await call('POST', '/api/aliPay/toPayAsPC', { subject: '测试', totalAmount: '0.01', body: '基准' })).json().outTradeNo;
    console.log(`toPayAsPC (order row + signed URL): ${((PAYS * 1000) / ms(t2)).toFixed(0)} per second`);
    const params: Record<string, string> = { app_id: '9021000000000001', out_trade_no: outTradeNo, total_amount: '0.01', seller_id: '2088000000000002', trade_status: 'TRADE_SUCCESS', trade_no: '1', notify_id: 'x' };
    const content2 = Object.keys(params)
      .sort()
      .map((k) => `${k}=${params[k]}`)
      .join('&');
    const signed = { ...params, sign_type: 'RSA2', sign: crypto.createSign('RSA-SHA256').update(content2).sign(aliPair.privateKey, 'base64') };
    const form = new URLSearchParams(signed).toString();
    const NOTIFIES = 500;
    const t3 = process.hrtime.bigint();
    for (let i = 0; i < NOTIFIES; i++) {
      const r = await app.inject({ method: 'POST', url: '/api/aliPay/notify', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form });
      if (r.body !== 'success') throw new Error(r.body);
    }
    console.log(`notify (verify + checks + conditional update; 1 payment, ${NOTIFIES - 1} replays): ${((NOTIFIES * 1000) / ms(t3)).toFixed(0)} per second`);
  } finally {
    await smtp.close();
    await app.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
