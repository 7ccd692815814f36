/**
 * Data-source readers: time and memory to stream 100,000 rows (BENCH_ROWS) through each kind of source, as a
 * model task reads them. Memory must stay flat: the readers stream, so peak RSS should not grow with the rows.
 *
 *   node --import tsx bench/datasources.ts
 *
 * 1. a GBK CSV of staff-like rows (decoded and parsed incrementally from 64 KB chunks);
 * 2. PostgreSQL (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/test): generate_series through the
 *    server-side cursor, in the read-only transaction;
 * 3. MariaDB (BENCH_MYSQL_URL, default mysql://root@127.0.0.1:3306/test): the seq_1_to_N sequence table through
 *    the mysql2 row stream.
 * A database that does not answer is skipped with a line saying so.
 */
import { Readable } from 'node:stream';
import iconv from 'iconv-lite';
import { openCsvRead } from '../apps/server/src/modules/operations/dataSources/fileSource.ts';
import { openSqlRead } from '../apps/server/src/modules/operations/dataSources/sqlSource.ts';
import type { DataSourceReader } from '../apps/server/src/modules/operations/dataSources/types.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const MiB = 1024 * 1024;

async function measure(name: string, open: () => Promise<DataSourceReader>): Promise<void> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  const cpu = process.cpuUsage();
  try {
    const reader = await open();
    let n = 0;
    for await (const _row of reader.rows) n++;
    await reader.close();
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    peak = Math.max(peak, process.memoryUsage().rss);
    console.log(
      `${name.padEnd(28)} ${String(n).padStart(8)} rows  ${(ms / 1000).toFixed(2)} s wall  ${((used.user + used.system) / 1e6).toFixed(2)} s CPU  ${Math.round(n / (ms / 1000)).toLocaleString('en-US')} rows/s  peak RSS +${((peak - before) / MiB).toFixed(1)} MB`,
    );
  } catch (err) {
    console.log(`${name.padEnd(28)} skipped: ${(err as Error).message}`);
  } finally {
    clearInterval(timer);
  }
}

function csvChunks(): Buffer[] {
  const lines = ['所属单位,姓名,身份证号,户籍类型,基本工资,入职日期'];
  for (let i = 0; i < ROWS; i++) lines.push(`测试单位${i % 50},王伟${i},110101199001${String(i).padStart(6, '0')},${['本城', '本农', '外城', '外农'][i % 4]},${5000 + (i % 5000)}.50,2024-03-01`);
  const buf = iconv.encode(lines.join('\r\n'), 'gbk');
  const chunks: Buffer[] = [];
  for (let at = 0; at < buf.length; at += 64 * 1024) chunks.push(buf.subarray(at, at + 64 * 1024));
  console.log(`GBK CSV: ${(buf.length / MiB).toFixed(1)} MB`);
  return chunks;
}

const pgUrl = new URL(process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const myUrl = new URL(process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test');
const conn = (u: URL, kind: 'mysql' | 'postgres') => ({
  kind,
  host: u.hostname,
  port: Number(u.port || (kind === 'postgres' ? 5432 : 3306)),
  user: decodeURIComponent(u.username),
  password: decodeURIComponent(u.password),
  database: u.pathname.slice(1) || 'test',
});
const sqlOpts = { allowlist: ['127.0.0.1', 'localhost'], timeoutMs: 60_000 };

const chunks = csvChunks();
await measure('csv (GBK)', () => openCsvRead(Readable.from(chunks), 'GBK'));
await measure('sql postgres (cursor)', () => openSqlRead(conn(pgUrl, 'postgres'), `SELECT g AS id, '员工' || g AS name, g * 10 + 0.5 AS salary FROM generate_series(1, ${ROWS}) g`, sqlOpts));
await measure('sql mariadb (row stream)', () => openSqlRead(conn(myUrl, 'mysql'), `SELECT seq AS id, CONCAT('员工', seq) AS name, seq * 10 + 0.5 AS salary FROM seq_1_to_${ROWS}`, sqlOpts));
