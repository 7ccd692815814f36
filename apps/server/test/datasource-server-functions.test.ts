import crypto from 'node:crypto';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverMessage, withoutQuotedValues } from '../src/modules/operations/dataSources/driverErrors.ts';
import { QueryRefused, readOnlyStatement } from '../src/modules/operations/dataSources/sqlGuard.ts';
import { createTestApp, TEST_DB, type TestApp } from './helpers.ts';
import { adminCaller, type Caller } from './system-fixtures.ts';

/**
 * SQL data sources read rows, not the database server (finding N9). With a privileged account a read-only
 * transaction still lets `pg_read_file`, `lo_export`, `dblink` or MySQL `LOAD_FILE` reach the host's files and
 * network, so those calls are refused by the guard before anything connects; and a value a query forces into a
 * driver error (`cast(… as int)`) is cut from the message, which otherwise carried the data out.
 */

const refusedText = (query: string, kind: 'mysql' | 'postgres') => {
  try {
    readOnlyStatement(query, kind);
    return null;
  } catch (err) {
    if (err instanceof QueryRefused) return err.message;
    throw err;
  }
};

describe('the guard refuses server-side functions however they are spelled', () => {
  const postgres = [
    "select pg_read_file('/etc/passwd', 0, 60)",
    "SELECT PG_READ_FILE('/etc/passwd')",
    "select cast(pg_read_file('/etc/passwd',0,60) as int)",
    "select pg_catalog.pg_read_file('/etc/passwd')",
    'select "pg_read_file"(\'/etc/passwd\')',
    'select "pg_catalog"."pg_read_file"(\'/etc/passwd\')',
    "select pg_read_file /* hidden */ ('/etc/passwd')",
    "select pg_read_file -- hidden\n ('/etc/passwd')",
    "select pg_read_binary_file('/etc/passwd')",
    "select * from pg_ls_dir('.')",
    "select pg_stat_file('postgresql.conf')",
    "select lo_import('/etc/passwd')",
    "select lo_export(1, '/tmp/x')",
    "select * from dblink('host=10.0.0.1', 'select 1') as t(x int)",
    "select dblink_connect('x')",
    'select pg_sleep(60)',
    "select set_config('search_path', 'x', false)",
    "select current_setting('data_directory')",
    "select current_setting('hba_file')",
    "select current_setting(name) from (values ('config_file')) v(name)",
    "select query_to_xml('delete from staff', true, false, '')",
    "select ts_stat('select 1')",
    'select pg_terminate_backend(1)',
    'select pg_advisory_lock(1)',
    'select passwd from pg_shadow',
    'select rolpassword from pg_catalog.pg_authid',
    'select * from pg_hba_file_rules',
    `select U&"pg_rea!0064_file" UESCAPE '!'('/etc/passwd')`,
    "with t as (select 1) select pg_read_file('/etc/passwd') from t",
  ];
  const mysql = [
    "SELECT LOAD_FILE('/etc/passwd')",
    "select load_file /* x */ ('/etc/passwd')",
    "select `load_file`('/etc/passwd')",
    'select sys_exec(\'id\')',
    "select sys_eval('id')",
    'select sleep(60)',
    "select benchmark(100000000, md5('x'))",
    "select get_lock('x', 10)",
    'select user, password from mysql.user',
    'select * from `mysql`.`global_priv`',
    "select 1 /*M!100000 , load_file('/etc/passwd') */",
    "select 1 /*!50000 , load_file('/etc/passwd') */",
    // MySQL reads `--1` as two minus signs and a number, not a comment: what follows on the line runs
    "select 1 --1, load_file('/etc/passwd')",
  ];

  it.each(postgres)('PostgreSQL refuses %s', (q) => {
    expect(refusedText(q, 'postgres')).toBeTruthy();
  });
  it.each(mysql)('MySQL refuses %s', (q) => {
    expect(refusedText(q, 'mysql')).toBeTruthy();
  });

  it('names the function in the message', () => {
    expect(refusedText("select pg_catalog.PG_READ_FILE ('/etc/passwd')", 'postgres')).toBe('查询语句不能调用 pg_read_file：数据源只读取数据行，不能读取数据库服务器的文件、访问网络或执行管理操作');
  });

  it('still reads ordinary queries: aggregates, coalesce, date_trunc, look-alike names, names in strings', () => {
    const fine: [string, 'mysql' | 'postgres'][] = [
      ["select date_trunc('month', hired) as m, coalesce(dept, '无') as d, sum(salary) as s, count(*) from staff group by 1, 2", 'postgres'],
      ["select current_setting('transaction_read_only') as ro", 'postgres'],
      ["select current_setting('TimeZone', true)", 'postgres'],
      ['select lo_price, sys_user.name, sleep_hours from sys_user', 'postgres'],
      ["select 'pg_read_file(1)' as note, 'LOAD_FILE(x)' as other", 'postgres'],
      ['select "pg_read_file" from t', 'postgres'],
      ['select coalesce(a, 0), sum(b), date_format(c, \'%Y-%m\') from t group by 1', 'mysql'],
      ['select 1--1', 'mysql'],
      ['select mysql_name from t', 'mysql'],
    ];
    for (const [q, kind] of fine) expect(refusedText(q, kind), q).toBeNull();
  });
});

