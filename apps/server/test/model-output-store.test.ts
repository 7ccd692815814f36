import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelExistingOutputs } from '../migrations/0022_model_output_store.ts';
import { nowIso } from '../src/core/db.ts';
import { readZipDirectory, readZipEntry } from '../src/core/excel/zip.ts';
import type { S3Store } from '../src/core/storage/s3Store.ts';
import { removeOldModelData } from '../src/modules/operations/tasks/modelData.ts';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, TEST_DB, type TestApp } from './helpers.ts';
import { type S3Standin, startS3rver } from './storageFixtures.ts';

/**
 * M2: model outputs remember their store. A task writes outputs while files are kept on the local disk, the
 * storage is switched to S3 (s3rver on loopback), the task writes again: every output still previews and zips
 * from the store it was written to, and retention deletes each from that store.
 */
let t: TestApp;
let s3: S3Standin;
let auth: Record<string, string>;
let taskId = 0;

async function waitFor<T>(fn: () => Promise<T | undefined | null | false>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  s3 = await startS3rver('model-outputs');
  t = await createTestApp({ storageEndpointAllowlist: ['127.0.0.1'] });
  auth = bearer(await login(t.app, 'admin', DEV_ADMIN_PASSWORD));
  const db = t.app.ctx.db;
  const now = nowIso();
  await db.insertInto('accounts_company').values({ company_name: '甲公司', create_time: now, update_time: now } as never).execute();
  const company = await db.selectFrom('accounts_company').select(['id', 'company_name']).executeTakeFirstOrThrow();
  for (const [i, edu] of ['本科', '本科', '大专'].entries()) {
    await db
      .insertInto('accounts_staff')
      .values({ staff_name: `员工${i}`, education: edu, company_id: company.id, company_name: company.company_name, id_card: `11010519900101${2000 + i}`, create_time: now, update_time: now } as never)
      .execute();
  }
  const tableData = JSON.stringify([
    { fieldName: '姓名', field: 'staffName' },
    { fieldName: '学历', field: 'education' },
    { fieldName: 'companyName', field: 'companyName' },
  ]);
  await db.insertInto('custom_datasource' as never).values({ name: '花名册', dataset: 'accountsStaff', character_encoding: 'UTF-8', table_data: tableData, create_by: 'admin', create_time: now, update_time: now } as never).execute();
  const custom = (await db.selectFrom('custom_datasource' as never).select('id' as never).executeTakeFirstOrThrow()) as { id: number };
  await db
    .insertInto('data_origin' as never)
    .values({ data_name: '员工花名册', code: 'staff', type: 'custom', character_encoding: 'UTF-8', custom_datasource_id: custom.id, table_data: tableData, owner_id: 1, create_by: 'admin', create_time: now, update_time: now } as never)
    .execute();
  const dataId = Number(((await db.selectFrom('data_origin' as never).select('id' as never).executeTakeFirstOrThrow()) as { id: number }).id);
  const models = (await t.app.inject({ method: 'GET', url: '/ModelManageMent/getModelList?pageNumber=1&pageSize=999', headers: auth })).json().content as { id: number; site: string }[];
  const dist = models.find((m) => m.site === 'builtin:distribution')!;
  const task = await t.app.inject({
    method: 'POST',
    url: '/taskManagement/jobs',
    headers: auth,
    payload: { jobName: '学历分布', modelInfo: { id: dist.id }, dataId, cronTime: '0 0 2 * * ?', params: { properties: '学历', topN: 5 } },
  });
  expect(task.statusCode, task.body).toBe(201);
  taskId = task.json().id;
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

const outputs = () => t.app.ctx.db.selectFrom('model_output').selectAll().orderBy('id').execute();

/** Run the task by hand and wait for its new group of outputs. */
async function runTask(): Promise<Awaited<ReturnType<typeof outputs>>> {
  const before = new Set((await outputs()).map((o) => o.group_name));
  const exec = await t.app.inject({ method: 'PUT', url: `/taskManagement/jobs/exec/${taskId}`, headers: auth });
  expect(exec.statusCode, exec.body).toBe(200);
  const fresh = await waitFor(async () => {
    const rows = (await outputs()).filter((o) => !before.has(o.group_name));
    return rows.length === 2 ? rows : undefined;
  });
  // the outputs are written before the run ends (its log row, the running marker): the next run by hand would be
  // refused as overlapping (JOB_RUNNING) on a slow machine, so wait for the end too
  await waitFor(async () => !(await t.app.scheduler.isRunning(`task:${taskId}`)));
  return fresh;
}

const localFile = (key: string) => path.join(t.config.dataDir, 'storage', key);
const s3Store = async () => (await t.app.storage.storeFor({ provider: 's3', bucket: s3.bucket, type: '私有' })) as S3Store;
const saveConfig = (body: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: '/api/qiNiuConfig', headers: auth, payload: body });
const useS3 = () => saveConfig({ provider: 's3', accessKey: 'S3RVER', secretKey: 'any-secret', bucket: s3.bucket, host: 'https://files.example.test', zone: '华东', type: '私有', endpoint: s3.endpoint });
const preview = (id: number) => t.app.inject({ method: 'GET', url: `/dataManagement/customsDataDetails?id=${id}`, headers: auth });

