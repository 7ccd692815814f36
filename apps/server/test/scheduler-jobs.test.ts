import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from './helpers.ts';
import { adminCaller, userWithCodes } from './system-fixtures.ts';

/**
 * 系统工具 › 定时任务 (spec §7 jobs variant): /api/jobs and /api/jobLogs over the scheduler, on the in-process
 * engine with the scheduler off (nothing fires by itself; 执行一次 runs in this process).
 */
const t = await createTestApp({ redisUrl: undefined });
afterAll(async () => {
  await t.close();
});
const admin = await adminCaller(t);
const { app } = t;

let release: () => void = () => undefined;
app.scheduler.registerHandler({
  name: 'testGate.wait',
  title: '测试：等待放行',
  run: (ctx) =>
    new Promise((resolve) => {
      release = () => resolve({ summary: '已放行', outputCount: 1 });
      ctx.signal.addEventListener('abort', () => resolve(undefined));
    }),
});
app.scheduler.registerHandler({
  name: 'testBoom.fail',
  title: '测试：失败',
  async run() {
    throw new Error('boom with secret=abc123');
  },
});

const until = async (check: () => Promise<boolean>, ms = 5000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error('condition not met in time');
};
const body = (over: Record<string, unknown> = {}) => ({ jobName: `任务${Math.random().toString(36).slice(2, 8)}`, beanName: 'testGate', methodName: 'wait', cronExpression: '0 0/5 * * * ?', params: '', remark: '测试', ...over });

describe('seeded system jobs and handlers', () => {
  it('lists the seeded jobs (contract reminders, log retention, run-log retention) once, and the registered handlers', async () => {
    const res = await admin('GET', '/api/jobs?size=50');
    expect(res.statusCode).toBe(200);
    const names = res.json().content.map((r: { jobName: string }) => r.jobName);
    for (const n of ['合同到期提醒', '日志清理', '执行日志清理']) expect(names.filter((x: string) => x === n)).toHaveLength(1);
    const reminder = res.json().content.find((r: { jobName: string }) => r.jobName === '合同到期提醒');
    expect(reminder).toMatchObject({ beanName: 'contractReminderTask', methodName: 'refresh', cronExpression: '0 0 1 * * ?', isPause: false, running: false });
    // a second start seeds nothing new
    const { seedSystemJobs } = await import('../src/modules/jobs/jobStore.ts');
    await seedSystemJobs(app);
    expect((await admin('GET', '/api/jobs?size=50')).json().totalElements).toBe(res.json().totalElements);

    const handlers = (await admin('GET', '/api/jobs/handlers')).json();
    expect(handlers.map((h: { name: string }) => h.name)).toEqual(expect.arrayContaining(['contractReminderTask.refresh', 'logRetentionTask.run', 'jobLogRetentionTask.run', 'testGate.wait']));
    expect(handlers.some((h: { name: string }) => h.name.startsWith('modelTask.'))).toBe(false);
    expect(handlers[0]).toHaveProperty('title');
  });

  it('previews the next fire times of a Quartz expression, and refuses a bad one with the catalogue message', async () => {
    const ok = await admin('GET', `/api/jobs/nextRuns?cron=${encodeURIComponent('0 0/5 * * * ?')}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().times).toHaveLength(5);
    expect(new Date(ok.json().times[0]).getUTCMinutes() % 5).toBe(0);
    const bad = await admin('GET', `/api/jobs/nextRuns?cron=${encodeURIComponent('0 0 1 * * ? 2020')}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'JOB_CRON_NEVER', message: 'cron表达式 0 0 1 * * ? 2020 以后不会再触发' });
    const en = await admin('GET', `/api/jobs/nextRuns?cron=x`, undefined, { headers: { ...(await bearerOf()), 'accept-language': 'en' } });
    expect(en.json().message).toMatch(/^Invalid cron expression: x/);
  });
});

async function bearerOf() {
  const { login, DEV_ADMIN_PASSWORD, bearer } = await import('./helpers.ts');
  return bearer(await login(app, 'admin', DEV_ADMIN_PASSWORD));
}

