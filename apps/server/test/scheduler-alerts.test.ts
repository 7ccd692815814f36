import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { armJobs } from '../src/modules/jobs/jobStore.ts';
import { notifyUsers } from '../src/modules/notices/index.ts';
import { readMail, type SmtpStandIn, STAND_IN_PASS, STAND_IN_USER, startSmtpStandIn } from './email-fixtures.ts';
import { createTestApp, TEST_DB, type TestApp } from './helpers.ts';
import { adminCaller, type Caller, userWithCodes } from './system-fixtures.ts';

/**
 * Alerts and run options (issue 25 item 2, finding M4) on both engines: in-process (croner) and BullMQ with Redis
 * (TEST_REDIS_URL). A job failing N times is paused and its owner and the admins get a notice each (the bell)
 * and an e-mail (SMTP stand-in); retries run a failed attempt again after the interval; a missed fire is run
 * once or skipped by policy; overlapping runs only when allowed. The bell's endpoints show a user their own rows.
 */
const REDIS = process.env.TEST_REDIS_URL;
const ADMIN_MAIL = 'alerts-admin@example.com';
let smtp: SmtpStandIn;
beforeAll(async () => {
  smtp = await startSmtpStandIn('ssl');
});
afterAll(async () => {
  await smtp?.close();
});

const until = async (check: () => Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
};

