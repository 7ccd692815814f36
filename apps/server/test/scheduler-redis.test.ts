import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { AppConfig } from '../src/config.ts';
import { keysFromPem } from '../src/core/auth/keys.ts';
import { openCache } from '../src/core/cache.ts';
import { openDatabase } from '../src/core/db.ts';
import { LoggingMailSender } from '../src/core/mail.ts';
import { seedDatabase } from '../src/seed/index.ts';
import { bearer, DEV_ADMIN_PASSWORD, login, TEST_DB } from './helpers.ts';

/**
 * The BullMQ engine across instances: two apps on one PostgreSQL schema and one Redis prefix. A job every second
 * runs once per fire (run-log rows counted per fire time), pausing it on one instance stops it on both, and a
 * worker killed mid-run (SIGKILL of a child process) ends as an interrupted run that BullMQ hands to a live
 * worker, never "running" forever. Runs in the PostgreSQL pass (TEST_DB=postgres) with TEST_PG_URL and TEST_REDIS_URL.
 */
const PG = process.env.TEST_PG_URL;
const REDIS = process.env.TEST_REDIS_URL;

describe.skipIf(!PG || !REDIS || TEST_DB !== 'postgres')('scheduler on PostgreSQL + Redis (BullMQ)', () => {
  const schema = `t_sched_${crypto.randomBytes(4).toString('hex')}`;
  const schemaUrl = () => `${PG}${PG?.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keys = keysFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), crypto.randomBytes(32));
  const closers: (() => Promise<void>)[] = [];
  let admin: Awaited<ReturnType<typeof openDatabase>>;

  const config = (prefix: string): AppConfig => ({
    port: 0,
    host: '127.0.0.1',
    dbUrl: 'test',
    redisUrl: REDIS,
    cachePrefix: prefix,
    captchaEnabled: false,
    demoData: false,
    dataDir: path.join(os.tmpdir(), `dp-sched-${crypto.randomBytes(4).toString('hex')}`),
    production: false,
    tokenTtlSeconds: 3600,
    rememberMeTtlSeconds: 3600,
    loginRateLimitPerMinute: 1000,
    logRequests: false,
    scheduler: true,
    schedulerLockMs: 1000,
    jobMaxFailures: 3,
  });

  /** One more instance on the shared schema and Redis prefix. */
  async function instance(prefix: string, register?: (app: FastifyInstance) => void): Promise<FastifyInstance> {
    const database = await openDatabase(schemaUrl());
    const cache = await openCache(REDIS, prefix);
    const app = await buildApp(config(prefix), { database, cache, keys, mail: new LoggingMailSender(() => undefined) });
    await seedDatabase(app.ctx.db, app.ctx.dialect, { adminPassword: undefined, production: false });
    register?.(app);
    await app.ready();
    closers.push(async () => {
      await app.close();
      await database.destroy();
      // this prefix's keys, BullMQ's queue (`<prefix>bull:…`) included, once its worker and queue are closed
      const leftover = await openCache(REDIS, prefix);
      await leftover.clear();
      await leftover.close();
    });
    return app;
  }

  const registerTick = (app: FastifyInstance) =>
    app.scheduler.registerHandler({
      name: 'testTick.count',
      title: '测试：每秒一次',
      async run() {
        await new Promise((r) => setTimeout(r, 50));
        return { summary: 'tick', calcCount: 1 };
      },
    });

  beforeAll(async () => {
    admin = await openDatabase(PG as string);
    await admin.db.schema.createSchema(schema).execute();
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await admin.db.schema.dropSchema(schema).cascade().execute();
    await admin.destroy();
  });

  it('runs a job every second once per fire across two instances; pausing on one stops it on both', async () => {
    const prefix = `test:${crypto.randomBytes(6).toString('hex')}:`;
    const a = await instance(prefix, registerTick);
    const b = await instance(prefix, registerTick);
    expect(a.scheduler.engine).toBe('bullmq');
    const tokenA = await login(a, 'admin', DEV_ADMIN_PASSWORD);
    const tokenB = await login(b, 'admin', DEV_ADMIN_PASSWORD);
    const created = await a.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: bearer(tokenA),
      payload: { jobName: '跨实例每秒', beanName: 'testTick', methodName: 'count', cronExpression: '* * * * * ?', params: '' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    // instance B arms the same rows at its start: simulate a restart of B re-arming (idempotent upsert)
    await b.scheduler.schedule(`job:${id}`, { jobName: '跨实例每秒', cron: '* * * * * ?', handler: 'testTick.count', params: {}, paused: false });
    const rows = async () =>
      (await a.ctx.db.selectFrom('sys_job_log' as any).select(['fire_time', 'is_success']).where('job_key', '=', `job:${id}`).execute()) as { fire_time: string; is_success: number }[];
    const end = Date.now() + 15_000;
    while ((await rows()).length < 4 && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
    const seen = await rows();
    expect(seen.length).toBeGreaterThanOrEqual(4);
    const perFire = new Map<string, number>();
    for (const r of seen) perFire.set(r.fire_time, (perFire.get(r.fire_time) ?? 0) + 1);
    expect([...perFire.values()].every((n) => n === 1)).toBe(true); // one run per fire, whichever instance took it
    expect(seen.every((r) => Number(r.is_success) === 1)).toBe(true);

    // pause through instance B's API: the job scheduler is gone for both
    const paused = await b.inject({ method: 'PUT', url: `/api/jobs/${id}`, headers: bearer(tokenB) });
    expect(paused.json()).toMatchObject({ isPause: true });
    const pausedAt = Date.now();
    await new Promise((r) => setTimeout(r, 2500));
    const after = (await rows()).filter((r) => new Date(r.fire_time).getTime() > pausedAt + 1000);
    expect(after).toEqual([]);
    expect(await a.scheduler.nextRun(`job:${id}`)).toBeNull();
    expect(await b.scheduler.nextRun(`job:${id}`)).toBeNull();
  }, 40_000);

  it('a worker killed mid-run (SIGKILL) ends as an interrupted run that a live worker takes over, never running forever', async () => {
    const prefix = `test:${crypto.randomBytes(6).toString('hex')}:`;
    const key = 'test:killed';
    // the schema's tables come from the first instance (migrated); the child only needs the run log table
    if (closers.length === 0) await instance(`test:${crypto.randomBytes(6).toString('hex')}:`);
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures/scheduler-worker-child.ts')], {
      env: { ...process.env, DB_URL: schemaUrl(), REDIS_URL: REDIS, PREFIX: prefix, KEY: key },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('child did not start its run')), 20_000);
      child.stdout?.on('data', (d: Buffer) => {
        if (d.toString().includes('STARTED')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.on('exit', (code) => reject(new Error(`child exited early (${code})`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    // a live instance on the same queue: its stalled-job check hands the dead worker's run back to the queue
    let retried = 0;
    const c = await instance(prefix, (app) =>
      app.scheduler.registerHandler({
        name: 'testHang.forever',
        title: '测试：接手',
        async run() {
          retried++;
          return { summary: '由存活的实例完成' };
        },
      }),
    );
    expect(await c.scheduler.isRunning(key)).toBe(true); // the dead worker's marker
    const logRows = async () =>
      (await c.ctx.db.selectFrom('sys_job_log' as any).select(['is_success', 'exception_detail', 'summary']).where('job_key', '=', key).orderBy('id').execute()) as Record<string, any>[];
    const end = Date.now() + 20_000;
    while ((await logRows()).length < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
    const rows = await logRows();
    expect(rows.length).toBe(2);
    expect(Number(rows[0].is_success)).toBe(0);
    expect(rows[0].exception_detail).toMatch(/执行中断：运行它的实例已失联/);
    expect(Number(rows[1].is_success)).toBe(1);
    expect(rows[1].summary).toBe('由存活的实例完成');
    expect(retried).toBe(1);
    expect(await c.scheduler.isRunning(key)).toBe(false);
  }, 60_000);
});
