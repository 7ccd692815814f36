import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../src/core/db.ts';
import { multipart } from './storageFixtures.ts';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, TEST_DB, type TestApp } from './helpers.ts';
import { caller, type Caller } from './system-fixtures.ts';

/**
 * SSRF through the SMTP host and the S3 endpoint (findings N5, N6) against listeners on loopback only: without
 * SMTP_HOST_ALLOWLIST / STORAGE_ENDPOINT_ALLOWLIST a loopback target is refused before any connection (the
 * listener sees nothing), also for settings stored earlier; with the allow-lists, what a peer that is not an SMTP
 * or S3 server sends never appears in an answer, and refused, reset and wrong-protocol ports read the same.
 * Link-local and metadata addresses are judged in outbound-guard.test.ts, never contacted.
 */

interface Listener {
  port: number;
  /** Connections accepted so far. */
  connections: number;
  close(): Promise<void>;
}

async function listen(server: net.Server): Promise<Listener> {
  const sockets = new Set<net.Socket>();
  const close = () =>
    new Promise<void>((r) => {
      server.close(() => r());
      // a client's keep-alive connection would hold close() open
      for (const c of sockets) c.destroy();
    });
  const l: Listener = { port: 0, connections: 0, close };
  server.on('connection', (c: net.Socket) => {
    l.connections++;
    sockets.add(c);
    c.on('close', () => sockets.delete(c));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  l.port = (server.address() as AddressInfo).port;
  return l;
}

const BANNER = 'INFO {"server_id":"NDBANNER7Q2X","version":"2.9.10","max_payload":1048576}';
const XML_SECRET = 'internal-body-5e1d';

let plain: TestApp;
let listed: TestApp;
let plainToken = '';
let plainAdmin: Caller;
let listedAdmin: Caller;
let banner: Listener; // a NATS-like service: talks first, not SMTP, not HTTP
let reset: Listener; // accepts and resets
let s3Like: Listener; // HTTP with an S3 error body that carries internal text
let webPage: Listener; // some HTTP service answering 404 with a page
let closedPort = 0;

beforeAll(async () => {
  banner = await listen(
    net.createServer((c) => {
      c.on('error', () => undefined);
      c.end(`${BANNER}\r\n`);
    }),
  );
  reset = await listen(net.createServer((c) => c.resetAndDestroy()));
  s3Like = await listen(
    http.createServer((req, res) => {
      req.resume();
      res.writeHead(403, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>${XML_SECRET}</Message></Error>`);
    }),
  );
  webPage = await listen(
    http.createServer((req, res) => {
      req.resume();
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html>consul admin secret-page</html>');
    }),
  );
  const spare = await listen(net.createServer());
  closedPort = spare.port;
  await spare.close();
  plain = await createTestApp({ smtpTlsRejectUnauthorized: false });
  listed = await createTestApp({ smtpTlsRejectUnauthorized: false, smtpHostAllowlist: ['127.0.0.1'], storageEndpointAllowlist: ['127.0.0.0/8'] });
  plainToken = await login(plain.app, 'admin', DEV_ADMIN_PASSWORD);
  plainAdmin = caller(plain, plainToken);
  listedAdmin = caller(listed, await login(listed.app, 'admin', DEV_ADMIN_PASSWORD));
});
afterAll(async () => {
  await Promise.all([plain?.close(), listed?.close()]);
  await Promise.all([banner, reset, s3Like, webPage].map((l) => l?.close()));
});

const smtpForm = (host: string, port: number, sslEnable = false) => ({ id: 1, fromUser: 'payroll@example.com', user: 'mailer', pass: 'typed-password', host, port, sslEnable });
const storageForm = (endpoint: string) => ({
  provider: 's3',
  accessKey: 'AKIDEXAMPLE',
  secretKey: 'typed-secret',
  bucket: 'payroll',
  host: 'https://files.example.test',
  zone: '华东',
  type: '私有',
  endpoint,
});

describe(`outbound guard through the API (${TEST_DB})`, () => {
  it('refuses an SMTP host on loopback without SMTP_HOST_ALLOWLIST, before connecting, in every spelling', async () => {
    for (const host of ['127.0.0.1', 'localhost', '127.0.0.2']) {
      for (const [method, url] of [
        ['POST', '/api/email/test'],
        ['PUT', '/api/email'],
      ] as const) {
        const res = await plainAdmin(method, url, smtpForm(host, banner.port));
        expect(res.statusCode, `${method} ${host}`).toBe(400);
        expect(res.json().code, `${method} ${host}`).toBe('OUTBOUND_LOOPBACK_FORBIDDEN');
        expect(res.json().message).toContain('SMTP_HOST_ALLOWLIST');
      }
    }
    // numeric spellings of an address are not host names
    for (const host of ['2130706433', '0x7f000001', '0177.0.0.1', '127.1']) {
      const res = await plainAdmin('PUT', '/api/email', smtpForm(host, banner.port));
      expect(res.json().code, host).toBe('EMAIL_HOST_FORMAT');
    }
    expect(banner.connections).toBe(0);
  });

  it('refuses to send through SMTP settings stored before the guard, logging the refusal', async () => {
    const now = nowIso();
    await plain.app.ctx.db
      .insertInto('tool_email_config')
      .values({ id: 1, from_user: 'payroll@example.com', user_name: 'mailer', pass_sealed: plain.app.ctx.secrets.seal('stored'), host: '127.0.0.1', port: banner.port, ssl_enable: 0, create_time: now, update_time: now })
      .execute();
    const res = await plainAdmin('POST', '/api/email', { subject: '旧配置', tos: ['a@example.com'], content: '<p>x</p>' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('OUTBOUND_LOOPBACK_FORBIDDEN');
    const log = await plain.app.ctx.db.selectFrom('tool_email_log').select(['status', 'error']).where('subject', '=', '旧配置').executeTakeFirstOrThrow();
    expect(log.status).toBe('FAILED');
    expect(banner.connections).toBe(0);
  });

  it('never echoes what a non-SMTP peer sent: a banner, a reset and a closed port read the same', async () => {
    const answers = [];
    for (const port of [banner.port, reset.port, closedPort]) {
      for (const ssl of [false, true]) {
        const res = await listedAdmin('POST', '/api/email/test', smtpForm('127.0.0.1', port, ssl));
        expect(res.statusCode).toBe(502);
        expect(res.body).not.toMatch(/INFO|NDBANNER|server_id|2\.9\.10|ECONN|EPROTO|wrong version/);
        answers.push({ code: res.json().code, message: res.json().message.replace(String(port), '<port>') });
      }
    }
    expect(banner.connections).toBeGreaterThan(0);
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({ code: 'EMAIL_CONNECT_FAILED', message: '无法连接邮件服务器 127.0.0.1:<port>，请检查SMTP地址、端口和SSL设置（465端口一般勾选SSL，587/25端口一般不勾选）' });
  });

  it('refuses an S3 endpoint on loopback without STORAGE_ENDPOINT_ALLOWLIST, before connecting', async () => {
    for (const endpoint of [`http://127.0.0.1:${s3Like.port}`, `http://localhost:${s3Like.port}`, `http://2130706433:${s3Like.port}`, `http://[::ffff:127.0.0.1]:${s3Like.port}`, `http://[::1]:${s3Like.port}`]) {
      const res = await plainAdmin('PUT', '/api/qiNiuConfig', storageForm(endpoint));
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.json().code, endpoint).toBe('OUTBOUND_LOOPBACK_FORBIDDEN');
      expect(res.json().message).toContain('STORAGE_ENDPOINT_ALLOWLIST');
    }
    expect(s3Like.connections).toBe(0);
  });

  it('refuses every later S3 call of settings stored before the guard', async () => {
    await plain.app.ctx.db
      .insertInto('tool_storage_config')
      .values({ id: 1, provider: 's3', access_key: 'AKIDEXAMPLE', secret_key: plain.app.ctx.secrets.seal('stored'), bucket: 'payroll', host: 'https://files.example.test', zone: '华东', type: '私有', endpoint: `http://localhost:${s3Like.port}`, update_time: nowIso() })
      .execute();
    const body = multipart('a.txt', Buffer.from('hello'));
    const res = await plain.app.inject({ method: 'POST', url: '/api/qiNiuContent', headers: { ...bearer(plainToken), ...body.headers }, payload: body.payload });
    expect(res.json().code, res.body).toBe('OUTBOUND_LOOPBACK_FORBIDDEN');
    expect(s3Like.connections).toBe(0);
  });

  it('names a known S3 error code without the body, and reads refused, reset, not-HTTP and not-S3 the same', async () => {
    const known = await listedAdmin('PUT', '/api/qiNiuConfig', storageForm(`http://127.0.0.1:${s3Like.port}`));
    expect(known.statusCode).toBe(400);
    expect(known.json().message).toBe('存储配置测试失败：AccessDenied');
    expect(known.body).not.toContain(XML_SECRET);
    const answers = new Set<string>();
    for (const port of [banner.port, reset.port, closedPort, webPage.port]) {
      const res = await listedAdmin('PUT', '/api/qiNiuConfig', storageForm(`http://127.0.0.1:${port}`));
      expect(res.statusCode, String(port)).toBe(400);
      expect(res.body).not.toMatch(/INFO|NDBANNER|HPE_|ECONN|hang up|secret-page|consul|NotFound/);
      answers.add(JSON.stringify({ code: res.json().code, message: res.json().message }));
    }
    expect([...answers]).toEqual([JSON.stringify({ code: 'STORAGE_CONFIG_UNREACHABLE', message: '存储配置测试失败：无法连接对象存储服务，请检查服务地址、端口、存储区域和网络' })]);
    expect(webPage.connections).toBeGreaterThan(0);
  });
});