function engineSuite(engine: 'in-process' | 'bullmq', redisUrl: string | undefined) {
  describe.skipIf(engine === 'bullmq' && !redisUrl)(`alerts and run options, ${engine} engine (${TEST_DB})`, () => {
    let t: TestApp;
    let admin: Caller;
    let flaky = 0;
    let release: () => void = () => undefined;
    beforeAll(async () => {
      t = await createTestApp({ scheduler: true, redisUrl, jobMaxFailures: 2, smtpTlsRejectUnauthorized: false, smtpHostAllowlist: ['127.0.0.1'], schedulerLockMs: 2000, schedulerMisfireGraceMs: 1000 });
      expect(t.app.scheduler.engine).toBe(engine);
      admin = await adminCaller(t);
      await t.app.ctx.db.updateTable('sys_user').set({ email: ADMIN_MAIL } as never).where('username', '=', 'admin').execute();
      t.app.scheduler.registerHandler({ name: 'alertTest.fail', title: '测试：总是失败', async run() { throw new Error('数据源连接失败'); } });
      t.app.scheduler.registerHandler({ name: 'alertTest.flaky', title: '测试：第一次失败', async run() { flaky++; if (flaky % 2 === 1) throw new Error(`第${flaky}次失败`); return { summary: `第${flaky}次成功` }; } });
      t.app.scheduler.registerHandler({ name: 'alertTest.ok', title: '测试：成功', async run() { return { summary: '完成' }; } });
      t.app.scheduler.registerHandler({
        name: 'alertTest.gate',
        title: '测试：等待放行',
        run: (ctx) => new Promise((resolve) => { release = () => resolve({ summary: '已放行' }); ctx.signal.addEventListener('abort', () => resolve(undefined)); }),
      });
    });
    afterAll(async () => {
      await t?.close();
    });

    const createJob = async (handler: string, over: Record<string, unknown> = {}) => {
      const [beanName, methodName] = handler.split('.');
      const res = await admin('POST', '/api/jobs', { jobName: `告警${Math.random().toString(36).slice(2, 8)}`, beanName, methodName, cronExpression: '0 0 3 1 * ?', params: '', isPause: true, ...over });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as number;
    };
    const logs = (id: number) => t.app.ctx.db.selectFrom('sys_job_log').selectAll().where('job_key', '=', `job:${id}`).orderBy('id').execute();

    it('validates the run options on save and shows them on the row', async () => {
      const bad = await admin('POST', '/api/jobs', { jobName: 'bad-options', beanName: 'alertTest', methodName: 'ok', cronExpression: '0 0 3 1 * ?', retryCount: 11 });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain('重试次数必须是0到10之间的整数');
      const badPolicy = await admin('POST', '/api/jobs', { jobName: 'bad-policy', beanName: 'alertTest', methodName: 'ok', cronExpression: '0 0 3 1 * ?', misfirePolicy: 'later' });
      expect(badPolicy.statusCode).toBe(400);
      const id = await createJob('alertTest.ok', { retryCount: 3, retryIntervalSec: 5, misfirePolicy: 'skip', allowOverlap: true });
      const row = (await admin('GET', '/api/jobs?size=100')).json().content.find((r: { id: number }) => r.id === id);
      expect(row).toMatchObject({ retryCount: 3, retryIntervalSec: 5, misfirePolicy: 'skip', allowOverlap: true });
    });

    it('after N failures pauses the job and tells the owner and the admins: a notice each and an e-mail', async () => {
      const res = await admin('PUT', '/api/email', { id: 1, fromUser: STAND_IN_USER, user: STAND_IN_USER, pass: STAND_IN_PASS, host: '127.0.0.1', port: smtp.port, sslEnable: true });
      expect(res.statusCode).toBe(204);
      const owner = await userWithCodes(t, ['JOB_SELECT']);
      const id = await createJob('alertTest.fail', { cronExpression: '* * * * * ?', isPause: false });
      await t.app.ctx.db.updateTable('sys_scheduled_job').set({ owner_id: owner.id }).where('id', '=', id).execute();
      await until(async () => (await admin('GET', '/api/jobs?size=100')).json().content.find((r: { id: number }) => r.id === id)?.isPause === true);
      const failed = (await logs(id)).filter((l) => Number(l.is_success) === 0);
      expect(failed.length).toBe(2);
      expect(failed[1].exception_detail).toContain('连续失败 2 次，任务已自动暂停');
      await until(async () => (await t.app.ctx.db.selectFrom('sys_notice').select('id').where('title', 'like', `%已自动暂停%`).where('user_id', '=', owner.id).execute()).length === 1);
      const mine = (await owner.call('GET', '/api/notices')).json();
      const titles = mine.content.map((n: { title: string }) => n.title);
      expect(titles.some((x: string) => /定时任务「告警.+」运行失败/.test(x))).toBe(true);
      expect(titles.some((x: string) => /定时任务「告警.+」连续失败，已自动暂停/.test(x))).toBe(true);
      expect(mine.content[0].content).toContain('数据源连接失败');
      expect(mine.unread).toBe(2);
      const adminNotices = (await admin('GET', '/api/notices?unread=true')).json();
      expect(adminNotices.content.filter((n: { title: string }) => n.title.includes('已自动暂停')).length).toBeGreaterThanOrEqual(1);
      const paused = readMail((await smtp.next(ADMIN_MAIL)).raw);
      expect(paused.subject).toMatch(/定时任务「告警.+」/);
    });

    it('retries a failed attempt after the interval; the run counts as failed only when every attempt failed', async () => {
      flaky = 0;
      const id = await createJob('alertTest.flaky', { retryCount: 2, retryIntervalSec: 1 });
      const before = (await admin('GET', '/api/notices')).json().totalElements;
      expect((await admin('PUT', `/api/jobs/exec/${id}`)).statusCode).toBe(200);
      await until(async () => (await logs(id)).length === 2);
      const rows = await logs(id);
      expect(Number(rows[0].is_success)).toBe(0);
      expect(rows[0].exception_detail).toContain('第 1 次尝试失败，1 秒后重试（最多重试 2 次）');
      expect(Number(rows[1].is_success)).toBe(1);
      expect(rows[1].summary).toBe('第 2 次尝试成功；第2次成功');
      const job = (await admin('GET', '/api/jobs?size=100')).json().content.find((r: { id: number }) => r.id === id);
      expect(job).toMatchObject({ lastSuccess: true, consecutiveFailures: 0 });
      // no alert for a run that succeeded on a retry
      expect((await admin('GET', '/api/notices')).json().totalElements).toBe(before);

      const always = await createJob('alertTest.fail', { retryCount: 1, retryIntervalSec: 1 });
      expect((await admin('PUT', `/api/jobs/exec/${always}`)).statusCode).toBe(200);
      await until(async () => (await logs(always)).length === 2);
      expect((await logs(always))[1].exception_detail).toContain('共尝试 2 次，均失败');
    });

    it('runs overlapping runs only when allowed', async () => {
      const single = await createJob('alertTest.gate');
      expect((await admin('PUT', `/api/jobs/exec/${single}`)).statusCode).toBe(200);
      await until(() => t.app.scheduler.isRunning(`job:${single}`));
      expect((await admin('PUT', `/api/jobs/exec/${single}`)).statusCode).toBe(409);
      release();
      await until(async () => (await logs(single)).length === 1);

      const overlapping = await createJob('alertTest.gate', { allowOverlap: true });
      expect((await admin('PUT', `/api/jobs/exec/${overlapping}`)).statusCode).toBe(200);
      await until(() => t.app.scheduler.isRunning(`job:${overlapping}`));
      const firstRelease = release;
      expect((await admin('PUT', `/api/jobs/exec/${overlapping}`)).statusCode).toBe(200);
      await until(async () => release !== firstRelease);
      firstRelease();
      release();
      await until(async () => (await logs(overlapping)).filter((l) => Number(l.is_success) === 1).length === 2);
    });

    it('a missed fire is run once or skipped by the misfire policy', async () => {
      const once = await createJob('alertTest.ok', { cronExpression: '0 * * * * ?', misfirePolicy: 'once' });
      const skip = await createJob('alertTest.ok', { cronExpression: '0 * * * * ?', misfirePolicy: 'skip' });
      const longAgo = new Date(Date.now() - 10 * 60_000).toISOString();
      if (engine === 'in-process') {
        // the instance was down for ten minutes: at start the rows are armed again
        await t.app.ctx.db.updateTable('sys_scheduled_job').set({ is_pause: 0, last_run_time: longAgo, update_time: longAgo, create_time: longAgo }).where('id', 'in', [once, skip]).execute();
        await armJobs(t.app);
      } else {
        // a fire that waited in Redis while no worker ran (BullMQ's job timestamp is its fire time)
        const connection = new Redis(redisUrl as string, { maxRetriesPerRequest: null });
        const queue = new Queue('scheduler', { connection, prefix: `${t.config.cachePrefix}bull` });
        for (const [id, policy] of [[once, 'once'], [skip, 'skip']] as const) {
          await queue.add('fire', { key: `job:${id}`, spec: { jobName: `job${id}`, handler: 'alertTest.ok', params: {}, cron: '0 * * * * ?', options: { misfire: policy } }, trigger: 'cron' }, { timestamp: Date.parse(longAgo), removeOnComplete: true });
        }
        await queue.close();
        await connection.quit();
      }
      await until(async () => (await logs(once)).length >= 1 && (await logs(skip)).length >= 1);
      const [ran] = await logs(once);
      const [skipped] = await logs(skip);
      expect(Number(ran.is_success)).toBe(1);
      expect(ran.summary).toMatch(/^补跑错过的触发（.+）；完成$/);
      expect(skipped.summary).toMatch(/^错过触发时间（.+），按错过策略跳过$/);
      await t.app.ctx.db.updateTable('sys_scheduled_job').set({ is_pause: 1 }).where('id', 'in', [once, skip]).execute();
      await t.app.scheduler.unschedule(`job:${once}`);
      await t.app.scheduler.unschedule(`job:${skip}`);
    });

    it("the bell's endpoints show and mark only the caller's own notices", async () => {
      const a = await userWithCodes(t, []);
      const b = await userWithCodes(t, []);
      await notifyUsers(t.app, [a.id], { kind: 'job_failed', title: 'A 的通知', content: '给 A', link: '/tools/timing' });
      await notifyUsers(t.app, [b.id], { kind: 'job_failed', title: 'B 的通知', content: '给 B', link: null });
      const listA = (await a.call('GET', '/api/notices')).json();
      expect(listA).toMatchObject({ totalElements: 1, unread: 1 });
      expect(listA.content[0]).toMatchObject({ title: 'A 的通知', read: false, link: '/tools/timing' });
      const bId = (await b.call('GET', '/api/notices')).json().content[0].id;
      // A marking B's notice changes nothing
      expect((await a.call('PUT', '/api/notices/read', { ids: [bId] })).json()).toEqual({ updated: 0 });
      expect((await b.call('GET', '/api/notices')).json().unread).toBe(1);
      expect((await a.call('PUT', '/api/notices/read', {})).json()).toEqual({ updated: 1 });
      expect((await a.call('GET', '/api/notices')).json()).toMatchObject({ unread: 0, totalElements: 1 });
      expect((await a.call('GET', '/api/notices?unread=true')).json().totalElements).toBe(0);
      expect((await t.app.inject({ method: 'GET', url: '/api/notices' })).statusCode).toBe(401);
      expect((await a.call('GET', '/api/notices?size=1000')).statusCode).toBe(400);
    });
  });
}

engineSuite('in-process', undefined);
engineSuite('bullmq', REDIS);
