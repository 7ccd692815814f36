import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../src/core/db.ts';
import { LOG_PURGE_AUDIT_METHOD } from '../src/modules/jobs/systemHandlers.ts';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, TEST_DB, type TestApp } from './helpers.ts';
import { idOf, userWithCodes } from './system-fixtures.ts';

/**
 * Rights follow the data (N3, N4, N8, E7): the dashboard's task results need the model-data or task codes and
 * respect the caller's data scope; editing a task makes the editor its owner, whose rights the run checks; the
 * log purge keeps a floor and leaves an audit row it never deletes.
 */
let t: TestApp;
let admin: Record<string, string>;
let taskA = 0; // owned by 业务部, run once
let taskB = 0; // owned by 总公司
let business = 0;
let head = 0;

async function waitFor<T>(fn: () => Promise<T | undefined | null | false>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const runLogs = async (jobName: string) =>
  (await t.app.inject({ method: 'GET', url: `/taskManagement/jobLogs?jobName=${encodeURIComponent(jobName)}&size=20`, headers: admin })).json().content as {
    isSuccess: boolean;
    exceptionDetail: string | null;
  }[];

beforeAll(async () => {
  t = await createTestApp();
  admin = bearer(await login(t.app, 'admin', DEV_ADMIN_PASSWORD));
  business = await idOf(t, 'sys_dept', '业务部');
  head = await idOf(t, 'sys_dept', '总公司');
  const db = t.app.ctx.db;
  const now = nowIso();
  await db.insertInto('accounts_company').values({ company_name: '甲公司', create_time: now, update_time: now } as never).execute();
  const company = await db.selectFrom('accounts_company').select(['id', 'company_name']).executeTakeFirstOrThrow();
  for (const [i, [name, edu]] of [
    ['王总监', '硕士'],
    ['李经理', '本科'],
    ['张三', '本科'],
  ].entries()) {
    await db
      .insertInto('accounts_staff')
      .values({ staff_name: name, education: edu, company_id: company.id, company_name: company.company_name, id_card: `11010519900101${3000 + i}`, create_time: now, update_time: now } as never)
      .execute();
  }
  const tableData = JSON.stringify([
    { fieldName: '姓名', field: 'staffName' },
    { fieldName: '学历', field: 'education' },
  ]);
  await db.insertInto('custom_datasource' as never).values({ name: '花名册', dataset: 'accountsStaff', character_encoding: 'UTF-8', table_data: tableData, create_by: 'admin', create_time: now, update_time: now } as never).execute();
  const custom = (await db.selectFrom('custom_datasource' as never).select('id' as never).executeTakeFirstOrThrow()) as { id: number };
  await db
    .insertInto('data_origin' as never)
    .values({ data_name: '员工花名册', code: 'staff', type: 'custom', character_encoding: 'UTF-8', custom_datasource_id: custom.id, table_data: tableData, owner_id: 1, create_by: 'admin', create_time: now, update_time: now } as never)
    .execute();
  const dataId = Number(((await db.selectFrom('data_origin' as never).select('id' as never).executeTakeFirstOrThrow()) as { id: number }).id);
  const models = (await t.app.inject({ method: 'GET', url: '/ModelManageMent/getModelList?pageNumber=1&pageSize=999', headers: admin })).json().content as { id: number; site: string }[];
  const dist = models.find((m) => m.site === 'builtin:distribution')!;
  const create = async (jobName: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/taskManagement/jobs', headers: admin, payload: { jobName, modelInfo: { id: dist.id }, dataId, cronTime: '0 0 2 * * ?', params: { properties: '学历', topN: 5 } } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  taskA = await create('业务部学历');
  taskB = await create('总公司学历');
  await t.app.inject({ method: 'PUT', url: `/taskManagement/jobs/exec/${taskA}`, headers: admin });
  await waitFor(async () => (await runLogs('业务部学历'))[0]?.isSuccess);
  // the owners' departments decide who sees each task; B has traits and runs of its own
  await db.updateTable('model_task').set({ owner_dept_id: business }).where('id', '=', taskA).execute();
  await db
    .updateTable('model_task')
    .set({ owner_dept_id: head, last_run_at: nowIso(), last_traits: JSON.stringify([['总公司机密', 98000]]) })
    .where('id', '=', taskB)
    .execute();
  await db
    .insertInto('sys_job_log')
    .values({ job_key: `task:${taskB}`, job_name: '总公司学历', trigger_kind: 'manual', is_success: 1, output_count: 1_000_000, calc_count: 2_000_000, create_time: nowIso() } as never)
    .execute();
});
afterAll(async () => {
  await t.close();
});

describe(`dashboard rights and data scope (${TEST_DB})`, () => {
  it('refuses users without the model-data or task codes (N3, E7)', async () => {
    for (const codes of [['DICT_SELECT'], ['ACCENTRY_ALL']]) {
      const u = await userWithCodes(t, codes);
      expect((await u.call('GET', `/instrument/traitList?id=${taskA}`)).statusCode).toBe(403);
      expect((await u.call('GET', '/instrument/getDataVolumeInfo')).statusCode).toBe(403);
      expect((await u.call('POST', '/instrument/dataConfigList', {})).statusCode).toBe(403);
      expect((await u.call('POST', '/instrument/dataConfigList', { ids: [taskA] })).statusCode).toBe(403);
    }
  });

  it('shows a task-code holder only the tasks of departments in the data scope', async () => {
    const scoped = await userWithCodes(t, ['TASK_SELECT'], { dataScope: '自定义', depts: [business], deptId: business });
    const traits = await scoped.call('GET', `/instrument/traitList?id=${taskA}`);
    expect(traits.statusCode, traits.body).toBe(200);
    expect(traits.json()).toEqual([
      { name: '本科', number: 2 },
      { name: '硕士', number: 1 },
    ]);
    const hidden = await scoped.call('GET', `/instrument/traitList?id=${taskB}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.body).not.toContain('总公司机密');

    expect((await scoped.call('POST', '/instrument/dataConfigList', { ids: [taskB] })).statusCode).toBe(400);
    const chosen = await scoped.call('POST', '/instrument/dataConfigList', { ids: [taskA] });
    expect(chosen.json().map((c: { id: number }) => c.id)).toEqual([taskA]);
    // a saved choice naming a task now out of scope is left out
    await t.app.ctx.db.updateTable('dashboard_pref').set({ task_ids: JSON.stringify([taskB, taskA]) }).where('user_id', '=', scoped.id).execute();
    expect((await scoped.call('POST', '/instrument/dataConfigList', {})).json().map((c: { id: number }) => c.id)).toEqual([taskA]);
    // the default (most recently run) lists only visible tasks; admin sees both
    const fresh = await userWithCodes(t, ['MODELDATA_SELECT'], { dataScope: '自定义', depts: [business] });
    expect((await fresh.call('POST', '/instrument/dataConfigList', {})).json().map((c: { id: number }) => c.id)).toEqual([taskA]);
    const all = await t.app.inject({ method: 'POST', url: '/instrument/dataConfigList', headers: admin, payload: {} });
    expect(all.json().map((c: { id: number }) => c.id).sort()).toEqual([taskA, taskB].sort());

    // the volume counts only runs of visible tasks: B's million rows are not the scoped user's to see
    const mine = (await scoped.call('GET', '/instrument/getDataVolumeInfo')).json();
    const everyone = (await t.app.inject({ method: 'GET', url: '/instrument/getDataVolumeInfo', headers: admin })).json();
    expect(everyone.sum[0][0]).toBeGreaterThanOrEqual(100);
    expect(mine.sum[0][0]).toBeLessThan(1);
    // the raw counts beside the 万条 figures (the home screen shows 5 条, not 0.00 万条)
    expect(everyone.rows.sum[0]).toBeGreaterThanOrEqual(1_000_000);
    expect(Math.floor((everyone.rows.sum[0] + 50) / 100) / 100).toBe(everyone.sum[0][0]);
    expect(mine.rows.sum[0]).toBeLessThan(10_000);
    const nobody = await userWithCodes(t, ['JOB_SELECT'], { dataScope: '自定义', depts: [] });
    expect((await nobody.call('GET', '/instrument/getDataVolumeInfo')).json().sum).toEqual([[0, 0]]);
  });

  it('makes the editor of a task its owner, and the run uses his rights (N4)', async () => {
    const editor = await userWithCodes(t, ['JOB_SELECT', 'JOB_CREATE', 'JOB_EDIT'], { deptId: business });
    expect((await editor.call('GET', '/api/accountsStaff')).statusCode).toBe(403);
    const task = (await editor.call('GET', '/taskManagement/jobs?page=0&size=50')).json().content.find((r: { id: number }) => r.id === taskB);
    const edited = await editor.call('PUT', '/taskManagement/jobs', { id: taskB, jobName: '总公司学历', modelInfo: { id: task.modelInfo?.id ?? task.modelId }, dataId: task.dataId, cronTime: '0 0 3 * * ?', params: { properties: '学历', topN: 3 } });
    expect(edited.statusCode, edited.body).toBe(204);
    const row = await t.app.ctx.db.selectFrom('model_task').select(['owner_id', 'owner_dept_id', 'last_traits']).where('id', '=', taskB).executeTakeFirstOrThrow();
    expect({ owner: Number(row.owner_id), dept: Number(row.owner_dept_id) }).toEqual({ owner: editor.id, dept: business });

    expect((await editor.call('PUT', `/taskManagement/jobs/exec/${taskB}`)).statusCode).toBe(200);
    const failed = await waitFor(async () => (await runLogs('总公司学历')).find((l) => !l.isSuccess));
    expect(failed.exceptionDetail).toContain('任务负责人');
    expect(failed.exceptionDetail).toContain('员工');
    // nothing of the roster reached the task's traits
    const after = await t.app.ctx.db.selectFrom('model_task').select('last_traits').where('id', '=', taskB).executeTakeFirstOrThrow();
    expect(after.last_traits).toBe(row.last_traits);
    expect(await t.app.ctx.db.selectFrom('model_output').select('id').where('task_id', '=', taskB).execute()).toEqual([]);
  });
});

describe(`log retention floor and audit row (${TEST_DB})`, () => {
  const jobRow = async () => {
    const jobs = (await t.app.inject({ method: 'GET', url: '/api/jobs?size=50', headers: admin })).json().content as { id: number; jobName: string; beanName: string; methodName: string; cronExpression: string }[];
    return jobs.find((j) => j.beanName === 'logRetentionTask')!;
  };
  const jobLogs = async (jobName: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/jobLogs?jobName=${encodeURIComponent(jobName)}&size=20`, headers: admin })).json().content as { id: number; isSuccess: boolean; summary: string }[];
  /** The list leaves the exception text out; one log's detail is read on its own. */
  const detailOf = async (id: number) => (await t.app.inject({ method: 'GET', url: `/api/jobLogs/${id}`, headers: admin })).json().exceptionDetail as string;

  it('refuses days below the floor when saved and when run (N8)', async () => {
    const job = await jobRow();
    const save = await t.app.inject({ method: 'PUT', url: '/api/jobs', headers: admin, payload: { ...job, params: '{"days":1}' } });
    expect(save.statusCode).toBe(400);
    expect(save.json().message).toContain('180');
    // a row that says 1 anyway (written before this rule) is refused at run time
    await t.app.ctx.db.updateTable('sys_scheduled_job').set({ params: '{"days":1}' }).where('id', '=', job.id).execute();
    const before = (await jobLogs(job.jobName)).length;
    expect((await t.app.inject({ method: 'PUT', url: `/api/jobs/exec/${job.id}`, headers: admin })).statusCode).toBe(200);
    const logs = await waitFor(async () => {
      const l = await jobLogs(job.jobName);
      return l.length > before ? l : undefined;
    });
    expect(logs[0].isSuccess).toBe(false);
    expect(await detailOf(logs[0].id)).toContain('日志至少保留 180 天');
  });

  it('purges old rows, leaves an audit row, and never purges earlier audit rows', async () => {
    const db = t.app.ctx.db;
    const old = new Date(Date.now() - 400 * 86_400_000).toISOString();
    const row = (description: string, method: string | null) => ({ log_type: 'INFO', username: 'x', description, method, params: '{}', create_time: old });
    await db.insertInto('sys_log').values([row('旧操作1', 'PUT /x'), row('旧操作2', null), row('旧清理记录', LOG_PURGE_AUDIT_METHOD)] as never).execute();
    const job = await jobRow();
    await db.updateTable('sys_scheduled_job').set({ params: '{"days":180}' }).where('id', '=', job.id).execute();
    const before = (await jobLogs(job.jobName)).length;
    await t.app.inject({ method: 'PUT', url: `/api/jobs/exec/${job.id}`, headers: admin });
    const logs = await waitFor(async () => {
      const l = await jobLogs(job.jobName);
      return l.length > before ? l : undefined;
    });
    expect(logs[0].isSuccess, logs[0].summary).toBe(true);
    const left = await db.selectFrom('sys_log').select(['description', 'method', 'username', 'params']).where('create_time', '<', new Date(Date.now() - 179 * 86_400_000).toISOString()).execute();
    expect(left.map((r) => r.description)).toEqual(['旧清理记录']);
    const audit = await db.selectFrom('sys_log').select(['description', 'username', 'params']).where('method', '=', LOG_PURGE_AUDIT_METHOD).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit.username).toBe('system');
    expect(audit.description).toContain('180 天前');
    expect(JSON.parse(String(audit.params))).toMatchObject({ job: `job:${job.id}`, days: 180, removed: 2 });
  });

  it('lets the server configuration lower the floor', async () => {
    const low = await createTestApp({ logRetentionMinDays: 7 });
    try {
      const token = await login(low.app, 'admin', DEV_ADMIN_PASSWORD);
      const jobs = (await low.app.inject({ method: 'GET', url: '/api/jobs?size=50', headers: bearer(token) })).json().content as { beanName: string }[];
      const job = jobs.find((j) => j.beanName === 'logRetentionTask')!;
      expect((await low.app.inject({ method: 'PUT', url: '/api/jobs', headers: bearer(token), payload: { ...job, params: '{"days":7}' } })).statusCode).toBe(204);
      expect((await low.app.inject({ method: 'PUT', url: '/api/jobs', headers: bearer(token), payload: { ...job, params: '{"days":6}' } })).statusCode).toBe(400);
    } finally {
      await low.close();
    }
  });
});
