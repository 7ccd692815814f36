import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, TEST_DB, type TestApp } from './helpers.ts';

/**
 * Security III item 2: testing a data source tells nobody what else listens at an address. A closed port, a
 * peer that resets, one that talks another protocol (a banner) and one that stays silent all read the same
 * DATASOURCE_UNREACHABLE, with none of the peer's bytes; a real database server's own refusal is still named.
 */

let t: TestApp;
let token = '';
const servers: net.Server[] = [];
const BANNER = 'INFO {"server_id":"NDBANNER7Q2X","version":"2.9.10"}';

async function listen(onConnection: (c: net.Socket) => void): Promise<number> {
  const server = net.createServer((c) => {
    c.on('error', () => undefined);
    onConnection(c);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return (server.address() as net.AddressInfo).port;
}

let closedPort = 0;
let bannerPort = 0;
let resetPort = 0;
let httpPort = 0;

beforeAll(async () => {
  bannerPort = await listen((c) => c.end(`${BANNER}\r\n`));
  resetPort = await listen((c) => c.resetAndDestroy());
  httpPort = await listen((c) => c.once('data', () => c.end('HTTP/1.1 400 Bad Request\r\nServer: internal-admin/7.1\r\n\r\n')));
  const spare = net.createServer();
  await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
  closedPort = (spare.address() as net.AddressInfo).port;
  await new Promise((resolve) => spare.close(resolve));
  t = await createTestApp({ dataSourceHostAllowlist: ['127.0.0.1'] });
  token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
});
afterAll(async () => {
  await t?.close();
  for (const s of servers) s.close();
});

const body = (dbKind: 'postgres' | 'mysql', port: number, extra: Record<string, unknown> = {}) => ({
  type: 'sql',
  dbKind,
  dataBaseSite: '127.0.0.1',
  dataBasePort: port,
  dataBaseUser: 'reader',
  dataBasePassWord: 'typed-password',
  dataBaseName: 'test',
  query: 'SELECT 1',
  ...extra,
});
const test = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/dataOrigin/testConnection', headers: bearer(token), payload });

describe(`data-source connection failures read the same (${TEST_DB})`, () => {
  for (const dbKind of ['postgres', 'mysql'] as const) {
    it(`${dbKind}: closed port, reset, banner and HTTP peers give one message without the peer's bytes`, async () => {
      const answers: string[] = [];
      for (const port of [closedPort, resetPort, bannerPort, httpPort]) {
        const res = await test(body(dbKind, port));
        expect(res.statusCode, `${port}`).toBe(400);
        expect(res.json().code, `${dbKind} ${port}: ${res.body}`).toBe('DATASOURCE_UNREACHABLE');
        expect(res.body).not.toContain('NDBANNER');
        expect(res.body).not.toContain('internal-admin');
        expect(res.body).not.toMatch(/ECONNREFUSED|ECONNRESET|socket|terminated/i);
        answers.push(res.json().message);
      }
      expect(new Set(answers).size).toBe(1);
    });
  }

  it('a real database server refusing the login is still named (the clerk can fix that)', async () => {
    const url = TEST_DB === 'mysql' ? process.env.TEST_MYSQL_URL : process.env.TEST_PG_URL;
    if (TEST_DB === 'sqlite' || !url) return; // no database server to ask on the SQLite run
    const port = Number(new URL(url).port) || (TEST_DB === 'mysql' ? 3306 : 5432);
    const res = await test(body(TEST_DB === 'mysql' ? 'mysql' : 'postgres', port, { dataBaseUser: 'nobody_here', dataBaseName: 'no_such_db_here' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('DATASOURCE_CONNECT_FAILED');
    expect(res.body).not.toContain('typed-password');
  });
});
