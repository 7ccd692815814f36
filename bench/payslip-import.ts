/**
 * Payslip import at scale (finding S4: 200,000 rows took RSS 185 -> 1,970 MB and no other request was answered
 * for 8-22 s). Prints figures, asserts nothing:
 *   node --import tsx bench/payslip-import.ts          200,000 rows on a SQLite file database
 *   BENCH_ROWS=20000 ...                                a smaller run
 *
 * Writes a payslip .xlsx of BENCH_ROWS rows (12 columns), imports it over app.inject while a plain GET is sent
 * every 20 ms, and prints: time, rows per second, peak RSS growth (sampled every 5 ms) and the slowest GET
 * (targets: RSS growth well under the file's row count in KB, slowest GET < 200 ms on an idle machine).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { idCardCheckDigit } from '@app/shared/idcard';
import { buildApp } from '../apps/server/src/app.ts';
import { streamXlsx } from '../apps/server/src/core/excel/xlsxStream.ts';
import { seedDatabase } from '../apps/server/src/seed/index.ts';
import { benchConfig, loginAdmin } from './_app.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 200_000);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

function personId(n: number): string {
  const first17 = `110101${1950 + Math.floor(n / 1000) % 60}0101${String(n % 1000).padStart(3, '0')}`;
  return first17 + idCardCheckDigit(first17);
}

async function payslipFile(): Promise<Buffer> {
  const headers = ['月份', '姓名', '身份证号', '基础工资', '加班费', '扣款（税前）', '本期应发', '养老(8%)', '医疗(2%+3)', '失业(0.5%)', '公积金(12%)', '实发'];
  function* rows() {
    for (let i = 0; i < ROWS; i++) {
      const month = `2026-${String(1 + Math.floor(i / 60_000)).padStart(2, '0')}`;
      yield [month, `员工${i}`, personId(i % 60_000), 8000, 500, 100, 8400, 640, 163, 40, 960, 6597];
    }
  }
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await streamXlsx(out, {
    fileName: 'payslips',
    columns: headers.map((h, i) => ({ header: h, kind: i < 3 ? 'text' : 'money', value: (r: unknown[]) => r[i] })),
    rows: rows(),
  });
  return Buffer.concat(chunks);
}

function multipart(file: Buffer) {
  const boundary = '----bench';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="payslips.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`);
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]) };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-payslip-'));
const app = await buildApp(benchConfig(dir));
await seedDatabase(app.ctx.db, app.ctx.dialect, { adminPassword: undefined, production: false });
await app.ready();
const { token } = await loginAdmin(app);

const file = await payslipFile();
console.log(`payslip file: ${ROWS.toLocaleString('en')} rows, ${mb(file.length)} MB`);
const mp = multipart(file);
global.gc?.();
const rssBefore = process.memoryUsage().rss;
let rssPeak = rssBefore;
const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 5);
const gets: number[] = [];
let uploading = true;
const t0 = performance.now();
const upload = app
  .inject({ method: 'POST', url: '/api/import/acPayslip', headers: { ...mp.headers, authorization: `Bearer ${token}` }, payload: mp.payload })
  .finally(() => (uploading = false));
const pinger = (async () => {
  while (uploading) {
    const g0 = performance.now();
    await app.inject({ method: 'GET', url: '/auth/publicKey' });
    gets.push(performance.now() - g0);
    await new Promise((r) => setTimeout(r, 20));
  }
})();
const res = await upload;
const seconds = (performance.now() - t0) / 1000;
await pinger;
clearInterval(sampler);
const body = res.json();
console.log(`import: ${res.statusCode} inserted ${body.inserted ?? '-'} in ${seconds.toFixed(1)} s (${Math.round(ROWS / seconds).toLocaleString('en')} rows/s)${res.statusCode !== 200 ? ` ${body.message}` : ''}`);
console.log(`peak RSS growth: ${mb(rssPeak - rssBefore)} MB (before ${mb(rssBefore)} MB)`);
gets.sort((a, b) => a - b);
console.log(`other requests during the import: ${gets.length} GETs, median ${gets[Math.floor(gets.length / 2)]?.toFixed(0)} ms, slowest ${gets.at(-1)?.toFixed(0)} ms (target < 200 ms idle)`);
await app.close();
fs.rmSync(dir, { recursive: true, force: true });