describe('create, edit, toggle, execute, delete', () => {
  it('creates (201) a job naming a registered handler, refuses unknown handlers, bad cron, bad params and a taken name', async () => {
    const created = await admin('POST', '/api/jobs', body({ jobName: '测试任务A', params: '{"x": 1}' }));
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ jobName: '测试任务A', beanName: 'testGate', methodName: 'wait', params: '{"x":1}', isPause: false });

    const unknown = await admin('POST', '/api/jobs', body({ beanName: 'java.lang.Runtime', methodName: 'exec' }));
    expect(unknown.statusCode).toBe(400);
    const unknown2 = await admin('POST', '/api/jobs', body({ beanName: 'java', methodName: 'exec' }));
    expect(unknown2.statusCode).toBe(400);
    expect(unknown2.json()).toMatchObject({ code: 'JOB_HANDLER_UNKNOWN', message: '没有名为 java.exec 的任务处理器，请从列表中选择' });
    // the model-task runner is not a system handler
    expect((await admin('POST', '/api/jobs', body({ beanName: 'modelTask', methodName: 'run' }))).statusCode).toBe(400);
    expect((await admin('POST', '/api/jobs', body({ cronExpression: '0 0 25 * * ?' }))).json().code).toBe('JOB_CRON_INVALID');
    expect((await admin('POST', '/api/jobs', body({ cronExpression: '0 0 1 1 * 2' }))).json().code).toBe('JOB_CRON_DAY_AND_WEEK');
    expect((await admin('POST', '/api/jobs', body({ params: '[1,2]' }))).json().code).toBe('JOB_PARAMS_INVALID');
    expect((await admin('POST', '/api/jobs', body({ params: '{oops' }))).json().code).toBe('JOB_PARAMS_INVALID');
    const days = await admin('POST', '/api/jobs', body({ beanName: 'logRetentionTask', methodName: 'run', params: '{"days": 0}' }));
    expect(days.statusCode).toBe(400);
    expect(days.json().message).toContain('days 必须是1到3650之间的整数');
    const missing = await admin('POST', '/api/jobs', { beanName: 'testGate', methodName: 'wait', cronExpression: '* * * * *' });
    expect(missing.statusCode).toBe(400);
    const taken = await admin('POST', '/api/jobs', body({ jobName: '测试任务A' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('JOB_NAME_TAKEN');
    expect((await admin('GET', `/api/jobs?jobName=${encodeURIComponent('测试任务')}`)).json().totalElements).toBe(1);
  });

  it('edits (204), toggles pause and resume, runs once (also when paused), refuses delete while running (409)', async () => {
    const id = (await admin('GET', `/api/jobs?jobName=${encodeURIComponent('测试任务A')}`)).json().content[0].id;
    const put = await admin('PUT', '/api/jobs', { id, ...body({ jobName: '测试任务A', cronExpression: '0 15 10 ? * 6L', remark: '改过' }) });
    expect(put.statusCode).toBe(204);
    const toggled = await admin('PUT', `/api/jobs/${id}`);
    expect(toggled.statusCode).toBe(200);
    expect(toggled.json()).toEqual({ id, isPause: true });
    const row = (await admin('GET', `/api/jobs?jobName=${encodeURIComponent('测试任务A')}`)).json().content[0];
    expect(row).toMatchObject({ isPause: true, cronExpression: '0 15 10 ? * 6L', remark: '改过', nextRunTime: null });

    // 执行一次 on a paused job runs it; a second while it runs is a 409, and so is delete
    expect((await admin('PUT', `/api/jobs/exec/${id}`)).statusCode).toBe(200);
    await until(() => app.scheduler.isRunning(`job:${id}`));
    expect((await admin('GET', `/api/jobs?jobName=${encodeURIComponent('测试任务A')}`)).json().content[0].running).toBe(true);
    const again = await admin('PUT', `/api/jobs/exec/${id}`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('JOB_RUNNING');
    const del = await admin('DELETE', `/api/jobs/${id}`);
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toBe('任务正在执行中，请等待本次执行结束');
    expect((await admin('DELETE', '/api/jobs', [id])).statusCode).toBe(409);
    release();
    await until(async () => !(await app.scheduler.isRunning(`job:${id}`)));
    await until(async () => (await admin('GET', `/api/jobLogs?jobName=${encodeURIComponent('测试任务A')}`)).json().totalElements === 1);
    const after = (await admin('GET', `/api/jobs?jobName=${encodeURIComponent('测试任务A')}`)).json().content[0];
    expect(after).toMatchObject({ isPause: true, lastSuccess: true, consecutiveFailures: 0 }); // still paused after the run

    expect((await admin('PUT', `/api/jobs/${id}`)).json()).toEqual({ id, isPause: false });
    // a batch naming a job that does not exist deletes none of them (found by the route fuzzer)
    expect((await admin('DELETE', '/api/jobs', [id, 987654])).statusCode).toBe(404);
    expect((await admin('GET', `/api/jobs?jobName=${encodeURIComponent('测试任务A')}`)).json().content).toHaveLength(1);
    expect((await admin('DELETE', `/api/jobs/${id}`)).statusCode).toBe(200);
    const gone = await admin('DELETE', `/api/jobs/${id}`);
    expect(gone.statusCode, gone.body).toBe(404);
    expect((await admin('PUT', `/api/jobs/exec/${id}`)).statusCode).toBe(404);
    expect((await admin('PUT', '/api/jobs/abc')).statusCode).toBe(400);
  });
});

describe('run log', () => {
  it('lists runs (size 6 by default) filtered by job name and success, and reads one exception detail with secrets masked', async () => {
    const ok = (await admin('POST', '/api/jobs', body({ jobName: '日志测试成功', beanName: 'jobLogRetentionTask', methodName: 'run', params: '{"days": 30}' }))).json();
    const bad = (await admin('POST', '/api/jobs', body({ jobName: '日志测试失败', beanName: 'testBoom', methodName: 'fail' }))).json();
    for (let i = 0; i < 4; i++) {
      for (const job of [ok, bad]) {
        await admin('PUT', `/api/jobs/exec/${job.id}`);
        await until(async () => !(await app.scheduler.isRunning(`job:${job.id}`)));
      }
    }
    await until(async () => (await admin('GET', `/api/jobLogs?jobName=${encodeURIComponent('日志测试')}&size=50`)).json().totalElements === 8);
    const page = (await admin('GET', `/api/jobLogs?jobName=${encodeURIComponent('日志测试')}`)).json();
    expect(page.content).toHaveLength(6);
    expect(page.content[0]).toMatchObject({ trigger: 'manual', fireTime: null });
    const failed = (await admin('GET', `/api/jobLogs?jobName=${encodeURIComponent('日志测试')}&isSuccess=false&size=50`)).json();
    expect(failed.totalElements).toBe(4);
    expect(failed.content.every((r: { isSuccess: boolean; jobName: string; hasException: boolean }) => !r.isSuccess && r.jobName === '日志测试失败' && r.hasException)).toBe(true);
    const succeeded = (await admin('GET', `/api/jobLogs?jobName=${encodeURIComponent('日志测试')}&isSuccess=true&size=50`)).json();
    expect(succeeded.content[0]).toMatchObject({ beanName: 'jobLogRetentionTask', methodName: 'run', isSuccess: true, params: '{"days":30}' });
    expect(succeeded.content[0].summary).toMatch(/^删除 30 天前的执行日志 \d+ 条$/);
    const detail = await admin('GET', `/api/jobLogs/${failed.content[0].id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().exceptionDetail).toContain('boom with secret=******');
    expect(detail.json().exceptionDetail).not.toContain('abc123');
    // manual runs do not pause a job, however often they fail; the row counts the streak
    const badRow = (await admin('GET', `/api/jobs?jobName=${encodeURIComponent('日志测试失败')}`)).json().content[0];
    expect(badRow).toMatchObject({ isPause: false, consecutiveFailures: 4, lastSuccess: false });
    expect((await admin('GET', '/api/jobLogs/999999')).statusCode).toBe(404);
    expect((await admin('GET', '/api/jobLogs?isSuccess=maybe')).statusCode).toBe(400);
  });
});

describe('permissions (JOB_*)', () => {
  it('guards every endpoint by its code', async () => {
    const reader = await userWithCodes(t, ['JOB_SELECT']);
    const creator = await userWithCodes(t, ['JOB_CREATE']);
    const editor = await userWithCodes(t, ['JOB_EDIT']);
    const deleter = await userWithCodes(t, ['JOB_DELETE']);
    const nobody = await userWithCodes(t, ['DICT_SELECT']);
    const job = (await admin('POST', '/api/jobs', body({ jobName: '权限测试', beanName: 'jobLogRetentionTask', methodName: 'run' }))).json();
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/jobs'],
      ['GET', '/api/jobs/handlers'],
      ['GET', `/api/jobs/nextRuns?cron=${encodeURIComponent('0 1 * * *')}`],
      ['POST', '/api/jobs', body({ jobName: `权限新增${Math.random()}`, beanName: 'jobLogRetentionTask', methodName: 'run' })],
      ['PUT', '/api/jobs', { id: job.id, ...body({ jobName: '权限测试', beanName: 'jobLogRetentionTask', methodName: 'run' }) }],
      ['PUT', `/api/jobs/exec/${job.id}`],
      ['GET', '/api/jobLogs'],
      ['DELETE', '/api/jobs/999999'],
    ];
    const allowed: Record<string, string[]> = {
      reader: ['GET /api/jobs', 'GET /api/jobs/handlers', 'GET /api/jobs/nextRuns', 'GET /api/jobLogs'],
      creator: ['GET /api/jobs/handlers', 'GET /api/jobs/nextRuns', 'POST /api/jobs'],
      editor: ['GET /api/jobs/handlers', 'GET /api/jobs/nextRuns', 'PUT /api/jobs', 'PUT /api/jobs/exec'],
      deleter: ['DELETE /api/jobs'],
      nobody: [],
    };
    for (const [who, user] of Object.entries({ reader, creator, editor, deleter, nobody })) {
      for (const [method, url, payload] of calls) {
        const res = await user.call(method as 'GET', url, payload);
        const name = `${method} ${url.split('?')[0].replace(/\/\d+$/, '')}`;
        if (allowed[who].includes(name)) expect(res.statusCode, `${who} ${name}`).not.toBe(403);
        else expect(res.statusCode, `${who} ${name}`).toBe(403);
      }
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/jobs' })).statusCode).toBe(401);
  });
});