describe(`model outputs keep their store across a storage switch (${TEST_DB})`, () => {
  let onLocal: Awaited<ReturnType<typeof outputs>> = [];
  let onS3: Awaited<ReturnType<typeof outputs>> = [];

  it('records the store each run wrote to', async () => {
    onLocal = await runTask();
    for (const o of onLocal) {
      expect(o).toMatchObject({ provider: 'local', bucket: '' });
      expect(fs.existsSync(localFile(String(o.storage_key)))).toBe(true);
    }
    expect((await useS3()).statusCode).toBe(204);
    onS3 = await runTask();
    const bucket = await s3Store();
    for (const o of onS3) {
      expect(o).toMatchObject({ provider: 's3', bucket: s3.bucket, type: '私有' });
      expect(await bucket.head(String(o.storage_key))).not.toBeNull();
      expect(fs.existsSync(localFile(String(o.storage_key)))).toBe(false);
    }
  });

  it('previews outputs of both stores after the switch', async () => {
    for (const o of [onLocal[0], onS3[0]]) {
      const res = await preview(Number(o.id));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().rows).toContainEqual(['本科', 2, 66.67, 66.67]);
    }
  });

  it('zips outputs of both stores in one all.zip', async () => {
    const groups = [onLocal[0].group_name, onS3[0].group_name];
    const res = await t.app.inject({ method: 'POST', url: '/dataManagement/outPutData', headers: auth, payload: { groupName: groups } });
    expect(res.statusCode, res.body).toBe(200);
    const entries = [...readZipDirectory(res.rawPayload).values()];
    expect(entries.map((e) => e.name)).toEqual([...onLocal, ...onS3].map((o) => `${o.group_name}/${o.file_name}`));
    const bytes = readZipEntry(res.rawPayload, entries[0]);
    expect(bytes.equals(fs.readFileSync(localFile(String(onLocal[0].storage_key))))).toBe(true);
  });

  it('retention deletes each output from its own store', async () => {
    const db = t.app.ctx.db;
    await db.updateTable('model_output').set({ create_time: new Date(Date.now() - 200 * 86_400_000).toISOString() }).execute();
    expect(await removeOldModelData(t.app, 180)).toEqual({ removed: 4, kept: 0 });
    expect(await outputs()).toEqual([]);
    for (const o of onLocal) expect(fs.existsSync(localFile(String(o.storage_key)))).toBe(false);
    const bucket = await s3Store();
    for (const o of onS3) expect(await bucket.head(String(o.storage_key))).toBeNull();
  });

  it('keeps the rows of a store that is no longer configured instead of orphaning their files', async () => {
    const kept = await runTask(); // written to S3
    const local = await (async () => {
      expect((await saveConfig({ provider: 'local' })).statusCode).toBe(204);
      return runTask();
    })();
    expect(local.every((o) => o.provider === 'local')).toBe(true);
    // the S3 outputs answer a clear error now, and the server goes on
    const res = await preview(Number(kept[0].id));
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toContain('对象存储');
    await t.app.ctx.db.updateTable('model_output').set({ create_time: new Date(Date.now() - 200 * 86_400_000).toISOString() }).execute();
    expect(await removeOldModelData(t.app, 180)).toEqual({ removed: 2, kept: 2 });
    expect((await outputs()).map((o) => Number(o.id))).toEqual(kept.map((o) => Number(o.id)));
    // S3 configured again: the kept outputs are found and cleaned up
    expect((await useS3()).statusCode).toBe(204);
    expect(await removeOldModelData(t.app, 180)).toEqual({ removed: 2, kept: 0 });
    for (const o of kept) expect(await (await s3Store()).head(String(o.storage_key))).toBeNull();
  });

  it('labels rows written before the columns existed with the store configured at upgrade', async () => {
    const db = t.app.ctx.db;
    const now = nowIso();
    const row = { task_id: taskId, task_name: '旧任务', output_kind: 'xls_single', model_title: '旧', group_name: '升级前', file_name: 'a.xlsx', storage_key: 'modelOutput/2026-01/x.xlsx', rows_out: 1, bytes: 1, create_time: now };
    await db.insertInto('model_output').values(row as never).execute();
    await labelExistingOutputs(db);
    expect(await db.selectFrom('model_output').select(['provider', 'bucket', 'type']).where('group_name', '=', '升级前').executeTakeFirstOrThrow()).toEqual({ provider: 's3', bucket: s3.bucket, type: '私有' });
    expect((await saveConfig({ provider: 'local' })).statusCode).toBe(204);
    await labelExistingOutputs(db);
    expect(await db.selectFrom('model_output').select(['provider', 'bucket', 'type']).where('group_name', '=', '升级前').executeTakeFirstOrThrow()).toEqual({ provider: 'local', bucket: '', type: '本地' });
  });
});