describe('driver errors carry no quoted values', () => {
  it('cuts PostgreSQL and MySQL values, keeps the class and the generic text', () => {
    expect(driverMessage(Object.assign(new Error('invalid input syntax for type integer: "root:x:0:0:root:/root:/bin/bash"'), { code: '22P02' }))).toBe('22P02 invalid input syntax for type integer: "…"');
    expect(driverMessage(Object.assign(new Error("Truncated incorrect DOUBLE value: 'root:x:0:0'"), { code: 'ER_TRUNCATED_WRONG_VALUE' }))).toBe("ER_TRUNCATED_WRONG_VALUE Truncated incorrect DOUBLE value: '…'");
    // a value with quotes of its own, or over several lines, goes as a whole
    expect(withoutQuotedValues('invalid input syntax for type integer: "a"b"c\nsecond line"')).toBe('invalid input syntax for type integer: "…"');
    expect(withoutQuotedValues('value "x\nroot:x:0:0')).toBe('value "…"');
    expect(driverMessage(Object.assign(new Error("Can't connect to MySQL server on '10.0.0.1' (111)"), { code: 'ER_CONN' }))).toBe("ER_CONN Can't connect to MySQL server on '…' (111)");
    expect(driverMessage(new Error('division by zero'))).toBe('division by zero');
  });
});

// ---- against the real PostgreSQL and MariaDB on loopback ------------------------------------------------------

