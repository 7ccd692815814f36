import type mysql from 'mysql2';
import type pg from 'pg';
import { AppError } from '../../../core/errors.ts';
import { onFirstUse } from '../../../core/onFirstUse.ts';
import { OUTBOUND_POLICIES, resolveOutbound } from '../../../core/net/outboundGuard.ts';
import { driverMessage, fromDatabaseServer } from './driverErrors.ts';
import { QueryRefused, readOnlyStatement } from './sqlGuard.ts';
import { type DataSourceReader, SQL_CONNECT_TIMEOUT_MS, SQL_ROW_CAP, type SqlKind } from './types.ts';

/**
 * Reading a client's MySQL/MariaDB or PostgreSQL database. The connection is built from fields (host, port,
 * user, password, database), never from a URL, so no driver option can be smuggled in. Every read:
 * - runs one checked SELECT (sqlGuard.ts) inside a read-only transaction, which the server enforces (MySQL
 *   `SET SESSION TRANSACTION READ ONLY` + `START TRANSACTION READ ONLY`, PostgreSQL `BEGIN READ ONLY`);
 * - has a statement timeout (`MAX_EXECUTION_TIME` / MariaDB `max_statement_time` / `statement_timeout`);
 * - streams: PostgreSQL through a server-side cursor fetched 1,000 rows at a time, MySQL through the driver's
 *   row stream, so 100,000 rows are never held at once;
 * - stops at a row cap, with a message rather than a silently truncated dataset.
 * mysql2 is told not to offer LOCAL INFILE, so a hostile server cannot ask for our files.
 */

