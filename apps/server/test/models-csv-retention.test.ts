import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkbook } from '../src/core/excel/readWorkbook.ts';
import { multipart } from './dispatch-fixtures.ts';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, TEST_DB, type TestApp } from './helpers.ts';

/**
 * A model task over a GBK-encoded CSV created through the data-source API (upload + save), run by the scheduler,
 * producing a cross-tab workbook whose cells are checked; then the seeded 模型数据清理 system job removing the
 * groups older than its retention (rows and stored files), keeping the newer ones.
 */
let t: TestApp;
let token = '';
const H = () => bearer(token);

async function waitFor<T>(fn: () => Promise<T | undefined | null | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function readStored(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await (await t.app.storage.active()).get(key)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

// 镕 is GBK but not GB2312: a reader that decoded as UTF-8 or GB2312 would change the category names
const CSV = [
  '单位名称,学历,月薪',
  '镕达劳务,本科,5000.50',
  '镕达劳务,本科,4999.50',
  '镕达劳务,大专,3000',
  '"华东派遣,二部",本科,6000.01',
  '"华东派遣,二部",硕士,8000',
  '"华东派遣,二部",大专,',
].join('\r\n');

beforeAll(async () => {
  t = await createTestApp();
  token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

describe(`model task over a GBK CSV, model-data retention (${TEST_DB})`, () => {
  let groupName = '';

  it('uploads a GBK CSV as a data source, runs a cross-tab task over it and writes the exact cells', async () => {
    const mp = multipart(iconv.encode(CSV, 'gbk'), '工资样本.csv');
    const up = await t.app.inject({ method: 'POST', url: '/algorithm/dataOrigin/uploadFile', headers: { ...H(), ...mp.headers }, payload: mp.payload });
    expect(up.statusCode, up.body).toBe(200);
    const saved = await t.app.inject({ method: 'POST', url: '/dataOrigin/save', headers: H(), payload: { dataName: '工资样本GBK', type: 'csv', characterEncoding: 'GBK', url: up.json().path } });
    expect(saved.statusCode, saved.body).toBe(201);
    const dataId = saved.json().id as number;
    expect(saved.json().rowCount).toBe(6);

    const models = (await t.app.inject({ method: 'GET', url: '/ModelManageMent/getModelList?pageNumber=1&pageSize=999&statu=1', headers: H() })).json().content as { id: number; site: string }[];
    const crosstab = models.find((m) => m.site === 'builtin:crosstab')!;
    const post = (body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/taskManagement/jobs', headers: H(), payload: body });
    const base = { jobName: '单位学历月薪', modelInfo: { id: crosstab.id }, dataId, cronTime: '0 0 3 * * ?' };
    // the dialog's cron preview: Quartz form accepted, five fire times in order; a cron that never fires is a 400
    const next = await t.app.inject({ method: 'GET', url: `/taskManagement/nextRuns?cron=${encodeURIComponent(base.cronTime)}`, headers: H() });
    const times = next.json().times as string[];
    expect(times).toHaveLength(5);
    expect(times.every((x) => new Date(x).getUTCHours() === 19 && new Date(x).getUTCMinutes() === 0)).toBe(true);
    expect([...times].sort()).toEqual(times);
    expect((await t.app.inject({ method: 'GET', url: '/taskManagement/nextRuns?cron=0%200%200%2030%202%20%3F', headers: H() })).statusCode).toBe(400);
    const created = await post({ ...base, params: { rowField: '单位名称', colField: '学历', measure: 'sum:月薪' } });
    expect(created.statusCode, created.body).toBe(201);
    const task = created.json() as { id: number };
    expect((await t.app.inject({ method: 'PUT', url: `/taskManagement/jobs/exec/${task.id}`, headers: H() })).json().message).toBe('开启任务执行成功');
    const log = await waitFor(async () => {
      const rows = (await t.app.inject({ method: 'GET', url: `/taskManagement/jobLogs?jobName=${encodeURIComponent('单位学历月薪')}`, headers: H() })).json().content as {
        isSuccess: boolean;
        exceptionDetail: string | null;
        rowsIn: number;
      }[];
      return rows[0];
    });
    expect(log.exceptionDetail).toBeNull();
    expect(log.isSuccess).toBe(true);
    expect(log.rowsIn).toBe(6);

    const list = (await t.app.inject({ method: 'GET', url: '/dataManagement/modelDataList?pageNumber=1&pageSize=10&modelName=xls_muti', headers: H() })).json();
    expect(list.totalElements).toBe(1);
    const group = list.content[0] as { groupName: string; taskName: string; files: { id: number; fileName: string; rows: number }[] };
    groupName = group.groupName;
    expect(group.taskName).toBe('单位学历月薪');
    expect(group.files.map((f) => f.fileName)).toEqual(['单位名称×学历_合计月薪.xlsx']);
    const key = (await t.app.ctx.db.selectFrom('model_output').select('storage_key').where('id', '=', group.files[0].id).executeTakeFirstOrThrow()).storage_key;
    const cells: unknown[][] = [];
    for await (const r of openWorkbook(await readStored(String(key))).rows) cells.push(r.cells);
    // sums in exact fen: 5000.50 + 4999.50 = 10000.00; a blank 月薪 is left out; columns and rows in pinyin order
    expect(cells).toEqual([
      ['单位名称\\学历', '本科', '大专', '硕士', '合计'],
      ['华东派遣,二部', 6000.01, 0, 8000, 14000.01],
      ['镕达劳务', 10000, 3000, 0, 13000],
      ['合计', 16000.01, 3000, 8000, 27000.01],
    ]);
    // the top-10 chart of this task: row totals, largest first
    expect((await t.app.inject({ method: 'GET', url: `/instrument/traitList?id=${task.id}`, headers: H() })).json()).toEqual([
      { name: '华东派遣,二部', number: 14000.01 },
      { name: '镕达劳务', number: 13000 },
    ]);
    // the distribution (单例) over the same file: its per-company workbook follows the 单位名称 column
    const models2 = models.find((m) => m.site === 'builtin:distribution')!;
    const dist = await post({ ...base, jobName: '学历分布CSV', modelInfo: { id: models2.id }, params: { properties: '学历' } });
    expect(dist.statusCode, dist.body).toBe(201);
    await t.app.inject({ method: 'PUT', url: `/taskManagement/jobs/exec/${dist.json().id}`, headers: H() });
    const single = await waitFor(async () => {
      const l = (await t.app.inject({ method: 'GET', url: '/dataManagement/modelDataList?pageNumber=1&pageSize=10&modelName=xls_single', headers: H() })).json();
      return l.content[0] as { files: { id: number; fileName: string }[] } | undefined;
    });
    expect(single.files.map((f) => f.fileName)).toEqual(['学历分布.xlsx', '学历分布_按单位.xlsx']);
    const byCompany = (await t.app.inject({ method: 'GET', url: `/dataManagement/customsDataDetails?id=${single.files[1].id}`, headers: H() })).json();
    expect(byCompany.columns).toEqual(['单位名称', '学历', '数量', '单位内占比(%)']);
    expect(byCompany.rows).toContainEqual(['镕达劳务', '本科', 2, 66.67]);
    await t.app.ctx.db.deleteFrom('model_output').where('output_kind', '=', 'xls_single').execute();

    // a column the source lacks fails the run with the field named, and writes no group
    const bad = await post({ ...base, jobName: '缺字段', params: { rowField: '部门', colField: '学历', measure: 'count' } });
    expect(bad.statusCode, bad.body).toBe(201);
    await t.app.inject({ method: 'PUT', url: `/taskManagement/jobs/exec/${bad.json().id}`, headers: H() });
    const failed = await waitFor(async () => {
      const rows = (await t.app.inject({ method: 'GET', url: `/taskManagement/jobLogs?jobName=${encodeURIComponent('缺字段')}&isSuccess=false`, headers: H() })).json().content as { exceptionDetail: string }[];
      return rows[0];
    });
    expect(failed.exceptionDetail).toContain('部门');
    expect((await t.app.inject({ method: 'GET', url: '/dataManagement/modelDataList?pageNumber=1&pageSize=10', headers: H() })).json().totalElements).toBe(1);
  });

  it('seeds 模型数据清理 as a system job that removes groups older than the retention, files included', async () => {
    const jobs = (await t.app.inject({ method: 'GET', url: '/api/jobs?size=50', headers: H() })).json().content as { id: number; jobName: string; beanName: string; methodName: string; cronExpression: string; isPause: boolean }[];
    const job = jobs.find((j) => j.jobName === '模型数据清理');
    expect(job).toMatchObject({ beanName: 'modelDataRetention', methodName: 'run', cronExpression: '0 50 2 * * ?', isPause: false });
    // params are checked like the other retention jobs
    const badParams = await t.app.inject({
      method: 'PUT',
      url: '/api/jobs',
      headers: H(),
      payload: { id: job!.id, jobName: '模型数据清理', beanName: 'modelDataRetention', methodName: 'run', cronExpression: '0 50 2 * * ?', params: '{"days":0}' },
    });
    expect(badParams.statusCode).toBe(400);

    // a second run of the task makes a fresh group; the group of the first test is made 200 days old
    const db = t.app.ctx.db;
    const taskId = Number((await db.selectFrom('model_task').select('id').where('job_name', '=', '单位学历月薪').executeTakeFirstOrThrow()).id);
    const again = await t.app.inject({ method: 'PUT', url: `/taskManagement/jobs/exec/${taskId}`, headers: H() });
    expect(again.statusCode, again.body).toBe(200);
    const fresh = await waitFor(async () => {
      const rows = await db.selectFrom('model_output').selectAll().where('group_name', '<>', groupName).execute();
      return rows[0];
    });
    const old = await db.selectFrom('model_output').selectAll().where('group_name', '=', groupName).executeTakeFirstOrThrow();
    expect((await readStored(String(old.storage_key))).length).toBeGreaterThan(0);
    await db.updateTable('model_output').set({ create_time: new Date(Date.now() - 200 * 86_400_000).toISOString() }).where('group_name', '=', groupName).execute();

    const exec = await t.app.inject({ method: 'PUT', url: `/api/jobs/exec/${job!.id}`, headers: H() });
    expect(exec.statusCode, exec.body).toBe(200);
    const log = await waitFor(async () => {
      const rows = (await t.app.inject({ method: 'GET', url: `/api/jobLogs?jobName=${encodeURIComponent('模型数据清理')}`, headers: H() })).json().content as { isSuccess: boolean; summary: string }[];
      return rows[0];
    });
    expect(log.isSuccess).toBe(true);
    expect(log.summary).toBe('删除 180 天前的模型数据文件 1 个');
    const left = await db.selectFrom('model_output').select('group_name').execute();
    expect(left.map((r) => r.group_name)).toEqual([fresh.group_name]);
    // the old group's stored file is gone, the fresh one's is still there
    await expect(readStored(String(old.storage_key))).rejects.toBeTruthy();
    expect((await readStored(String(fresh.storage_key))).length).toBeGreaterThan(0);
  });
});
