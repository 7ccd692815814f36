import crypto from 'node:crypto';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../src/core/db.ts';
import { readAlipaySettings } from '../src/modules/integrations/payment/settings.ts';
import { STAND_IN_PASS, STAND_IN_USER, type SmtpStandIn, startSmtpStandIn } from './email-fixtures.ts';
import { createTestApp, TEST_DB, type TestApp } from './helpers.ts';
import { type S3Standin, startS3rver } from './storageFixtures.ts';
import { adminCaller, type Caller, userWithCodes } from './system-fixtures.ts';

/**
 * A stored secret goes only where it was typed for (findings N1, N2). Whoever may edit a form could otherwise
 * point the stored data-source password, SMTP password, S3 SecretKey or Alipay private key at a server of their
 * own and read it there: every "attacker" server below is a loopback listener that records what it receives,
 * and must receive nothing unless the secret is typed again. Unchanged targets keep working with the mask.
 */

const PG_URL = new URL(process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const STORED_PW = `Stored-${crypto.randomBytes(6).toString('hex')}`;

let t: TestApp;
let admin: Caller;

/** A server speaking just enough PostgreSQL to ask for the password in clear (`R`, length 8, code 3) and keep it. */
interface Listener {
  port: number;
  connections: number;
  received: () => string;
  close: () => Promise<void>;
}
async function fakePostgres(): Promise<Listener> {
  const chunks: Buffer[] = [];
  const state = { connections: 0 };
  const server = net.createServer((socket) => {
    state.connections++;
    let askedForPassword = false;
    socket.on('data', (data) => {
      chunks.push(data);
      if (!askedForPassword) {
        askedForPassword = true;
        const ask = Buffer.alloc(9);
        ask.write('R', 0);
        ask.writeInt32BE(8, 1);
        ask.writeInt32BE(3, 5); // AuthenticationCleartextPassword
        socket.write(ask);
      } else socket.destroy();
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return state.connections;
    },
    received: () => Buffer.concat(chunks).toString('latin1'),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A plain-text SMTP server without STARTTLS that records every AUTH it is offered. */
async function recordingSmtp(): Promise<{ port: number; auths: { username: string; password: string }[]; connections: () => number; close: () => Promise<void> }> {
  const auths: { username: string; password: string }[] = [];
  let connections = 0;
  const server = new SMTPServer({
    secure: false,
    // no STARTTLS at all (hidden and refused), like a plain-text server or a man in the middle stripping it
    hideSTARTTLS: true,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onConnect(_session, cb) {
      connections++;
      cb();
    },
    onAuth(auth, _session, cb) {
      auths.push({ username: String(auth.username), password: String(auth.password) });
      cb(null, { user: auth.username });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { port: (server.server.address() as AddressInfo).port, auths, connections: () => connections, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

let fakePg: Listener;
let starttls: SmtpStandIn;
let s3: S3Standin;

beforeAll(async () => {
  [fakePg, starttls, s3] = await Promise.all([fakePostgres(), startSmtpStandIn('starttls'), startS3rver('bound-secret')]);
  // loopback targets need the allow-lists a deployment would set for an on-premises server
  const overrides = { dataSourceHostAllowlist: ['127.0.0.1'], smtpHostAllowlist: ['127.0.0.1', 'localhost'], storageEndpointAllowlist: ['127.0.0.1', 'localhost'], smtpTlsRejectUnauthorized: false };
  t = await createTestApp(overrides);
  admin = await adminCaller(t);
});
afterAll(async () => {
  await t?.close();
  await Promise.all([fakePg?.close(), starttls?.close(), s3?.close()]);
});

describe(`a stored data-source password stays with its target (N1, ${TEST_DB})`, () => {
  const realPg = () => ({
    type: 'sql',
    characterEncoding: 'UTF-8',
    dbKind: 'postgres',
    dataBaseSite: '127.0.0.1',
    dataBasePort: Number(PG_URL.port || 5432),
    // the local PostgreSQL trusts loopback, so the stored password is accepted whatever it is
    dataBaseUser: decodeURIComponent(PG_URL.username) || 'postgres',
    dataBaseName: decodeURIComponent(PG_URL.pathname.slice(1)) || 'test',
    query: 'SELECT 1 AS one',
  });
  let sourceId: number;

  beforeAll(async () => {
    const res = await admin('POST', '/dataOrigin/save', { ...realPg(), dataName: `绑定${crypto.randomBytes(3).toString('hex')}`, dataBasePassWord: STORED_PW });
    expect(res.statusCode, res.body).toBe(201);
    sourceId = res.json().id;
  });

  it('a test by id with another host, port, user or database and the mask is a 400; the other server gets nothing', async () => {
    const editor = await userWithCodes(t, ['DATASOURCE_EDIT']);
    const toFake = { id: sourceId, ...realPg(), dataBasePort: fakePg.port, dataBasePassWord: '******' };
    const res = await editor.call('POST', '/dataOrigin/testConnection', toFake);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'DATASOURCE_TARGET_CHANGED', message: '连接目标已更改（数据库类型、地址、端口、账号或数据库名称），请重新输入密码' });
    expect(Object.keys(res.json().fieldErrors)).toEqual(['dataBasePassWord', 'dataBasePort']);
    const en = await editor.call('POST', '/dataOrigin/testConnection', { ...toFake, dataBasePassWord: '' }, { headers: { authorization: `Bearer ${editor.token}`, 'accept-language': 'en' } });
    expect(en.json().message).toBe('The connection target changed (database type, host, port, user or database name): enter the password again');
    // each part of the target on its own, against the real server: the stored password is not reused
    for (const change of [{ dataBaseUser: 'someone_else' }, { dataBaseName: 'postgres' }, { dbKind: 'mysql' }, { dataBaseSite: 'localhost' }]) {
      const r = await editor.call('POST', '/dataOrigin/testConnection', { id: sourceId, ...realPg(), ...change, dataBasePassWord: '' });
      expect(r.statusCode, JSON.stringify(change)).toBe(400);
      expect(r.json().code).toBe('DATASOURCE_TARGET_CHANGED');
    }
    expect(fakePg.connections).toBe(0);
    expect(fakePg.received()).not.toContain(STORED_PW);
  });

  it('a test by id needs the edit right: the create right alone may only test what it types', async () => {
    const creator = await userWithCodes(t, ['DATASOURCE_CREATE']);
    const res = await creator.call('POST', '/dataOrigin/testConnection', { id: sourceId, ...realPg(), dataBasePort: fakePg.port, dataBasePassWord: '******' });
    expect(res.statusCode).toBe(403);
    // without an id a creator tests a connection with the password typed (the unchanged, real target here)
    const typed = await creator.call('POST', '/dataOrigin/testConnection', { ...realPg(), dataBasePassWord: 'typed-by-creator' });
    expect(typed.statusCode, typed.body).toBe(200);
    expect(fakePg.connections).toBe(0);
  });

  it('a save by id with a changed target and the mask keeps nothing: 400, the row unchanged', async () => {
    const before = await t.app.ctx.db.selectFrom('data_origin').selectAll().where('id', '=', sourceId).executeTakeFirstOrThrow();
    const res = await admin('POST', '/dataOrigin/save', { id: sourceId, ...realPg(), dataName: before.data_name, dataBasePort: fakePg.port, dataBasePassWord: '******' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('DATASOURCE_TARGET_CHANGED');
    const after = await t.app.ctx.db.selectFrom('data_origin').selectAll().where('id', '=', sourceId).executeTakeFirstOrThrow();
    expect(after.db_port).toEqual(before.db_port);
    expect(after.db_password_enc).toBe(before.db_password_enc);
    expect(fakePg.connections).toBe(0);
  });

  it('a password typed again goes to the new target (the listener is a real trap), never echoed back', async () => {
    const typed = `Typed-${crypto.randomBytes(4).toString('hex')}`;
    const res = await admin('POST', '/dataOrigin/testConnection', { id: sourceId, ...realPg(), dataBasePort: fakePg.port, dataBasePassWord: typed });
    expect(res.statusCode).toBe(400);
    // the trap hangs up after the password: no database answered, so the generic message (no peer bytes)
    expect(res.json().code).toBe('DATASOURCE_UNREACHABLE');
    expect(res.body).not.toContain(typed);
    expect(fakePg.received()).toContain(typed);
    expect(fakePg.received()).not.toContain(STORED_PW);
  });

  it('the unchanged target still works with the mask or a blank password, for a test and a save', async () => {
    const editor = await userWithCodes(t, ['DATASOURCE_EDIT']);
    for (const pw of ['******', '']) {
      const test = await editor.call('POST', '/dataOrigin/testConnection', { id: sourceId, ...realPg(), dataBaseSite: ' 127.0.0.1 ', dataBasePassWord: pw });
      expect(test.statusCode, test.body).toBe(200);
    }
    const row = await t.app.ctx.db.selectFrom('data_origin').selectAll().where('id', '=', sourceId).executeTakeFirstOrThrow();
    const save = await editor.call('POST', '/dataOrigin/save', { id: sourceId, ...realPg(), dataName: row.data_name, dataBasePassWord: '******' });
    expect(save.statusCode, save.body).toBe(200);
    const after = await t.app.ctx.db.selectFrom('data_origin').select('db_password_enc').where('id', '=', sourceId).executeTakeFirstOrThrow();
    expect(after.db_password_enc).toBe(row.db_password_enc);
  });

  it("driver messages are the driver's own: no substring of the password masked into them (N1 side note, M10)", async () => {
    const mysqlPort = Number(new URL(process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test').port || 3306);
    // a one-letter password used to garble the text ("Acc******ss d******ni******d") and confirm it was in there;
    // "YES" turned MariaDB's "(using password: YES)" into "(using password: ******)"
    for (const password of ['e', 'YES']) {
      const res = await admin('POST', '/dataOrigin/testConnection', { ...realPg(), dbKind: 'mysql', dataBasePort: mysqlPort, dataBaseUser: `nobody_${crypto.randomBytes(3).toString('hex')}`, dataBasePassWord: password });
      expect(res.statusCode).toBe(400);
      const message: string = res.json().message;
      // (MariaDB now and then answers an unknown user with ER_ACCESS_DENIED_NO_PASSWORD_ERROR, without the suffix)
      expect(message, password).toMatch(/^连接失败：ER_ACCESS_DENIED_\w+ Access denied for user /);
      if (message.includes('using password')) expect(message).toMatch(/\(using password: YES\)$/);
      expect(message).not.toContain('******');
    }
  });

  it('a MySQL source: another port with the mask never connects', async () => {
    const mysqlTrap = await fakePostgres(); // a MySQL client would wait for the greeting: counting connections is enough
    try {
      const id = await insertMysqlSource();
      const r = await admin('POST', '/dataOrigin/testConnection', { id, ...realPg(), dbKind: 'mysql', dataBaseSite: '127.0.0.1', dataBasePort: mysqlTrap.port, dataBaseUser: 'reader', dataBasePassWord: '******' });
      expect(r.statusCode).toBe(400);
      expect(r.json().code).toBe('DATASOURCE_TARGET_CHANGED');
      expect(mysqlTrap.connections).toBe(0);
    } finally {
      await mysqlTrap.close();
    }
  });
});

/** A MySQL source row as a save would have written it (reader@127.0.0.1:3306/test with the stored password). */
async function insertMysqlSource(): Promise<number> {
  const now = nowIso();
  const name = `绑定直插${crypto.randomBytes(3).toString('hex')}`;
  await t.app.ctx.db
    .insertInto('data_origin')
    .values({
      data_name: name,
      type: 'sql',
      character_encoding: 'UTF-8',
      db_kind: 'mysql',
      db_site: '127.0.0.1',
      db_port: 3306,
      db_user: 'reader',
      db_password_enc: t.app.ctx.secrets.seal(STORED_PW),
      db_name: 'test',
      query: 'SELECT 1',
      table_data: '[]',
      owner_id: 1,
      create_by: 'admin',
      create_time: now,
      update_time: now,
    } as never)
    .execute();
  const row = await t.app.ctx.db.selectFrom('data_origin').select('id').where('data_name', '=', name).executeTakeFirstOrThrow();
  return Number(row.id);
}

describe(`the stored SMTP password stays with its server and user (N2, ${TEST_DB})`, () => {
  const form = (over: Record<string, unknown> = {}) => ({ id: 1, fromUser: STAND_IN_USER, user: STAND_IN_USER, pass: '******', host: '127.0.0.1', port: starttls.port, sslEnable: false, ...over });
  let trap: Awaited<ReturnType<typeof recordingSmtp>>;

  beforeAll(async () => {
    trap = await recordingSmtp();
    const saved = await admin('PUT', '/api/email', form({ pass: STAND_IN_PASS }));
    expect(saved.statusCode, saved.body).toBe(204);
  });
  afterAll(async () => {
    await trap?.close();
  });

  it('the finding: another host, port or user with the mask is a 400 and the other server is offered no AUTH', async () => {
    const editor = await userWithCodes(t, ['EMAIL_EDIT']);
    for (const change of [{ host: 'localhost', port: trap.port }, { port: trap.port }, { user: 'mailer' }]) {
      for (const [method, url] of [
        ['POST', '/api/email/test'],
        ['PUT', '/api/email'],
      ] as const) {
        const res = await editor.call(method, url, form(change));
        expect(res.statusCode, `${url} ${JSON.stringify(change)} ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({ code: 'EMAIL_TARGET_CHANGED', message: '邮件服务器已更改（SMTP地址、端口或发件用户名），请重新输入密码' });
        expect(res.json().fieldErrors.pass).toBeDefined();
      }
    }
    expect(trap.connections()).toBe(0);
    expect(trap.auths).toEqual([]);
    const stored = await t.app.ctx.db.selectFrom('tool_email_config').selectAll().executeTakeFirstOrThrow();
    expect(Number(stored.port)).toBe(starttls.port);
  });

  it('without SSL, STARTTLS is required: a server without it never sees even a typed password in clear', async () => {
    const res = await admin('POST', '/api/email/test', form({ port: trap.port, pass: 'typed-for-the-trap' }));
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(trap.auths).toEqual([]);
  });

  it('the unchanged server still tests and saves with the mask (STARTTLS, the stored password)', async () => {
    const test = await admin('POST', '/api/email/test', form({ host: '127.0.0.1 ' }));
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json().message).toBe('连接成功');
    expect((await admin('PUT', '/api/email', form({ fromUser: 'payroll@example.com' }))).statusCode).toBe(204);
  });
});

describe(`the stored S3 SecretKey stays with its endpoint, bucket and AccessKey (${TEST_DB})`, () => {
  const SECRET = `s3-secret-${crypto.randomBytes(4).toString('hex')}`;
  const config = (over: Record<string, unknown> = {}) => ({
    provider: 's3',
    accessKey: 'S3RVER',
    secretKey: '******',
    bucket: s3.bucket,
    host: 'https://files.example.test',
    zone: '华东',
    type: '私有',
    endpoint: s3.endpoint,
    ...over,
  });
  let requests = 0;
  let trap: net.Server;
  let trapUrl: string;

  beforeAll(async () => {
    trap = net.createServer((socket) => {
      requests++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;
    const saved = await admin('PUT', '/api/qiNiuConfig', config({ secretKey: SECRET }));
    expect(saved.statusCode, saved.body).toBe(204);
  });
  afterAll(async () => {
    await admin('PUT', '/api/qiNiuConfig', { provider: 'local' });
    await new Promise((resolve) => trap.close(resolve));
  });

  it('another endpoint, bucket or AccessKey with the mask is refused before any request', async () => {
    for (const [change, field] of [
      [{ endpoint: trapUrl }, 'endpoint'],
      [{ bucket: 'another-bucket' }, 'bucket'],
      [{ accessKey: 'OTHER' }, 'accessKey'],
      [{ endpoint: '', zone: '华北' }, 'endpoint'],
    ] as const) {
      const res = await admin('PUT', '/api/qiNiuConfig', config(change));
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().code).toBe('STORAGE_TARGET_CHANGED');
      expect(Object.keys(res.json().fieldErrors)).toContain(field);
    }
    expect(requests).toBe(0);
    const cfg = await t.app.storage.readConfig();
    expect(cfg?.endpoint).toBe(s3.endpoint);
  });

  it('the unchanged target saves with the mask; a local save with another target forgets the key', async () => {
    expect((await admin('PUT', '/api/qiNiuConfig', config({ host: 'https://cdn.example.test' }))).statusCode).toBe(204);
    expect((await t.app.storage.readConfig())?.sealedSecretKey).toBeTruthy();
    expect((await admin('PUT', '/api/qiNiuConfig', config({ provider: 'local', endpoint: trapUrl }))).statusCode).toBe(204);
    expect((await t.app.storage.readConfig())?.sealedSecretKey).toBeFalsy();
    const back = await admin('PUT', '/api/qiNiuConfig', config());
    expect(back.statusCode).toBe(400);
    expect(requests).toBe(0);
  });
});

describe(`the stored Alipay private key stays with its app ID (${TEST_DB})`, () => {
  const pair = () => crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const appKeys = pair();
  const alipayKeys = pair();
  const pem = (k: crypto.KeyObject, type: 'pkcs8' | 'spki') => k.export({ type: type as 'pkcs8', format: 'pem' }).toString();
  const config = (over: Record<string, unknown> = {}) => ({
    appID: '9021000000000001',
    sysServiceProviderId: '2088000000000002',
    privateKey: '******',
    publicKey: '******',
    gateway: 'https://openapi-sandbox.dl.alipaydev.com/gateway.do',
    returnUrl: 'https://payroll.example.com/api/aliPay/return',
    notifyUrl: 'https://payroll.example.com/api/aliPay/notify',
    ...over,
  });

  it('another app ID needs the private key again; the same app ID keeps it', async () => {
    expect((await admin('PUT', '/api/aliPay', config({ privateKey: pem(appKeys.privateKey, 'pkcs8'), publicKey: pem(alipayKeys.publicKey, 'spki') }))).statusCode).toBe(204);
    const moved = await admin('PUT', '/api/aliPay', config({ appID: '9021000000000099' }));
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({ code: 'ALIPAY_TARGET_CHANGED', message: '应用ID已更改，请重新输入商户私钥' });
    expect((await readAlipaySettings(t.app.ctx.db, t.app.ctx.secrets))?.appId).toBe('9021000000000001');
    expect((await admin('PUT', '/api/aliPay', config({ returnUrl: 'https://payroll.example.com/paid' }))).statusCode).toBe(204);
    const typedAgain = await admin('PUT', '/api/aliPay', config({ appID: '9021000000000099', privateKey: pem(appKeys.privateKey, 'pkcs8') }));
    expect(typedAgain.statusCode, typedAgain.body).toBe(204);
    expect((await readAlipaySettings(t.app.ctx.db, t.app.ctx.secrets))?.privateKey).toBe(pem(appKeys.privateKey, 'pkcs8'));
  });
});
