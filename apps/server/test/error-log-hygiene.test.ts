import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../src/core/errors.ts';
import { exceptionDetail } from '../src/core/scheduler/runLog.ts';
import { PROJECT_ROOT, stripServerPaths } from '../src/core/serverPaths.ts';
import { createTestApp, TEST_DB, type TestApp } from './helpers.ts';
import { adminCaller, type Caller } from './system-fixtures.ts';

/**
 * What the error log and the run log keep (M10 and issue 19 item 9): a user's mistake (no mail server, a refused
 * input: any 4xx) is no exception (no ERROR row, nothing at `error` level in the server log), a real fault (5xx)
 * still is; stored details carry no absolute server paths (project root, DATA_DIR, node_modules prefixes), only
 * paths relative to them.
 */

let t: TestApp;
let admin: Caller;
beforeAll(async () => {
  t = await createTestApp();
  admin = await adminCaller(t);
});
afterAll(async () => {
  await t?.close();
});

const rowsOf = (description: string) => t.app.ctx.db.selectFrom('sys_log').selectAll().where('description', '=', description).orderBy('id').execute();

/** Calls `act` and returns its answer and what reached the server log at error level. */
async function withErrorLog<T>(act: () => Promise<T>): Promise<{ result: T; errors: unknown[][] }> {
  // the tests' app has no logger: every request logger is the app's one (no-op) logger, so a spy on it sees them all
  const spy = vi.spyOn(t.app.log, 'error');
  try {
    const result = await act();
    return { result, errors: spy.mock.calls.map((c) => [...c]) };
  } finally {
    spy.mockRestore();
  }
}

