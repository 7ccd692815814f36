import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { buffer } from 'node:stream/consumers';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEV_ADMIN_PASSWORD, login, TEST_DB, type TestApp, bearer } from './helpers.ts';
import { multipart, type S3Standin, startS3rver } from './storageFixtures.ts';
import { adminCaller, type Caller } from './system-fixtures.ts';

/**
 * Maintenance jobs (issue 25 item 1, finding M3): the database backup into storage with a retention count (SQLite
 * online backup opened and checked; pg_dump / mariadb-dump when on PATH, a clear refusal when not) and the
 * storage reconcile (rows whose object is gone, objects with no row; orphans deleted only when asked), on local
 * storage and on an S3 bucket (s3rver).
 */
let t: TestApp;
let s3: S3Standin;
let admin: Caller;
let auth: Record<string, string>;

beforeAll(async () => {
  s3 = await startS3rver();
  t = await createTestApp({ storageEndpointAllowlist: ['127.0.0.1'] });
  admin = await adminCaller(t);
  auth = bearer(await login(t.app, 'admin', DEV_ADMIN_PASSWORD));
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

async function runJob(handler: string, params: Record<string, unknown> = {}) {
  const [beanName, methodName] = handler.split('.');
  const created = await admin('POST', '/api/jobs', { jobName: `${methodName}${Math.random().toString(36).slice(2, 8)}`, beanName, methodName, cronExpression: '0 0 3 1 * ?', params: JSON.stringify(params), isPause: true });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as number;
  expect((await admin('PUT', `/api/jobs/exec/${id}`)).statusCode).toBe(200);
  const end = Date.now() + 60_000;
  for (;;) {
    const row = await t.app.ctx.db.selectFrom('sys_job_log').selectAll().where('job_key', '=', `job:${id}`).executeTakeFirst();
    if (row) return { ok: Number(row.is_success) === 1, summary: row.summary ?? '', detail: row.exception_detail ?? '' };
    if (Date.now() > end) throw new Error('no run-log row');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function backupKeys(): Promise<string[]> {
  const store = await t.app.storage.active();
  const keys: string[] = [];
  for await (const o of store.list('backup/')) keys.push(o.key);
  return keys.sort();
}

const upload = async (name: string, content: string) => {
  const body = multipart(name, Buffer.from(content));
  const res = await t.app.inject({ method: 'POST', url: '/api/qiNiuContent', headers: { ...auth, ...body.headers }, payload: body.payload });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return t.app.ctx.db.selectFrom('tool_storage_file').selectAll().where('name', '=', name).orderBy('id', 'desc').executeTakeFirstOrThrow();
};

describe(`database backup (${TEST_DB})`, () => {
  it('refuses a bad retention count when saved', async () => {
    const res = await admin('POST', '/api/jobs', { jobName: 'bad-backup', beanName: 'databaseBackupTask', methodName: 'run', cronExpression: '0 0 3 * * ?', params: '{"keep":0}' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('keep 必须是1到365之间的整数');
  });

  it('writes a backup into storage, keeps the newest `keep` of them, and the copy is a readable database', async () => {
    const tool = TEST_DB === 'postgres' ? 'pg_dump' : TEST_DB === 'mysql' ? 'mariadb-dump' : null;
    const toolPresent = !tool || (process.env.PATH ?? '').split(path.delimiter).some((d) => fs.existsSync(path.join(d, tool)) || (tool === 'mariadb-dump' && fs.existsSync(path.join(d, 'mysqldump'))));
    if (!toolPresent) {
      const refused = await runJob('databaseBackupTask.run', { keep: 2 });
      expect(refused.ok).toBe(false);
      expect(refused.detail).toContain(`服务器上找不到 ${tool}`);
      return;
    }
    for (let i = 0; i < 3; i++) {
      const res = await runJob('databaseBackupTask.run', { keep: 2 });
      expect(res.ok, res.detail).toBe(true);
      expect(res.summary).toMatch(/^已备份到 本地存储 backup\//);
    }
    const keys = await backupKeys();
    expect(keys).toHaveLength(2);
    const store = await t.app.storage.active();
    const data = zlib.gunzipSync(await buffer(await store.get(keys[1])));
    if (TEST_DB === 'sqlite') {
      const file = path.join(os.tmpdir(), `dp-backup-check-${process.pid}.sqlite`);
      fs.writeFileSync(file, data);
      const copy = new SQLite(file, { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(Number((copy.prepare('select count(*) as n from sys_user').get() as { n: number }).n)).toBeGreaterThan(0);
        expect(Number((copy.prepare('select count(*) as n from sys_scheduled_job').get() as { n: number }).n)).toBeGreaterThan(0);
      } finally {
        copy.close();
        fs.rmSync(file, { force: true });
      }
    } else {
      const text = data.toString('utf8');
      expect(text).toMatch(/CREATE TABLE [`"]?(\w+\.)?[`"]?sys_user[`"]?/);
      expect(text).toContain('sys_scheduled_job');
    }
  });

  it.skipIf(TEST_DB === 'sqlite')('refuses clearly when the dump tool is not on PATH', async () => {
    const saved = process.env.PATH;
    process.env.PATH = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-empty-path-'));
    try {
      const res = await runJob('databaseBackupTask.run', { keep: 2 });
      expect(res.ok).toBe(false);
      expect(res.detail).toBe(`无法备份数据库：服务器上找不到 ${TEST_DB === 'postgres' ? 'pg_dump' : 'mariadb-dump'}，请安装数据库客户端工具后再试`);
    } finally {
      process.env.PATH = saved;
    }
  });
});

describe(`storage reconcile (${TEST_DB})`, () => {
  it('reports rows whose object is gone and objects with no row on local storage; deletes orphans only when asked', async () => {
    const kept = await upload('kept.txt', 'still here');
    const lost = await upload('lost.txt', 'gone soon');
    const local = await t.app.storage.active();
    await local.delete([lost.object_key]);
    await local.put('file/2020-01/orphan-local.txt', Buffer.from('nobody'), { contentType: 'text/plain' });

    const report = await runJob('storageReconcileTask.run');
    expect(report.ok, report.detail).toBe(true);
    expect(report.summary).toContain(`对象丢失 1 条：存储文件#${lost.id} ${lost.object_key}`);
    expect(report.summary).toContain('无记录的对象 1 个：local file/2020-01/orphan-local.txt（仅报告');
    expect(report.summary).not.toContain(kept.object_key);
    const stillThere: string[] = [];
    for await (const o of local.list('file/2020-01/')) stillThere.push(o.key);
    expect(stillThere).toEqual(['file/2020-01/orphan-local.txt']);

    const cleaned = await runJob('storageReconcileTask.run', { deleteOrphans: true });
    expect(cleaned.summary).toContain('已删除 1 个');
    const after: string[] = [];
    for await (const o of local.list('file/2020-01/')) after.push(o.key);
    expect(after).toEqual([]);
    await t.app.ctx.db.deleteFrom('tool_storage_file').where('id', '=', lost.id).execute();
  });

  it('on an S3 bucket: backups with retention, and the reconcile reads each row from its own store', async () => {
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/qiNiuConfig',
      headers: auth,
      payload: { provider: 's3', accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: s3.bucket, host: 'https://files.example.test', zone: '华东', type: '私有', endpoint: s3.endpoint },
    });
    expect(saved.statusCode, saved.body).toBe(204);
    if (TEST_DB === 'sqlite') {
      for (let i = 0; i < 2; i++) expect((await runJob('databaseBackupTask.run', { keep: 1 })).summary).toMatch(/^已备份到 对象存储 backup\//);
      expect(await backupKeys()).toHaveLength(1);
    }
    const remote = await upload('remote.txt', 'in the bucket');
    expect(remote.provider).toBe('s3');
    const bucket = await t.app.storage.active();
    await bucket.put('picture/2020-01/orphan-s3.png', Buffer.from('x'), { contentType: 'image/png' });
    const report = await runJob('storageReconcileTask.run');
    expect(report.ok, report.detail).toBe(true);
    expect(report.summary).toContain('对象丢失 0 条');
    expect(report.summary).toContain(`s3:${s3.bucket} picture/2020-01/orphan-s3.png`);
    expect(report.summary).not.toContain(remote.object_key);
  });
});