const PG_URL = new URL(process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const MYSQL_URL = new URL(process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test');
let t: TestApp;
let admin: Caller;
let trap: net.Server;
let trapPort: number;
let trapConnections = 0;

beforeAll(async () => {
  trap = net.createServer((socket) => {
    trapConnections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  trapPort = (trap.address() as AddressInfo).port;
  t = await createTestApp({ dataSourceHostAllowlist: ['127.0.0.1'] });
  admin = await adminCaller(t);
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => trap.close(resolve));
});

// the tests' accounts are superusers (postgres, root): exactly the privileged account the finding warns about
const source = (kind: 'mysql' | 'postgres', query: string, over: Record<string, unknown> = {}) => {
  const url = kind === 'postgres' ? PG_URL : MYSQL_URL;
  return {
    dataName: `N9${kind}${crypto.randomBytes(3).toString('hex')}`,
    type: 'sql',
    characterEncoding: 'UTF-8',
    dbKind: kind,
    dataBaseSite: '127.0.0.1',
    dataBasePort: Number(url.port || (kind === 'postgres' ? 5432 : 3306)),
    dataBaseUser: decodeURIComponent(url.username) || (kind === 'postgres' ? 'postgres' : 'root'),
    // (the local PostgreSQL trusts loopback; the local MariaDB root has no password)
    dataBasePassWord: decodeURIComponent(url.password),
    dataBaseName: 'test',
    query,
    ...over,
  };
};

describe(`the finding on a real server (app on ${TEST_DB})`, () => {
  it('PostgreSQL: pg_read_file is refused before anything connects, for a test and a save', async () => {
    for (const query of ["select pg_read_file('/etc/hostname', 0, 15)", "select cast(pg_read_file('/etc/passwd',0,60) as int)"]) {
      for (const url of ['/dataOrigin/testConnection', '/dataOrigin/save']) {
        const res = await admin('POST', url, source('postgres', query));
        expect(res.statusCode, `${url} ${query}`).toBe(400);
        expect(res.json().code).toBe('DATASOURCE_QUERY_REFUSED');
        expect(res.json().message).toContain('pg_read_file');
      }
      // pointed at a listener instead of the database: refused without a connection
      const trapped = await admin('POST', '/dataOrigin/testConnection', source('postgres', query, { dataBasePort: trapPort }));
      expect(trapped.json().code).toBe('DATASOURCE_QUERY_REFUSED');
    }
    expect(trapConnections).toBe(0);
  });

  it('MariaDB: LOAD_FILE is refused before anything connects', async () => {
    for (const query of ["SELECT LOAD_FILE('/etc/passwd') AS f", "select `load_file` /* x */ ('/etc/passwd')"]) {
      const res = await admin('POST', '/dataOrigin/testConnection', source('mysql', query));
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('DATASOURCE_QUERY_REFUSED');
      const trapped = await admin('POST', '/dataOrigin/testConnection', source('mysql', query, { dataBasePort: trapPort }));
      expect(trapped.json().code).toBe('DATASOURCE_QUERY_REFUSED');
    }
    expect(trapConnections).toBe(0);
  });

  it('a value forced into a PostgreSQL error is not returned: the class and the generic text are', async () => {
    const secret = `root:x:0:0:${crypto.randomBytes(4).toString('hex')}`;
    const res = await admin('POST', '/dataOrigin/testConnection', source('postgres', `select cast(v as int) from (values ('${secret}')) t(v)`));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('读取数据源失败：22P02 invalid input syntax for type integer: "…"');
    expect(res.body).not.toContain(secret);
  });

  it('a value forced into a MariaDB error is not returned either', async () => {
    const secret = `root-${crypto.randomBytes(4).toString('hex')}`;
    // the classic error-based read: UPDATEXML quotes the XPath it could not parse (MariaDB takes constants only)
    const res = await admin('POST', '/dataOrigin/testConnection', source('mysql', `select updatexml(1, concat(0x7e, '${secret}'), 1) as x`));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("读取数据源失败：ER_UNKNOWN_ERROR XPATH syntax error: '…'");
    expect(res.body).not.toContain(secret);
  });

  it('ordinary functions still work: sum, coalesce, date_trunc on PostgreSQL; sum, coalesce on MariaDB', async () => {
    const pgRes = await admin(
      'POST',
      '/dataOrigin/testConnection',
      source('postgres', "select date_trunc('month', d)::date as m, coalesce(n, 0) as n, sum(x) as s from (values (date '2024-03-15', null::int, 2), (date '2024-03-20', 1, 3)) v(d, n, x) group by 1, 2 order by 2"),
    );
    expect(pgRes.statusCode, pgRes.body).toBe(200);
    expect(pgRes.json().fields).toEqual(['m', 'n', 's']);
    const saved = await admin('POST', '/dataOrigin/save', source('postgres', "select date_trunc('month', date '2024-03-15')::date as m, coalesce(null, 7) as c, current_setting('transaction_read_only') as ro"));
    expect(saved.statusCode, saved.body).toBe(201);
    const details = (await admin('GET', `/dataOrigin/details?id=${saved.json().id}`)).json();
    expect(details.pvData).toEqual([{ m: '2024-03-01', c: 7, ro: 'on' }]);
    const my = await admin('POST', '/dataOrigin/testConnection', source('mysql', 'select coalesce(null, 1) as c, sum(x) as s from (select 1 as x union all select 2) t'));
    expect(my.statusCode, my.body).toBe(200);
    expect(my.json().fields).toEqual(['c', 's']);
  });
});