export interface SqlConnectionFields {
  kind: SqlKind;
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

export interface SqlReadOptions {
  allowlist: readonly string[];
  timeoutMs: number;
  /** Stop quietly after this many rows (a preview). */
  limit?: number;
  /** Refuse more rows than this (a run). */
  cap?: number;
  signal?: AbortSignal;
}

const FETCH_ROWS = 1000;

/**
 * A driver failure as the user's message: its code and first line. The password is never part of it: neither
 * driver puts it into a message, and it is not searched for either, since masking a substring garbles the text
 * and tells whoever reads it that the masked letters are part of the password (finding N1).
 */
/**
 * A failed connection as the user's message. A database server's own answer (wrong password, unknown database)
 * is worth reading; anything short of one reads the same whatever the peer did (closed port, reset, timeout,
 * another protocol's banner), so the test button tells nobody what else listens at an address (item 2 of
 * Security III: no banner grabbing, no port scanning by message).
 */
function connectFailure(err: unknown): AppError {
  if (!fromDatabaseServer(err)) return new AppError('DATASOURCE_UNREACHABLE', {});
  return new AppError('DATASOURCE_CONNECT_FAILED', { detail: driverMessage(err) });
}

/** A failed read as the user's message: the error's class and text, the values it quotes cut (driverErrors.ts, N9). */
function readFailure(err: unknown): AppError {
  return new AppError('DATASOURCE_READ_FAILED', { detail: driverMessage(err) });
}

function checkedStatement(query: string, kind: SqlKind): string {
  try {
    return readOnlyStatement(query, kind);
  } catch (err) {
    if (err instanceof QueryRefused) throw new AppError('DATASOURCE_QUERY_REFUSED', { detail: err.message });
    throw err;
  }
}

/** The checked address the driver connects to (core/net/outboundGuard.ts; loopback only with DATASOURCE_HOST_ALLOWLIST). */
async function checkedHost(host: string, allowlist: readonly string[]): Promise<string> {
  return (await resolveOutbound(host, OUTBOUND_POLICIES.dataSource(allowlist)))[0].address;
}

/** Unique column names: a query may return two columns of one name (`a`, `a_2`). */
function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((n) => {
    const base = n || 'column';
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base}_${count}`;
  });
}

/** Driver values as plain JSON-able values: dates stay as the database's text, binary as UTF-8 text. */
function plainValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (typeof v === 'object') return JSON.stringify(v);
  return v;
}

/** Open a read of `query` on the source; the rows stream as the caller iterates. */
export async function openSqlRead(conn: SqlConnectionFields, query: string, opts: SqlReadOptions): Promise<DataSourceReader> {
  const statement = checkedStatement(query, conn.kind);
  const address = await checkedHost(conn.host, opts.allowlist);
  if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('aborted');
  return conn.kind === 'postgres' ? openPostgres(conn, address, statement, opts) : openMysql(conn, address, statement, opts);
}

/** Connect, run the query for one row and close: the test-connection action and the check before a save. */
export async function testSqlSource(conn: SqlConnectionFields, query: string, allowlist: readonly string[]): Promise<{ fields: string[] }> {
  const reader = await openSqlRead(conn, query, { allowlist, timeoutMs: 5000, limit: 1 });
  try {
    for await (const _row of reader.rows) break;
    return { fields: reader.fields };
  } finally {
    await reader.close();
  }
}

function capError(cap: number): AppError {
  return new AppError('DATASOURCE_ROW_CAP', { max: cap.toLocaleString('en-US') });
}

/** The client-database drivers, loaded with the first read of such a data source (most servers never read one). */
const pgDriver = onFirstUse<typeof pg>('pg');
const mysqlDriver = onFirstUse<typeof mysql>('mysql2');

// ---- PostgreSQL ------------------------------------------------------------------------------------------

/** Date and time types stay text (what the database shows), not JavaScript Dates in the server's zone. */
const PG_TEXT_TYPES = new Set([1082, 1083, 1114, 1184, 1266]);
const pgTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    PG_TEXT_TYPES.has(oid) ? (v: string) => v   : pgDriver().types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

async function openPostgres(conn: SqlConnectionFields, address: string, statement: string, opts: SqlReadOptions): Promise<DataSourceReader> {
  const client = new (pgDriver().Client)({
    host: address,
    port: conn.port,
    user: conn.user,
    password: conn.password,
    database: conn.database,
    connectionTimeoutMillis: SQL_CONNECT_TIMEOUT_MS,
    statement_timeout: opts.timeoutMs,
    application_name: 'payroll-datasource',
    types: pgTypes,
  });
  client.on('error', () => undefined); // a dropped connection surfaces through the pending query
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    opts.signal?.removeEventListener('abort', onAbort);
    await client.end().catch(() => undefined);
  };
  const onAbort = () => void close();
  try {
    await client.connect();
  } catch (err) {
    await close();
    throw connectFailure(err);
  }
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let first: pg.QueryResult<unknown[]>;
  try {
    await client.query('BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`SET LOCAL statement_timeout = ${Math.max(1000, Math.floor(opts.timeoutMs))}`);
    await client.query(`DECLARE payroll_read NO SCROLL CURSOR FOR ${statement}`);
    first = await client.query({ text: `FETCH FORWARD ${FETCH_ROWS} FROM payroll_read`, rowMode: 'array' });
  } catch (err) {
    await close();
    throw opts.signal?.aborted ? (opts.signal.reason ?? err) : readFailure(err);
  }
  const fields = uniqueNames(first.fields.map((f) => f.name));
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  const cap = opts.cap ?? SQL_ROW_CAP;
  async function* rows(): AsyncGenerator<Record<string, unknown>> {
    let batch = first;
    let count = 0;
    try {
      for (;;) {
        for (const r of batch.rows) {
          if (count >= limit) return;
          if (++count > cap) throw capError(cap);
          const row: Record<string, unknown> = {};
          for (let i = 0; i < fields.length; i++) row[fields[i]] = plainValue(r[i]);
          yield row;
        }
        if (batch.rows.length < FETCH_ROWS || count >= limit) return;
        if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('aborted');
        batch = await client.query({ text: `FETCH FORWARD ${FETCH_ROWS} FROM payroll_read`, rowMode: 'array' });
      }
    } catch (err) {
      if (err instanceof AppError || opts.signal?.aborted) throw opts.signal?.aborted ? (opts.signal.reason ?? err) : err;
      throw readFailure(err);
    } finally {
      await close();
    }
  }
  return { fields, rows: rows(), close };
}

// ---- MySQL / MariaDB --------------------------------------------------------------------------------------

function mysqlQuery(c: mysql.Connection, text: string): Promise<unknown> {
  return new Promise((resolve, reject) => c.query(text, (err, res) => (err ? reject(err) : resolve(res))));
}

async function openMysql(conn: SqlConnectionFields, address: string, statement: string, opts: SqlReadOptions): Promise<DataSourceReader> {
  const c = mysqlDriver().createConnection({
    host: address,
    port: conn.port,
    user: conn.user,
    password: conn.password,
    database: conn.database,
    connectTimeout: SQL_CONNECT_TIMEOUT_MS,
    flags: ['-LOCAL_FILES', '-MULTI_STATEMENTS'],
    multipleStatements: false,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    charset: 'utf8mb4',
  });
  c.on('error', () => undefined);
  let closed = false;
  let finished = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    opts.signal?.removeEventListener('abort', onAbort);
    // a stream stopped early still has rows on the wire: drop the connection instead of reading them all
    if (finished) await new Promise<void>((resolve) => c.end(() => resolve()));
    else c.destroy();
  };
  const onAbort = () => void close();
  let version = '';
  try {
    version = String(((await mysqlQuery(c, 'SELECT VERSION() AS v')) as { v: string }[])[0]?.v ?? '');
  } catch (err) {
    c.destroy();
    throw connectFailure(err);
  }
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const timeoutMs = Math.max(1000, Math.floor(opts.timeoutMs));
  try {
    await mysqlQuery(c, 'SET SESSION TRANSACTION READ ONLY');
    await mysqlQuery(
      c,
      /mariadb/i.test(version) ? `SET SESSION max_statement_time = ${(timeoutMs / 1000).toFixed(3)}` : `SET SESSION MAX_EXECUTION_TIME = ${timeoutMs}`,
    );
    await mysqlQuery(c, 'START TRANSACTION READ ONLY');
  } catch (err) {
    await close();
    throw readFailure(err);
  }
  const query = c.query({ sql: statement, rowsAsArray: true });
  // the stream listens before any row can arrive (the column list and the first rows may come in one packet);
  // its errors surface through the iteration below
  const stream = query.stream({ highWaterMark: FETCH_ROWS });
  stream.on('error', () => undefined);
  let fields: string[];
  try {
    fields = await new Promise<string[]>((resolve, reject) => {
      query.once('fields', (f: { name: string }[]) => resolve(uniqueNames((f ?? []).map((x) => x.name))));
      query.once('error', reject);
      query.once('end', () => resolve([]));
    });
  } catch (err) {
    await close();
    throw readFailure(err);
  }
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  const cap = opts.cap ?? SQL_ROW_CAP;
  async function* rows(): AsyncGenerator<Record<string, unknown>> {
    let count = 0;
    try {
      for await (const r of stream as AsyncIterable<unknown[]>) {
        if (count >= limit) return;
        if (++count > cap) throw capError(cap);
        const row: Record<string, unknown> = {};
        for (let i = 0; i < fields.length; i++) row[fields[i]] = plainValue(r[i]);
        yield row;
      }
      finished = true;
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (opts.signal?.aborted) throw opts.signal.reason ?? err;
      throw readFailure(err);
    } finally {
      await close();
    }
  }
  return { fields, rows: rows(), close };
}
