import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';
import { normaliseCron } from './cron.ts';
import { InProcessEngine, type SchedulerEngine } from './inProcessEngine.ts';
import { RunPipeline, schedulerKeys } from './runner.ts';
import type { HandlerSpec, RunEndEvent, ScheduleSpec, Scheduler } from './types.ts';

export type { HandlerSpec, RunContext, RunEndEvent, RunOptions, RunResult, ScheduleSpec, Scheduler } from './types.ts';
export { DEFAULT_RUN_OPTIONS } from './types.ts';
export { normaliseCron, nextFireTimes, SCHEDULER_TIMEZONE } from './cron.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The scheduler (core/scheduler): system jobs and model tasks register handlers and schedules here. */
    scheduler: Scheduler;
  }
}

/** Handler names: `bean.method`, letters, digits and underscores (what a job row's two columns can hold). */
const HANDLER_NAME = /^[A-Za-z][A-Za-z0-9_]{0,49}(\.[A-Za-z][A-Za-z0-9_]{0,49})?$/;

/**
 * Builds the scheduler of one app: a registry of handlers, one run pipeline (runner.ts) and the engine that
 * fires it. The engine is BullMQ when REDIS_URL is set and the scheduler is on (SCHEDULER_ENABLED), the
 * in-process croner engine otherwise. With the scheduler off, nothing fires on this instance and 执行一次
 * runs in the process that was asked.
 */
export async function createScheduler(app: FastifyInstance, opts: { worker?: boolean } = {}): Promise<Scheduler & { start(): Promise<void> }> {
  const { config, db, cache } = app.ctx;
  const useBullMq = !!(config.redisUrl && config.scheduler);
  // BullMQ (~6 MB of heap, ~24 MB of memory) only where it runs: with REDIS_URL
  const { BullEngine } = useBullMq ? await import('./bullmqEngine.ts') : { BullEngine: undefined };
  const handlers = new Map<string, HandlerSpec>();
  const listeners: ((e: RunEndEvent) => void | Promise<void>)[] = [];
  const closing = new AbortController();
  const maxFailures = config.jobMaxFailures ?? 3;
  let engine: SchedulerEngine;
  const pipeline = new RunPipeline({
    db,
    cache,
    handlers,
    maxFailures,
    log: app.log,
    listeners,
    closing: closing.signal,
    pause: (key) => engine.unschedule(key),
  });
  engine =
    BullEngine && config.redisUrl
      ? new BullEngine({ redisUrl: config.redisUrl, prefix: config.cachePrefix, lockMs: config.schedulerLockMs ?? 30_000, worker: opts.worker !== false, misfireGraceMs: config.schedulerMisfireGraceMs }, pipeline, cache, app.log)
      : new InProcessEngine(pipeline, config.scheduler, config.schedulerMisfireGraceMs);
  let closed = false;

  const requireHandler = (name: string) => {
    if (!handlers.has(name)) throw new AppError('JOB_HANDLER_UNKNOWN', { handler: String(name).slice(0, 100) });
  };

  return {
    engine: engine.kind,
    registerHandler(spec) {
      if (!HANDLER_NAME.test(spec.name)) throw new Error(`handler name ${spec.name} must be bean.method (letters, digits, _)`);
      if (handlers.has(spec.name)) throw new Error(`handler ${spec.name} is registered twice`);
      handlers.set(spec.name, spec);
    },
    handlers() {
      return [...handlers.values()].map((h) => ({ name: h.name, title: h.title }));
    },
    async schedule(key: string, spec: ScheduleSpec) {
      requireHandler(spec.handler);
      const { pattern } = normaliseCron(spec.cron);
      await engine.schedule(key, spec, pattern);
    },
    async unschedule(key: string) {
      await engine.unschedule(key);
    },
    async runNow(key, spec) {
      requireHandler(spec.handler);
      if (closed) throw new AppError('JOB_SCHEDULER_UNAVAILABLE', { reason: 'closing' });
      if (spec.options?.overlap !== true && (await cache.get(schedulerKeys.running(key)))) throw new AppError('JOB_RUNNING', {});
      await cache.set(schedulerKeys.progress(key), JSON.stringify({ msg: '排队中', percent: 0 }), 86_400);
      await engine.enqueue({ key, spec, trigger: 'manual', fireTime: null });
    },
    async isRunning(key: string) {
      return (await cache.get(schedulerKeys.running(key))) !== null;
    },
    async progressOf(key: string) {
      const raw = await cache.get(schedulerKeys.progress(key));
      if (!raw) return null;
      try {
        const p = JSON.parse(raw) as { msg: string; percent: number };
        return { msg: String(p.msg), percent: Number(p.percent) };
      } catch {
        return null;
      }
    },
    onRunEnd(listener) {
      listeners.push(listener);
    },
    nextRun(key: string) {
      return engine.nextRun(key);
    },
    async start() {
      await engine.start();
    },
    async close() {
      if (closed) return;
      closed = true;
      closing.abort();
      await engine.close();
    },
  };
}

/**
 * `app.scheduler`, registered before the business modules so they can register handlers and, when the app is
 * ready, arm their rows. The BullMQ worker starts at `onReady` (after every handler is known); `close()` runs
 * when the app closes, before the cache and database are (avvio closes plugins in the reverse order of
 * registration, and this one needs `ctx`, so the `db` and `cache` plugins were registered earlier).
 */
export const schedulerPlugin = fp(
  async (app: FastifyInstance) => {
    const scheduler = await createScheduler(app);
    app.decorate('scheduler', scheduler);
    app.addHook('onReady', async () => {
      await scheduler.start();
    });
    app.addHook('onClose', async () => {
      await scheduler.close();
    });
  },
  { name: 'scheduler', fastify: '5.x', dependencies: ['ctx'] },
);
