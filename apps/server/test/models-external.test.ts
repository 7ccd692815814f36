import crypto from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/core/errors.ts';
import { OUTBOUND_POLICIES, refusalOf } from '../src/core/net/outboundGuard.ts';
import { callExternalModel, type ExternalCall, type ExternalModelPolicy, parseSite } from '../src/modules/operations/models/external.ts';

/** The external-model contract against a real HTTP server on 127.0.0.1, allowed explicitly in the policy. */
let server: http.Server;
let base = '';
const SECRET = 'model-secret-1';
const seen: { signature?: string; body?: string; headers?: http.IncomingHttpHeaders } = {};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.body = body.toString('utf8');
      seen.headers = req.headers;
      const url = req.url ?? '';
      if (url.startsWith('/ok')) {
        const expected = `sha256=${crypto.createHmac('sha256', SECRET).update(body).digest('hex')}`;
        if (req.headers['x-signature'] !== expected) {
          res.writeHead(401).end('bad signature');
          return;
        }
        const input = JSON.parse(seen.body) as { rows: unknown[][] };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ files: [{ name: '外部结果', sheets: [{ name: '汇总', columns: ['行数'], rows: [[input.rows.length]] }] }], traits: [['甲', 2], ['乙', 1]] }));
      } else if (url.startsWith('/slow')) {
        setTimeout(() => res.writeHead(200).end('{"files":[]}'), 2000);
      } else if (url.startsWith('/big')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(Buffer.alloc(4096, 'x'));
      } else if (url.startsWith('/redirect')) {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      } else if (url.startsWith('/garbage')) {
        res.writeHead(200).end('<html>not json</html>');
      } else {
        res.writeHead(500).end('内部错误 stack at line 1');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

const policy: ExternalModelPolicy = { allowlist: ['127.0.0.1'], privateHosts: ['127.0.0.1'], timeoutMs: 500, maxBytes: 1024 };
const call = (path: string, extra: Partial<ExternalCall> = {}): ExternalCall => ({
  site: `${base}${path}`,
  fileType: 'python',
  secret: SECRET,
  modelName: '外部模型',
  parameters: { topN: 3 },
  property: '学历',
  columns: ['姓名', '学历'],
  rows: [
    ['张三', '本科'],
    ['李四', '大专'],
  ],
  taskId: '7',
  runId: 'r1',
  ...extra,
});
async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return (e as AppError).code;
  }
  return 'no error';
}

describe('external models', () => {
  it('posts a signed JSON body and reads the sheets and traits back', async () => {
    const result = await callExternalModel(call('/ok'), policy);
    expect(result.files).toEqual([{ name: '外部结果', sheet: { name: '汇总', columns: ['行数'], rows: [[2]] } }]);
    expect(result.traits).toEqual([
      ['甲', 2],
      ['乙', 1],
    ]);
    expect(JSON.parse(seen.body ?? '{}')).toMatchObject({ model: '外部模型', property: '学历', columns: ['姓名', '学历'] });
    expect(seen.headers?.['x-task-id']).toBe('7');
  });

  it('refuses a wrong signature answer (non-2xx), a timeout, an oversize answer, a redirect and garbage', async () => {
    expect(await codeOf(callExternalModel(call('/ok', { secret: 'other' }), policy))).toBe('MODEL_REMOTE_STATUS');
    expect(await codeOf(callExternalModel(call('/fail'), policy))).toBe('MODEL_REMOTE_STATUS');
    // the status, never the peer's body
    const failed = await callExternalModel(call('/fail'), policy).catch((e: AppError) => e);
    expect((failed as AppError).message).toBe('外部模型返回错误：HTTP 500');
    // a port that refuses and one that does not speak HTTP read the same
    const silent = await new Promise<net.Server>((r) => {
      const s = net.createServer((c) => c.end('-ERR unknown command\r\n'));
      s.listen(0, '127.0.0.1', () => r(s));
    });
    const notHttp = await callExternalModel(call('/ok', { site: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/ok` }), policy).catch((e: AppError) => e);
    const refused = await callExternalModel(call('/ok', { site: 'http://127.0.0.1:1/ok' }), policy).catch((e: AppError) => e);
    silent.close();
    expect((notHttp as AppError).message).toBe('无法连接外部模型，请检查接口地址和网络');
    expect((refused as AppError).message).toBe((notHttp as AppError).message);
    expect(await codeOf(callExternalModel(call('/slow'), policy))).toBe('MODEL_REMOTE_TIMEOUT');
    expect(await codeOf(callExternalModel(call('/big'), policy))).toBe('MODEL_REMOTE_TOO_LARGE');
    expect(await codeOf(callExternalModel(call('/redirect'), policy))).toBe('MODEL_REMOTE_REDIRECT');
    expect(await codeOf(callExternalModel(call('/garbage'), policy))).toBe('MODEL_REMOTE_BAD');
  });

  it('refuses a request larger than the limit before connecting', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => [`员工${i}`, '本科']);
    expect(await codeOf(callExternalModel(call('/ok', { rows }), policy))).toBe('MODEL_REQUEST_TOO_LARGE');
  });

  it('refuses hosts off the allow-list and private addresses not listed as private hosts', async () => {
    expect(await codeOf(callExternalModel(call('/ok'), { ...policy, allowlist: ['models.example.com'] }))).toBe('MODEL_SITE_FORBIDDEN');
    expect(await codeOf(callExternalModel(call('/ok'), { ...policy, privateHosts: [] }))).toBe('OUTBOUND_LOOPBACK_FORBIDDEN');
    // localhost resolves to a loopback address: refused even when its name is allowed
    expect(await codeOf(callExternalModel(call('/ok', { site: base.replace('127.0.0.1', 'localhost') + '/ok' }), { ...policy, allowlist: ['localhost'], privateHosts: [] }))).toBe(
      'OUTBOUND_LOOPBACK_FORBIDDEN',
    );
    expect(() => parseSite('file:///etc/passwd', policy)).toThrow(AppError);
    expect(() => parseSite(`http://user:pw@127.0.0.1/`, policy)).toThrow(AppError);
    // not listed: public addresses only; listed (MODEL_SITE_PRIVATE_HOSTS): private, loopback, link-local, never metadata
    const model = (listed: string[]) => OUTBOUND_POLICIES.model(listed);
    expect(refusalOf('10.1.2.3', 'lan.example', model([]))?.code).toBe('OUTBOUND_PRIVATE_FORBIDDEN');
    expect(refusalOf('::ffff:127.0.0.1', 'x.example', model([]))?.code).toBe('OUTBOUND_LOOPBACK_FORBIDDEN');
    expect(refusalOf('169.254.10.1', 'x.example', model([]))?.code).toBe('OUTBOUND_ADDRESS_FORBIDDEN');
    expect(refusalOf('8.8.8.8', 'dns.example', model([]))).toBeNull();
    expect(refusalOf('10.1.2.3', 'lan.example', model(['lan.example']))).toBeNull();
    expect(refusalOf('169.254.10.1', 'lan.example', model(['lan.example']))).toBeNull();
    expect(refusalOf('169.254.169.254', 'lan.example', model(['lan.example']))?.code).toBe('OUTBOUND_ADDRESS_FORBIDDEN');
  });
});
