import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from './helpers.ts';

/** The scheduler plugin's run pipeline on the in-process engine (croner): log rows, timeouts, auto-pause. */
const t = await createTestApp({ scheduler: true, redisUrl: undefined, jobMaxFailures: 3 });
afterAll(async () => {
  await t.close();
});
const { app } = t;

const until = async (check: () => Promise<boolean>, ms = 8000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
};
const logRows = (key: string) =>
  app.ctx.db.selectFrom('sys_job_log').selectAll().where('job_key', '=', key).orderBy('id').execute() as Promise<Record<string, any>[]>;

let counter = 0;
app.scheduler.registerHandler({
  name: 'testCounter.tick',
  title: '测试：计数',
  async run(ctx) {
    counter++;
    await ctx.progress('计数中', 0.5);
    return { summary: `第 ${counter} 次`, outputCount: 2, calcCount: 5 };
  },
});
app.scheduler.registerHandler({
  name: 'testSlow.sleep',
  title: '测试：超时',
  timeoutMs: 300,
  run: (ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
});
app.scheduler.registerHandler({
  name: 'testFail.always',
  title: '测试：失败',
  async run() {
    throw new Error('connect failed postgres://payroll:hunter2@db.internal:5432/x password=hunter2');
  },
});

describe(`in-process engine (${app.scheduler.engine})`, () => {
  it('runs a job every second and writes one log row per fire with its counts', async () => {
    expect(app.scheduler.engine).toBe('in-process');
    await app.scheduler.schedule('test:every-second', { jobName: '每秒计数', cron: '* * * * * ?', handler: 'testCounter.tick', params: { a: 1, password: 'x' }, paused: false });
    expect(await app.scheduler.nextRun('test:every-second')).toBeInstanceOf(Date);
    await until(async () => (await logRows('test:every-second')).length >= 2);
    await app.scheduler.unschedule('test:every-second');
    const rows = await logRows('test:every-second');
    const fires = rows.map((r) => r.fire_time);
    expect(new Set(fires).size).toBe(fires.length); // one row per fire
    expect(rows[0]).toMatchObject({ job_name: '每秒计数', bean_name: 'testCounter', method_name: 'tick', trigger_kind: 'cron', output_count: 2, calc_count: 5, cron_expression: '* * * * * ?' });
    expect(Number(rows[0].is_success)).toBe(1);
    expect(rows[0].summary).toMatch(/^第 \d+ 次$/);
    expect(JSON.parse(rows[0].params)).toEqual({ a: 1, password: '******' });
    expect(await app.scheduler.progressOf('test:every-second')).toMatchObject({ percent: 1 });
    expect(await app.scheduler.nextRun('test:every-second')).toBeNull();
  });

  it('ends a run at its timeout (AbortSignal) and logs 超时终止; refuses a second run while one runs (409)', async () => {
    await app.scheduler.runNow('test:slow', { jobName: '慢任务', handler: 'testSlow.sleep', params: {} });
    await until(() => app.scheduler.isRunning('test:slow'));
    await expect(app.scheduler.runNow('test:slow', { jobName: '慢任务', handler: 'testSlow.sleep', params: {} })).rejects.toMatchObject({ status: 409, code: 'JOB_RUNNING' });
    await until(async () => (await logRows('test:slow')).length === 1);
    const [row] = await logRows('test:slow');
    expect(Number(row.is_success)).toBe(0);
    expect(row.exception_detail).toMatch(/超时终止/);
    expect(row.trigger_kind).toBe('manual');
    expect(await app.scheduler.isRunning('test:slow')).toBe(false);
  });

  it('pauses a schedule after three consecutive failures, with an alert line, and masks secrets in the detail', async () => {
    const ended: { autoPaused: boolean; key: string }[] = [];
    app.scheduler.onRunEnd((e) => {
      if (e.key === 'test:failing') ended.push(e);
    });
    await app.scheduler.schedule('test:failing', { jobName: '总是失败', cron: '* * * * * ?', handler: 'testFail.always', params: {}, paused: false });
    await until(() => Promise.resolve(ended.some((e) => e.autoPaused)));
    expect(await app.scheduler.nextRun('test:failing')).toBeNull(); // disarmed by the auto-pause
    const rows = await logRows('test:failing');
    expect(rows.length).toBe(3);
    expect(rows.every((r) => Number(r.is_success) === 0)).toBe(true);
    expect(rows[2].exception_detail).toMatch(/【告警】连续失败 3 次，任务已自动暂停/);
    expect(rows[0].exception_detail).not.toMatch(/【告警】/);
    for (const r of rows) {
      expect(r.exception_detail).not.toContain('hunter2');
      expect(r.exception_detail).toContain('connect failed');
    }
    expect(ended.map((e) => e.autoPaused)).toEqual([false, false, true]);
  });

  it('refuses an unknown handler and a bad cron', async () => {
    await expect(app.scheduler.schedule('test:x', { jobName: 'x', cron: '* * * * * ?', handler: 'java.lang.Runtime', params: {}, paused: false })).rejects.toMatchObject({ status: 400, code: 'JOB_HANDLER_UNKNOWN' });
    await expect(app.scheduler.runNow('test:x', { jobName: 'x', handler: 'nope', params: {} })).rejects.toMatchObject({ status: 400 });
    await expect(app.scheduler.schedule('test:x', { jobName: 'x', cron: '0 0 1 * * ? 2020', handler: 'testCounter.tick', params: {}, paused: false })).rejects.toMatchObject({ status: 400, code: 'JOB_CRON_NEVER' });
  });
});