const ABSOLUTE_ROOT = new RegExp(PROJECT_ROOT.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

describe('a user mistake is not an exception', () => {
  it('sending mail with no SMTP settings: 409, a WARN row without stack, no error-level log line', async () => {
    const { result: res, errors } = await withErrorLog(() => admin('POST', '/api/email', { subject: '工资条', tos: ['a@example.com'], content: '<p>您好</p>' }));
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().code).toBe('EMAIL_NOT_CONFIGURED');
    expect(errors).toEqual([]);
    await expect.poll(async () => (await rowsOf('发送邮件')).length).toBe(1);
    const [row] = await rowsOf('发送邮件');
    expect(row.log_type).toBe('WARN');
    expect(row.exception_detail).toMatch(/^409 尚未配置邮件服务器/);
    expect(row.exception_detail).not.toMatch(/\n\s+at /);
  });

  it('a validation refusal: 400, WARN, no error-level log line', async () => {
    const { result: res, errors } = await withErrorLog(() => admin('POST', '/api/dict', { name: 'x'.repeat(500) }));
    expect(res.statusCode, res.body).toBe(400);
    expect(errors).toEqual([]);
    await expect.poll(async () => (await t.app.ctx.db.selectFrom('sys_log').select('log_type').where('method', '=', 'POST /api/dict').execute()).map((r) => r.log_type)).toEqual(['WARN']);
    expect(await t.app.ctx.db.selectFrom('sys_log').select('id').where('log_type', '=', 'ERROR').execute()).toEqual([]);
  });

  it('a real fault (the table is gone): 500, an ERROR row with a stack of relative paths, one error-level line', async () => {
    const { db } = t.app.ctx;
    await sql`alter table sys_dict rename to sys_dict_gone`.execute(db);
    try {
      const { result: res, errors } = await withErrorLog(() => admin('POST', '/api/dict', { name: 'lost_dict', remark: 'x' }));
      expect(res.statusCode, res.body).toBe(500);
      expect(res.body).not.toMatch(/\bat\s|node_modules|apps\/server/);
      expect(errors).toHaveLength(1);
    } finally {
      await sql`alter table sys_dict_gone rename to sys_dict`.execute(db);
    }
    await expect.poll(async () => (await t.app.ctx.db.selectFrom('sys_log').select('id').where('log_type', '=', 'ERROR').execute()).length).toBe(1);
    const row = await t.app.ctx.db.selectFrom('sys_log').selectAll().where('log_type', '=', 'ERROR').executeTakeFirstOrThrow();
    const detail = row.exception_detail ?? '';
    expect(detail).toMatch(/\n\s+at /); // still a stack a developer can follow
    expect(detail).toMatch(/node_modules\/|apps\/server\/src\//);
    expect(detail).not.toMatch(ABSOLUTE_ROOT);
    expect(detail).not.toMatch(/[\s(]\/[^\s)]*node_modules\//);
    expect(detail).not.toMatch(/file:\/\/\//);
  });
});

describe('stored details carry no absolute server paths', () => {
  const dataDir = '/srv/payroll-data';
  const fault = () => {
    const e = new Error(`ENOENT: no such file or directory, open '${dataDir}/storage/file/2026-11/x.png'`);
    e.stack = [
      `Error: ENOENT: no such file or directory, open '${dataDir}/storage/file/2026-11/x.png'`,
      `    at readIt (${path.join(PROJECT_ROOT, 'apps/server/src/core/storage/localStore.ts')}:10:5)`,
      `    at file://${path.join(PROJECT_ROOT, 'apps/server/src/modules/jobs/systemHandlers.ts')}:80:3`,
      '    at Object.next (/home/ci/.npm/_store/node_modules/kysely/dist/esm/index.js:1:2)',
      `    at run (${path.join(PROJECT_ROOT, 'node_modules/.pnpm/x/node_modules/bullmq/dist/worker.js')}:5:6)`,
      '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
    ].join('\n');
    return e;
  };

  it('strips the project root, DATA_DIR and node_modules prefixes, keeping the relative rest', () => {
    const text = stripServerPaths(fault().stack!, dataDir);
    expect(text).not.toContain(PROJECT_ROOT);
    expect(text).not.toContain(dataDir);
    expect(text).toContain("open 'DATA_DIR/storage/file/2026-11/x.png'");
    expect(text).toContain('at readIt (apps/server/src/core/storage/localStore.ts:10:5)');
    expect(text).toContain('at apps/server/src/modules/jobs/systemHandlers.ts:80:3');
    expect(text).toContain('at Object.next (node_modules/kysely/dist/esm/index.js:1:2)');
    expect(text).toContain('at run (node_modules/bullmq/dist/worker.js:5:6)');
    expect(text).toContain('node:internal/process/task_queues:95:5');
  });

  it('run-log exception details: relative frames for a fault, the message alone for a user mistake', () => {
    const detail = exceptionDetail(fault(), dataDir);
    expect(detail).not.toContain(PROJECT_ROOT);
    expect(detail).not.toContain(dataDir);
    expect(detail).toContain('apps/server/src/core/storage/localStore.ts:10:5');
    const refusal = exceptionDetail(new AppError('EMAIL_NOT_CONFIGURED', {}));
    expect(refusal).toMatch(/^尚未配置邮件服务器/);
    expect(refusal).not.toMatch(/\n\s+at /);
  });

  it('a scheduler run that fails writes a run-log row without absolute paths', async () => {
    // the real pipeline: a handler registered for this test fails with a file error naming DATA_DIR
    const { db } = t.app.ctx;
    const before = await db.selectFrom('sys_job_log').select('id').execute();
    const { RunPipeline } = await import('../src/core/scheduler/runner.ts');
    const handlers = new Map([['pathTest.fail', { name: 'pathTest.fail', run: async () => Promise.reject(fault()) } as never]]);
    const pipeline = new RunPipeline({ db, cache: t.app.ctx.cache, handlers, maxFailures: 99, log: t.app.log, listeners: [], pause: async () => undefined, closing: new AbortController().signal });
    await pipeline.run({ key: `path-test-${TEST_DB}`, spec: { jobName: '路径测试', handler: 'pathTest.fail', params: {} } as never, trigger: 'manual', fireTime: null });
    const rows = await db.selectFrom('sys_job_log').selectAll().where('id', 'not in', before.length ? before.map((r) => r.id) : [0]).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].is_success).toBe(0);
    expect(rows[0].exception_detail).toContain('apps/server/src/core/storage/localStore.ts:10:5');
    expect(rows[0].exception_detail).not.toContain(PROJECT_ROOT);
  });
});
