import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../src/core/db.ts';
import { openWorkbook } from '../src/core/excel/readWorkbook.ts';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, TEST_DB, type TestApp } from './helpers.ts';

/**
 * A model task end to end on the real database: rules of models and tasks, a run over a custom source (the staff
 * roster) through the scheduler, workbooks whose cells are checked, model data, all.zip and the dashboard figures
 * against the run log.
 */
let t: TestApp;
let token = '';
let dataId = 0;
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

beforeAll(async () => {
  t = await createTestApp();
  token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
  const db = t.app.ctx.db;
  const now = nowIso();
  await db.insertInto('accounts_company').values({ company_name: '甲公司', create_time: now, update_time: now } as never).execute();
  await db.insertInto('accounts_company').values({ company_name: '乙公司', create_time: now, update_time: now } as never).execute();
  const companies = await db.selectFrom('accounts_company').select(['id', 'company_name']).orderBy('id').execute();
  const staff = [
    ['张一', '本科', 0],
    ['张二', '本科', 0],
    ['张三', '大专', 0],
    ['李一', '本科', 1],
    ['李二', '硕士', 1],
    ['李三', '', 1],
  ] as const;
  for (const [i, [name, edu, c]] of staff.entries()) {
    await db
      .insertInto('accounts_staff')
      .values({ staff_name: name, education: edu || null, company_id: companies[c].id, company_name: companies[c].company_name, id_card: `11010519900101${String(1000 + i)}`, create_time: now, update_time: now } as never)
      .execute();
  }
  const tableData = [
    { fieldName: '姓名', field: 'staffName' },
    { fieldName: '学历', field: 'education' },
    { fieldName: 'companyName', field: 'companyName' },
  ];
  await db.insertInto('custom_datasource' as never).values({ name: '花名册', dataset: 'accountsStaff', character_encoding: 'UTF-8', table_data: JSON.stringify(tableData), create_by: 'admin', create_time: now, update_time: now } as never).execute();
  const custom = (await db.selectFrom('custom_datasource' as never).select('id' as never).executeTakeFirstOrThrow()) as { id: number };
  await db
    .insertInto('data_origin' as never)
    .values({ data_name: '员工花名册', code: 'staff', type: 'custom', character_encoding: 'UTF-8', custom_datasource_id: custom.id, table_data: JSON.stringify(tableData), owner_id: 1, create_by: 'admin', create_time: now, update_time: now } as never)
    .execute();
  dataId = Number(((await db.selectFrom('data_origin' as never).select('id' as never).executeTakeFirstOrThrow()) as { id: number }).id);
});
afterAll(async () => {
  await t.close();
});

async function models() {
  const res = await t.app.inject({ method: 'GET', url: '/ModelManageMent/getModelList?pageNumber=1&pageSize=999', headers: H() });
  expect(res.statusCode).toBe(200);
  return res.json().content as { id: number; modelName: string; statu: number; site: string; parameterInfo: unknown[] }[];
}

