/**
 * Models and model data at scale (issue 11 benchmark). Prints figures, asserts nothing:
 *   node --import tsx bench/models.ts
 *   BENCH_ROWS=100000 BENCH_ZIP_MB=200 ...      the defaults
 *
 * 1. A distribution task (单特征分布（单例）, by 学历, with the per-company workbook) over BENCH_ROWS staff rows
 *    read through a custom data source (the staff roster with the task owner's scope, keyset pages) on a SQLite
 *    file database, run through the scheduler's pipeline: wall time, the run log's time and rows/s (target <= 10 s
 *    for 100,000 rows).
 * 2. all.zip of BENCH_ZIP_MB of model outputs (incompressible stored files, 5 MB each) over real HTTP, the body
 *    read to the end by the client in the same process: MB/s and the peak RSS growth sampled every 5 ms (target:
 *    flat, far below the zip's size).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buildApp } from '../apps/server/src/app.ts';
import { seedDatabase } from '../apps/server/src/seed/index.ts';
import { benchConfig, loginAdmin } from './_app.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const ZIP_MB = Number(process.env.BENCH_ZIP_MB ?? 200);
const FILE_MB = 5;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-models-'));
const app = await buildApp(benchConfig(dir, { cachePrefix: 'bench-models:' }));
await seedDatabase(app.ctx.db, app.ctx.dialect, { adminPassword: undefined, production: false });
await app.ready();
const { headers: auth } = await loginAdmin(app);
const db = app.ctx.db;
const now = new Date().toISOString();

// ---- 1. distribution over the staff roster ------------------------------------------------------------

const companies = ['甲劳务派遣有限公司', '乙人力资源有限公司', '丙企业管理有限公司', '丁外包服务有限公司', '戊科技有限公司'];
for (const name of companies) await db.insertInto('accounts_company').values({ company_name: name, create_time: now, update_time: now } as never).execute();
const companyRows = await db.selectFrom('accounts_company').select(['id', 'company_name']).orderBy('id').execute();
const educations = ['本科', '大专', '硕士', '高中', '中专', '博士', '初中', ''];
const t0 = performance.now();
await db.transaction().execute(async (trx) => {
  const batch: Record<string, unknown>[] = [];
  for (let i = 0; i < ROWS; i++) {
    const c = companyRows[i % companyRows.length];
    batch.push({
      staff_name: `员工${i}`,
      education: educations[(i * 7) % educations.length] || null,
      company_id: c.id,
      company_name: c.company_name,
      id_card: `1101${String(i).padStart(14, '0')}`,
      create_time: now,
      update_time: now,
    });
    if (batch.length === 500 || i === ROWS - 1) {
      await trx
        .insertInto('accounts_staff')
        .values(batch.splice(0) as never)
        .execute();
    }
  }
});
console.log(`seeded ${ROWS.toLocaleString('en')} staff rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const custom = await app.inject({
  method: 'POST',
  url: '/customDatasource/create',
  headers: auth,
  payload: { name: '花名册', dataset: 'accountsStaff', characterEncoding: 'UTF-8', tableData: [{ fieldName: '姓名', field: 'staffName' }, { fieldName: '学历', field: 'education' }, { fieldName: 'companyName', field: 'companyName' }] },
});
if (custom.statusCode !== 201) throw new Error(`custom source: ${custom.body}`);
const source = await app.inject({ method: 'POST', url: '/dataOrigin/save', headers: auth, payload: { dataName: '员工花名册', type: 'custom', characterEncoding: 'UTF-8', customDatabase: custom.json().id } });
if (source.statusCode !== 201) throw new Error(`data source: ${source.body}`);
const models = (await app.inject({ method: 'GET', url: '/ModelManageMent/getModelList?pageNumber=1&pageSize=999&statu=1', headers: auth })).json().content as { id: number; site: string }[];
const distribution = models.find((m) => m.site === 'builtin:distribution');
const task = await app.inject({
  method: 'POST',
  url: '/taskManagement/jobs',
  headers: auth,
  payload: { jobName: '学历分布', modelInfo: { id: distribution?.id }, dataId: source.json().id, cronTime: '0 0 2 * * ?', params: { properties: '学历', topN: 10 } },
});
if (task.statusCode !== 201) throw new Error(`task: ${task.body}`);
const taskId = task.json().id as number;

const r0 = performance.now();
await app.inject({ method: 'PUT', url: `/taskManagement/jobs/exec/${taskId}`, headers: auth });
type LogRow = { isSuccess: boolean; time: number; rowsIn: number; exceptionDetail: string | null; summary: string };
let log: LogRow | undefined;
while (!log) {
  await new Promise((r) => setTimeout(r, 20));
  log = (await app.inject({ method: 'GET', url: '/taskManagement/jobLogs?size=1', headers: auth })).json().content[0];
}
const wall = (performance.now() - r0) / 1000;
if (!log.isSuccess) throw new Error(`run failed: ${log.exceptionDetail}`);
console.log(
  `distribution over ${log.rowsIn.toLocaleString('en')} rows (custom source, SQLite): run ${(log.time / 1000).toFixed(2)} s, wall ${wall.toFixed(2)} s, ${Math.round(log.rowsIn / (log.time / 1000)).toLocaleString('en')} rows/s (target <= 10 s) — ${log.summary}`,
);

// ---- 2. all.zip of ~ZIP_MB MB of outputs --------------------------------------------------------------

const store = await app.storage.active();
const files = Math.max(1, Math.round(ZIP_MB / FILE_MB));
const group = `导出基准_${Date.now()}`;
for (let i = 0; i < files; i++) {
  // random bytes: xlsx is already deflated, so the zip stores entries as they are and the bytes must all flow
  const body = Readable.from(
    (function* () {
      for (let k = 0; k < FILE_MB; k++) yield crypto.randomBytes(1024 * 1024);
    })(),
  );
  const key = app.storage.newKey('modelOutput', '.xlsx');
  const stored = await store.put(key, body, { contentType: 'application/octet-stream' });
  await db
    .insertInto('model_output')
    .values({
      task_id: taskId,
      task_name: '导出基准',
      output_kind: 'xls',
      model_title: '基准',
      group_name: group,
      file_name: `输出${String(i + 1).padStart(3, '0')}.xlsx`,
      storage_key: stored.key,
      rows_out: 0,
      bytes: FILE_MB * 1024 * 1024,
      owner_dept_id: null,
      create_time: now,
    } as never)
    .execute();
}
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
global.gc?.();
const rssBefore = process.memoryUsage().rss;
let rssPeak = rssBefore;
const sampler = setInterval(() => {
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
}, 5);
const z0 = performance.now();
const received = await new Promise<number>((resolve, reject) => {
  const payload = JSON.stringify({ groupName: group });
  const req = http.request(
    { host: '127.0.0.1', port, path: '/dataManagement/outPutData', method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
    (res) => {
      if (res.statusCode !== 200) reject(new Error(`all.zip: ${res.statusCode}`));
      let n = 0;
      res.on('data', (c: Buffer) => {
        n += c.length;
      });
      res.on('end', () => resolve(n));
      res.on('error', reject);
    },
  );
  req.on('error', reject);
  req.end(payload);
});
const zipSeconds = (performance.now() - z0) / 1000;
clearInterval(sampler);
console.log(
  `all.zip: ${files} files, ${mb(received)} MB in ${zipSeconds.toFixed(1)} s (${(received / 1024 / 1024 / zipSeconds).toFixed(0)} MB/s), peak RSS growth ${mb(rssPeak - rssBefore)} MB (before ${mb(rssBefore)} MB; server and client in one process)`,
);
await app.close();
fs.rmSync(dir, { recursive: true, force: true });
