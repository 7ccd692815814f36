import crypto from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCurrentUser } from '../src/core/auth/currentUser.ts';
import { openDataSource } from '../src/modules/operations/dataSources/read.ts';
import { OUTBOUND_POLICIES, resolveOutbound } from '../src/core/net/outboundGuard.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { adminToken } from './dispatch-fixtures.ts';

/**
 * SQL data sources on the real local MariaDB and PostgreSQL: a scratch table of our own (unique name, dropped
 * afterwards) read by a source whose connection is built from fields, with a database user that has a password,
 * so that the password's absence from every GET, the operation log and the error messages is checked for real.
 * Writes and multi-statements are refused before they reach the server; loopback needs the allow-list, and
 * link-local (cloud metadata) addresses are refused even then.
 */
const MYSQL_URL = new URL(process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test');
const PG_URL = new URL(process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const suffix = crypto.randomBytes(4).toString('hex');
const TABLE = `ds_scratch_${suffix}`;
const DB_USER = `ds_reader_${suffix}`;
const DB_PASSWORD = `Pw-${crypto.randomBytes(9).toString('base64url')}`;
const ROWS = 2500; // more than one PostgreSQL cursor fetch (1,000)

let t: TestApp;
let token: string;

type Kind = 'mysql' | 'postgres';
const servers: Record<Kind, { port: number; cleanup?: () => Promise<void>; ready: boolean }> = {
  mysql: { port: Number(MYSQL_URL.port || 3306), ready: false },
  postgres: { port: Number(PG_URL.port || 5432), ready: false },
};

async function prepareMysql() {
  const c = await mysql.createConnection({ host: MYSQL_URL.hostname, port: servers.mysql.port, user: decodeURIComponent(MYSQL_URL.username), password: decodeURIComponent(MYSQL_URL.password), database: 'test' });
  await c.query(`CREATE TABLE ${TABLE} (id INT PRIMARY KEY, name VARCHAR(50), salary DECIMAL(12,2), hired DATE) DEFAULT CHARSET=utf8mb4`);
  const values = Array.from({ length: ROWS }, (_, i) => [i + 1, `员工${i + 1}`, (i + 1) * 10 + 0.5, '2024-01-02']);
  await c.query(`INSERT INTO ${TABLE} VALUES ?`, [values]);
  await c.query(`CREATE USER '${DB_USER}'@'%' IDENTIFIED BY '${DB_PASSWORD}'`);
  await c.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON test.${TABLE} TO '${DB_USER}'@'%'`);
  servers.mysql.cleanup = async () => {
    await c.query(`DROP TABLE IF EXISTS ${TABLE}`);
    await c.query(`DROP USER IF EXISTS '${DB_USER}'@'%'`);
    await c.end();
  };
  servers.mysql.ready = true;
}

async function preparePostgres() {
  const c = new pg.Client({ host: PG_URL.hostname, port: servers.postgres.port, user: decodeURIComponent(PG_URL.username), password: decodeURIComponent(PG_URL.password), database: 'test' });
  await c.connect();
  await c.query(`CREATE TABLE public.${TABLE} (id INT PRIMARY KEY, name VARCHAR(50), salary NUMERIC(12,2), hired DATE)`);
  await c.query(`INSERT INTO public.${TABLE} SELECT g, '员工' || g, g * 10 + 0.5, DATE '2024-01-02' FROM generate_series(1, ${ROWS}) g`);
  await c.query(`CREATE SEQUENCE public.${TABLE}_seq`);
  await c.query(`CREATE ROLE ${DB_USER} LOGIN PASSWORD '${DB_PASSWORD}'`);
  await c.query(`GRANT USAGE, UPDATE ON SEQUENCE public.${TABLE}_seq TO ${DB_USER}`);
  // write rights on purpose: the read-only transaction, not the grant, must stop a write
  await c.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON public.${TABLE} TO ${DB_USER}`);
  servers.postgres.cleanup = async () => {
    await c.query(`DROP TABLE IF EXISTS public.${TABLE}`);
    await c.query(`DROP SEQUENCE IF EXISTS public.${TABLE}_seq`);
    await c.query(`DROP ROLE IF EXISTS ${DB_USER}`);
    await c.end();
  };
  servers.postgres.ready = true;
}

beforeAll(async () => {
  t = await createTestApp({ dataSourceHostAllowlist: ['127.0.0.1'] });
  token = await adminToken(t.app);
  await Promise.all([prepareMysql(), preparePostgres()]);
});
afterAll(async () => {
  for (const s of Object.values(servers)) await s.cleanup?.().catch(() => undefined);
  await t?.close();
});

const sqlBody = (kind: Kind, query: string, extra: Record<string, unknown> = {}) => ({
  dataName: `SQL源${kind}${crypto.randomBytes(3).toString('hex')}`,
  type: 'sql',
  characterEncoding: 'UTF-8',
  dbKind: kind,
  dataBaseSite: '127.0.0.1',
  dataBasePort: servers[kind].port,
  dataBaseUser: DB_USER,
  dataBasePassWord: DB_PASSWORD,
  dataBaseName: 'test',
  query,
  ...extra,
});
const post = (url: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

describe.each(['mysql', 'postgres'] as const)('SQL data source on %s', (kind) => {
  it('reads rows of a SELECT through a streamed, read-only connection built from fields', async () => {
    const res = await post('/dataOrigin/save', sqlBody(kind, `SELECT id, name, salary, hired FROM ${TABLE} ORDER BY id`));
    expect(res.statusCode, res.body).toBe(201);
    const saved = res.json();
    expect(saved.tableData.map((f: { fieldName: string }) => f.fieldName)).toEqual(['id', 'name', 'salary', 'hired']);
    const d = (await get(`/dataOrigin/details?id=${saved.id}`)).json();
    expect(d.pvError).toBeUndefined();
    expect(d.pvData).toHaveLength(10);
    expect(d.pvData[0]).toEqual({ id: 1, name: '员工1', salary: '10.50', hired: '2024-01-02' });
    // every row, streamed
    const owner = { ...(await loadCurrentUser(t.app.ctx.db, 1))!, tokenJti: 'x', tokenExp: 0 };
    const src = await openDataSource(t.app, saved.id, owner);
    let count = 0;
    let last: Record<string, unknown> | undefined;
    for await (const row of src.rows) {
      count++;
      last = row;
    }
    await src.close();
    expect(count).toBe(ROWS);
    expect(last).toEqual({ id: ROWS, name: `员工${ROWS}`, salary: `${ROWS * 10}.50`, hired: '2024-01-02' });
    // a table name reads the whole table
    expect((await post('/dataOrigin/save', sqlBody(kind, TABLE))).statusCode).toBe(201);
  });

  it('refuses INSERT, UPDATE, multi-statement and locking queries before they run, and the server refuses writes anyway', async () => {
    for (const q of [`INSERT INTO ${TABLE} VALUES (9999, 'x', 1, NULL)`, `UPDATE ${TABLE} SET name = 'x'`, `SELECT 1; DELETE FROM ${TABLE}`, `SELECT * FROM ${TABLE} FOR UPDATE`, `DELETE FROM ${TABLE}`]) {
      for (const url of ['/dataOrigin/save', '/dataOrigin/testConnection']) {
        const res = await post(url, sqlBody(kind, q));
        expect(res.statusCode, `${url} ${q}`).toBe(400);
        expect(res.json().code).toBe('DATASOURCE_QUERY_REFUSED');
      }
    }
    // the second guard: every read runs in a read-only transaction, which the server itself enforces (MariaDB's name)
    const ro = (await post('/dataOrigin/save', sqlBody(kind, kind === 'mysql' ? 'SELECT @@tx_read_only AS ro' : "SELECT current_setting('transaction_read_only') AS ro"))).json();
    expect((await get(`/dataOrigin/details?id=${ro.id}`)).json().pvData).toEqual([{ ro: kind === 'mysql' ? '1' : 'on' }]);
    if (kind === 'postgres') {
      // a SELECT that writes (a sequence step) passes the word check but not the server
      const res = await post('/dataOrigin/testConnection', sqlBody(kind, `SELECT nextval('${TABLE}_seq')`));
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('read-only transaction');
    }
    const c = await (kind === 'mysql'
      ? mysql.createConnection({ host: '127.0.0.1', port: servers.mysql.port, user: DB_USER, password: DB_PASSWORD, database: 'test' }).then(async (m) => {
          const [rows] = await m.query(`SELECT COUNT(*) AS n FROM ${TABLE}`);
          await m.end();
          return Number((rows as { n: number }[])[0].n);
        })
      : (async () => {
          const p = new pg.Client({ host: '127.0.0.1', port: servers.postgres.port, user: DB_USER, password: DB_PASSWORD, database: 'test' });
          await p.connect();
          const r = await p.query(`SELECT COUNT(*)::int AS n FROM public.${TABLE}`);
          await p.end();
          return r.rows[0].n as number;
        })());
    expect(c).toBe(ROWS);
  });

  it('never shows the password: not in a GET, not in the operation log, not in an error; a blank password keeps the stored one', async () => {
    const saved = (await post('/dataOrigin/save', sqlBody(kind, `SELECT id FROM ${TABLE}`))).json();
    for (const url of ['/dataOrigin/getDataOriginList?pageNumber=1&pageSize=999', `/dataOrigin/details?id=${saved.id}`, `/dataOrigin/getModelById?id=${saved.id}`]) {
      const body = (await get(url)).body;
      expect(body, url).not.toContain(DB_PASSWORD);
    }
    expect((await get(`/dataOrigin/details?id=${saved.id}`)).json().dataBasePassWord).toBe('******');
    // update without the password (blank or the mask) keeps it: the source still connects
    for (const pw of ['', '******']) {
      const upd = await post('/dataOrigin/save', { ...sqlBody(kind, `SELECT id FROM ${TABLE}`), id: saved.id, dataName: saved.dataName, dataBasePassWord: pw });
      expect(upd.statusCode, upd.body).toBe(200);
    }
    // a wrong password: the message names the failure, not the password
    // (an unknown user: the local PostgreSQL trusts loopback connections, so a wrong password alone would pass)
    const wrong = await post('/dataOrigin/testConnection', { ...sqlBody(kind, `SELECT 1`), dataBaseUser: `${DB_USER}_nobody`, dataBasePassWord: `${DB_PASSWORD}-wrong` });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/^连接失败：/);
    expect(wrong.body).not.toContain(DB_PASSWORD);
    const stored = await t.app.ctx.db.selectFrom('data_origin').select('db_password_enc').where('id', '=', saved.id).executeTakeFirstOrThrow();
    expect(String(stored.db_password_enc)).not.toContain(DB_PASSWORD);
    const logs = await t.app.ctx.db.selectFrom('sys_log').select(['params', 'exception_detail']).execute();
    expect(JSON.stringify(logs)).not.toContain(DB_PASSWORD);
  });

  it('refuses link-local and metadata addresses always, loopback without the allow-list', async () => {
    for (const host of ['169.254.169.254', '100.100.100.200', '0.0.0.0', '[fe80::1]']) {
      const res = await post('/dataOrigin/testConnection', { ...sqlBody(kind, 'SELECT 1'), dataBaseSite: host });
      expect(res.statusCode, host).toBe(400);
      expect(res.json().code).toBe('OUTBOUND_ADDRESS_FORBIDDEN');
    }
    const resolveAllowedHost = async (host: string, allowlist: string[]) => (await resolveOutbound(host, OUTBOUND_POLICIES.dataSource(allowlist)))[0].address;
    // without the allow-list (the default), loopback in any spelling is refused
    for (const host of ['127.0.0.1', 'localhost', '127.1', '2130706433', '[::1]']) {
      await expect(resolveAllowedHost(host, []), host).rejects.toThrow('不允许连接本机地址');
    }
    await expect(resolveAllowedHost('127.0.0.1', ['127.0.0.0/8'])).resolves.toBe('127.0.0.1');
    await expect(resolveAllowedHost('169.254.169.254', ['169.254.0.0/16'])).rejects.toThrow('链路本地');
  });

  it('feeds a model task: a distribution of the SQL rows, run by the scheduler, written as a workbook (issue 11)', async () => {
    const saved = (await post('/dataOrigin/save', sqlBody(kind, `SELECT id, CASE WHEN id <= 1000 THEN '甲' ELSE '乙' END AS grp, salary FROM ${TABLE}`))).json();
    const models = (await get('/ModelManageMent/getModelList?pageNumber=1&pageSize=999&statu=1')).json().content as { id: number; site: string }[];
    const distribution = models.find((m) => m.site === 'builtin:distribution')!;
    const jobName = `SQL分布${kind}`;
    const created = await post('/taskManagement/jobs', { jobName, modelInfo: { id: distribution.id }, dataId: saved.id, cronTime: '0 0 3 * * ?', params: { properties: 'grp' } });
    expect(created.statusCode, created.body).toBe(201);
    await t.app.inject({ method: 'PUT', url: `/taskManagement/jobs/exec/${created.json().id}`, headers: bearer(token) });
    let log: { isSuccess: boolean; exceptionDetail: string | null; rowsIn: number } | undefined;
    for (let i = 0; i < 200 && !log; i++) {
      log = (await get(`/taskManagement/jobLogs?jobName=${encodeURIComponent(jobName)}`)).json().content[0];
      if (!log) await new Promise((r) => setTimeout(r, 50));
    }
    expect(log?.exceptionDetail ?? null).toBeNull();
    expect(log).toMatchObject({ isSuccess: true, rowsIn: ROWS });
    const groups = (await get('/dataManagement/modelDataList?pageNumber=1&pageSize=50&modelName=xls_single')).json().content as { taskName: string; files: { id: number }[] }[];
    const file = groups.find((g) => g.taskName === jobName)!.files[0];
    const preview = (await get(`/dataManagement/customsDataDetails?id=${file.id}`)).json() as { columns: string[]; rows: unknown[][] };
    // 1,000 rows in 甲 and 1,500 in 乙, largest first: 60 % then 40 %, cumulated 60 % and 100 %
    expect(preview.rows.slice(0, 2)).toEqual([
      ['乙', 1500, 60, 60],
      ['甲', 1000, 40, 100],
    ]);
  });
});