describe(`models and tasks (${TEST_DB})`, () => {
  it('seeds the built-in catalogue on shelf and enforces the shelf and parameter rules', async () => {
    const list = await models();
    expect(list.map((m) => m.site).sort()).toEqual(
      ['builtin:contractExpiry', 'builtin:crosstab', 'builtin:dataQuality', 'builtin:distribution', 'builtin:laborCost', 'builtin:payAnomaly', 'builtin:siBaseCheck'].sort(),
    );
    expect(list.every((m) => m.statu === 1)).toBe(true);
    const crosstab = list.find((m) => m.site === 'builtin:crosstab')!;
    const save = (body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/ModelManageMent/saveModel', headers: H(), payload: body });
    const base = { id: crosstab.id, modelName: '交叉特征分析', site: 'builtin:crosstab', fileType: 'python', statu: 2, parameterInfo: crosstab.parameterInfo };
    expect((await save(base)).json().message).toBe('请先下架再编辑');
    expect((await t.app.inject({ method: 'POST', url: '/ModelManageMent/delModel', headers: H(), payload: { id: crosstab.id } })).json().message).toBe('请先下架再删除');
    const off = await t.app.inject({ method: 'POST', url: '/ModelManageMent/statuModel', headers: H(), payload: { id: crosstab.id } });
    expect(off.json()).toMatchObject({ statu: 2, message: '下架成功' });
    // external model rules with the spec's messages
    const ext = { modelName: '外部分析', site: 'http://127.0.0.1:9/x', fileType: 'python', statu: 2 };
    expect((await save({ ...ext, parameterInfo: [{ parameterCode: '', parameterName: 'a', parameterType: 'String' }] })).json().message).toBe('请输入参数信息！');
    expect(
      (await save({ ...ext, parameterInfo: [{ parameterCode: 'a', parameterName: 'A', parameterType: 'String' }, { parameterCode: 'a', parameterName: 'A', parameterType: 'String' }] })).json().message,
    ).toBe('参数编码/参数名称/参数类型不能相同');
    expect((await save({ ...ext, parameterInfo: [{ parameterCode: 'a', parameterName: 'A', parameterType: 'String' }, { parameterCode: 'b', parameterName: '', parameterType: 'String' }] })).json().message).toBe(
      '参数编码/参数名称/参数类型不能为空',
    );
    expect((await save({ ...ext, modelName: '' })).json().message).toBe('请输入模型名称');
    expect((await save({ ...ext, fileType: '' })).json().message).toBe('请选择类型');
    // 127.0.0.1 is not on the (empty) allow-list of this app
    const refused = await save({ ...ext, parameterInfo: [] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('接口地址不在允许范围内');
    const on = await t.app.inject({ method: 'POST', url: '/ModelManageMent/statuModel', headers: H(), payload: { id: crosstab.id } });
    expect(on.json()).toMatchObject({ statu: 1, message: '上架成功' });
  });

  it('validates tasks with the spec messages, runs one and writes the workbooks', async () => {
    const list = await models();
    const dist = list.find((m) => m.site === 'builtin:distribution')!;
    const post = (body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/taskManagement/jobs', headers: H(), payload: body });
    const ok = { jobName: '学历分布', modelInfo: { id: dist.id }, dataId, cronTime: '0 0 2 * * ?', params: { properties: '学历', topN: 5 } };
    expect((await post({ ...ok, modelInfo: undefined })).json().message).toBe('请选择模型');
    expect((await post({ ...ok, jobName: ' ' })).json().message).toBe('请输入任务名称');
    expect((await post({ ...ok, cronTime: '' })).json().message).toBe('请选择执行时间');
    expect((await post({ ...ok, dataId: undefined })).json().message).toBe('请选择数据源');
    expect((await post({ ...ok, params: {} })).json().message).toBe('请选择过滤条件');
    expect((await post({ ...ok, cronTime: 'every day' })).statusCode).toBe(400);
    const created = await post(ok);
    expect(created.statusCode).toBe(201);
    const task = created.json() as { id: number; isPause: number };
    expect(task.isPause).toBe(0);
    expect((await post(ok)).statusCode).toBe(409);
    // the model of an enabled task cannot go off shelf
    expect((await t.app.inject({ method: 'POST', url: '/ModelManageMent/statuModel', headers: H(), payload: { id: dist.id, statu: 2 } })).json().message).toBe('有启用中的任务使用该模型');

    // pause, run by hand while paused (stays paused), recover
    const toggle = await t.app.inject({ method: 'PUT', url: `/taskManagement/jobs/${task.id}`, headers: H() });
    expect(toggle.json()).toMatchObject({ isPause: 1, message: '任务暂停成功' });
    const exec = await t.app.inject({ method: 'PUT', url: `/taskManagement/jobs/exec/${task.id}`, headers: H() });
    expect(exec.json().message).toBe('开启任务执行成功');
    const log = await waitFor(async () => {
      const r = await t.app.inject({ method: 'GET', url: '/taskManagement/jobLogs?page=0&size=5', headers: H() });
      const rows = r.json().content as { isSuccess: boolean; exceptionDetail: string | null; rowsIn: number; rowsOut: number }[];
      return rows.length ? rows[0] : undefined;
    });
    expect(log.exceptionDetail).toBeNull();
    expect(log.isSuccess).toBe(true);
    expect(log.rowsIn).toBe(6);
    const state = await waitFor(async () => {
      const r = await t.app.inject({ method: 'GET', url: '/taskManagement/jobs?page=0&size=10', headers: H() });
      const row = (r.json().content as { id: number; isPause: number }[]).find((x) => x.id === task.id)!;
      return row.isPause !== 3 ? row : undefined;
    });
    expect(state.isPause).toBe(1);
    const progress = await t.app.inject({ method: 'GET', url: '/taskManagement/dispatch?jobName=学历分布', headers: H() });
    expect(progress.json()).toMatchObject({ percent: 1 });
    expect(progress.json().msg).toContain('产出 2 个文件');

    // the workbooks: 学历分布 (blank excluded) and per company
    const data = await t.app.inject({ method: 'GET', url: '/dataManagement/modelDataList?pageNumber=1&pageSize=10&modelName=xls_single', headers: H() });
    const groups = data.json().content as { groupName: string; files: { id: number; fileName: string; rows: number }[] }[];
    expect(groups).toHaveLength(1);
    expect(groups[0].files.map((f) => f.fileName)).toEqual(['学历分布.xlsx', '学历分布_按单位.xlsx']);
    const store = await t.app.storage.active();
    const key = (await t.app.ctx.db.selectFrom('model_output').select('storage_key').where('id', '=', groups[0].files[0].id).executeTakeFirstOrThrow()).storage_key;
    const chunks: Buffer[] = [];
    for await (const c of await store.get(String(key))) chunks.push(c as Buffer);
    const cells: unknown[][] = [];
    for await (const r of openWorkbook(Buffer.concat(chunks)).rows) cells.push(r.cells);
    expect(cells).toEqual([
      ['学历', '数量', '占比(%)', '累计占比(%)'],
      ['本科', 3, 60, 60],
      ['大专', 1, 20, 80],
      ['硕士', 1, 20, 100],
      ['合计', 5, 100],
    ]);
    const preview = await t.app.inject({ method: 'GET', url: `/dataManagement/customsDataDetails?id=${groups[0].files[1].id}`, headers: H() });
    expect(preview.json().rows).toContainEqual(['乙公司', '本科', 1, 50]);

    // traits and statistics from the run log
    const traits = await t.app.inject({ method: 'GET', url: `/instrument/traitList?id=${task.id}`, headers: H() });
    expect(traits.json()).toEqual([
      { name: '本科', number: 3 },
      { name: '大专', number: 1 },
      { name: '硕士', number: 1 },
    ]);
    const volume = (await t.app.inject({ method: 'GET', url: '/instrument/getDataVolumeInfo', headers: H() })).json();
    const sums = await t.app.ctx.db.selectFrom('sys_job_log').select((eb) => [eb.fn.sum<number>('output_count').as('o'), eb.fn.sum<number>('calc_count').as('c')]).where('job_key', 'like', 'task:%').executeTakeFirstOrThrow();
    const wan = (n: number) => Math.floor((n + 50) / 100) / 100;
    expect(volume.sum).toEqual([[wan(Number(sums.o)), wan(Number(sums.c))]]);
    expect(volume.day).toEqual(volume.sum);
    const cfgBad = await t.app.inject({ method: 'POST', url: '/instrument/dataConfigList', headers: H(), payload: { ids: [] } });
    expect(cfgBad.json().message).toBe('请选择1到4个任务');
    const cfg = await t.app.inject({ method: 'POST', url: '/instrument/dataConfigList', headers: H(), payload: { ids: [task.id] } });
    expect(cfg.json()).toEqual([{ id: task.id, jobName: '学历分布', modelName: '单特征分布（单例）' }]);

    // all.zip with Chinese names (UTF-8 flag, bit 11)
    const zip = await t.app.inject({ method: 'POST', url: '/dataManagement/outPutData', headers: H(), payload: { groupName: groups[0].groupName } });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const buf = zip.rawPayload;
    const name = Buffer.from(`${groups[0].groupName}/学历分布.xlsx`, 'utf8');
    const at = buf.indexOf(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04])]));
    expect(at).toBe(0);
    expect(buf.readUInt16LE(6) & 0x800).toBe(0x800);
    expect(buf.indexOf(name)).toBeGreaterThan(0);
    expect((await t.app.inject({ method: 'POST', url: '/dataManagement/outPutData', headers: H(), payload: { groupName: '没有这个分组' } })).json().message).toBe('没有可导出的文件');

    // recover, then the finished/running rules
    expect((await t.app.inject({ method: 'PUT', url: `/taskManagement/jobs/${task.id}`, headers: H() })).json().message).toBe('任务恢复成功');
    await t.app.ctx.db.updateTable('model_task').set({ is_pause: 2 }).where('id', '=', task.id).execute();
    expect((await t.app.inject({ method: 'PUT', url: `/taskManagement/jobs/exec/${task.id}`, headers: H() })).json().message).toBe('任务已结束');
    expect((await t.app.inject({ method: 'PUT', url: `/taskManagement/jobs/${task.id}`, headers: H() })).statusCode).toBe(409);
    // editing the name is refused; delete works
    const put = await t.app.inject({ method: 'PUT', url: '/taskManagement/jobs', headers: H(), payload: { ...ok, id: task.id, jobName: '改名' } });
    expect(put.json().message).toBe('任务名称不能修改');
    expect((await t.app.inject({ method: 'DELETE', url: `/taskManagement/jobs/${task.id}`, headers: H() })).statusCode).toBe(200);
  });
});
