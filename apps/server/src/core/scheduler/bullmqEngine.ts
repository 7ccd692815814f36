import { Cron } from 'croner';
import { Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { CHINA_TIME, SCHEDULER_TIMEZONE } from './cron.ts';
import type { SchedulerEngine } from './inProcessEngine.ts';
import { INSTANCE_NAME, type RunPipeline, type RunRequest, runOptionsOf, schedulerKeys } from './runner.ts';
import type { Cache } from '../cache.ts';
import type { ScheduleSpec } from './types.ts';

/** What a queued run carries (a job scheduler's template or a 执行一次). */
interface RunJobData {
  key: string;
  spec: RunRequest['spec'];
  trigger: 'cron' | 'manual';
}

export interface BullEngineOptions {
  redisUrl: string;
  /** The application's key prefix (`config.cachePrefix`): queues of two apps or test runs never meet. */
  prefix: string;
  /** How long a worker's lock on a run lasts without renewal; a killed worker's run is taken back after it. */
  lockMs: number;
  /** Start a worker in this instance (every instance does; a child test process may start one alone). */
  worker: boolean;
  /** A cron fire processed later than this (ms) is a misfire (SCHEDULER_MISFIRE_GRACE_MS, default 60000). */
  misfireGraceMs?: number;
}

/**
 * Fires from the same croner patterns as the embedded engine, through BullMQ: for every key a job scheduler
 * (`upsertJobScheduler`) whose next fire time comes from croner (`repeatStrategy`, so Quartz `L`, `#`, years and
 * Asia/Shanghai behave exactly as in-process). Each fire is one BullMQ job with the id `repeat:<key>:<millis>`,
 * so instances that all upsert the same scheduler still produce one job per fire, and one worker takes it.
 *
 * A worker that dies mid-run stops renewing its lock; BullMQ's stalled-job check (every `lockMs`) on another
 * instance puts the run back in the queue once (`maxStalledCount` 1) and fails it the second time. Both are
 * written to the run log here, so no run stays "running": the marker key is taken over by the retried job
 * (same job id) or released when the job fails.
 */
export class BullEngine implements SchedulerEngine {
  readonly kind = 'bullmq' as const;
  private queue: Queue;
  private worker?: Worker;
  private connections: Redis[] = [];
  static readonly QUEUE_NAME = 'scheduler';

  constructor(
    private opts: BullEngineOptions,
    private pipeline: RunPipeline,
    private cache: Cache,
    private log: FastifyBaseLogger,
  ) {
    const connection = this.connect();
    this.queue = new Queue(BullEngine.QUEUE_NAME, { connection, prefix: this.bullPrefix(), settings: { repeatStrategy: croneRepeatStrategy } });
    this.queue.on('error', (err) => this.log.error({ err }, 'scheduler queue error'));
  }

  private bullPrefix(): string {
    return `${this.opts.prefix}bull`;
  }

  private connect(): Redis {
    // BullMQ's blocking worker connection needs maxRetriesPerRequest null
    const redis = new Redis(this.opts.redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: true });
    redis.on('error', (err) => this.log.warn({ err: err.message }, 'scheduler redis connection error'));
    this.connections.push(redis);
    return redis;
  }

  async start(): Promise<void> {
    await this.queue.waitUntilReady();
    if (!this.opts.worker) return;
    const worker = new Worker<RunJobData>(BullEngine.QUEUE_NAME, (job) => this.process(job), {
      connection: this.connect(),
      prefix: this.bullPrefix(),
      concurrency: 4,
      lockDuration: this.opts.lockMs,
      stalledInterval: this.opts.lockMs,
      maxStalledCount: 1,
      settings: { repeatStrategy: croneRepeatStrategy },
    });
    worker.on('error', (err) => this.log.error({ err }, 'scheduler worker error'));
    worker.on('stalled', (jobId) => void this.onStalled(jobId));
    worker.on('failed', (job, err) => void this.onFailed(job, err));
    this.worker = worker;
    await worker.waitUntilReady();
  }

  private async process(job: Job<RunJobData>): Promise<void> {
    const { key, spec, trigger } = job.data;
    const fireMillis = trigger === 'cron' ? Number(job.opts.prevMillis ?? job.timestamp) : null;
    const req = { key, spec, trigger, fireTime: fireMillis ? new Date(fireMillis) : null, token: `bull:${job.id}` };
    // a fire taken up this late waited in Redis while no worker ran: the job's misfire policy decides
    // (BullMQ keeps one pending fire per scheduler, so "once" runs it once however many were missed)
    if (fireMillis && Date.now() - fireMillis > (this.opts.misfireGraceMs ?? 60_000)) {
      if (runOptionsOf(spec).misfire === 'skip') return this.pipeline.skipMisfire(req);
      await this.pipeline.run({ ...req, misfired: true }, (p) => job.updateProgress(p));
      return;
    }
    await this.pipeline.run(req, (p) => job.updateProgress(p));
  }

  /** A run whose worker vanished: BullMQ queued it again; say so in the run log. */
  private async onStalled(jobId: string): Promise<void> {
    const job = await Job.fromId<RunJobData>(this.queue, jobId).catch(() => undefined);
    if (!job) return;
    await this.logUnfinishedRun(job, '执行中断：运行它的实例已失联（进程退出或被终止），本次运行已重新排队');
  }

  /**
   * The processor never throws (the pipeline logs handler errors), so a failed job is one BullMQ gave up on:
   * stalled twice, or its lock was lost. Log it and free the key.
   */
  private async onFailed(job: Job<RunJobData> | undefined, err: Error): Promise<void> {
    if (!job) return;
    const marker = schedulerKeys.running(job.data.key);
    if ((await this.cache.get(marker)) === `bull:${job.id}`) await this.cache.del(marker);
    await this.logUnfinishedRun(job, `执行失败：${err.message}`);
  }

  /** The run-log row of a run that its handler did not finish (the pipeline logs the runs that did). */
  private logUnfinishedRun(job: Job<RunJobData>, exceptionDetail: string): Promise<void> {
    const { key, spec, trigger } = job.data;
    return this.pipeline.writeLog({
      key,
      jobName: spec.jobName,
      handler: spec.handler,
      params: spec.params,
      cron: spec.cron ?? null,
      trigger,
      fireTime: trigger === 'cron' && job.opts.prevMillis ? new Date(job.opts.prevMillis) : null,
      ok: false,
      ms: job.processedOn ? Date.now() - job.processedOn : 0,
      exceptionDetail,
      instance: INSTANCE_NAME,
    });
  }

  async schedule(key: string, spec: ScheduleSpec, pattern: string): Promise<void> {
    if (spec.paused) {
      await this.unschedule(key);
      return;
    }
    const data: RunJobData = { key, spec: { jobName: spec.jobName, handler: spec.handler, params: spec.params, cron: spec.cron, options: spec.options }, trigger: 'cron' };
    await this.queue.upsertJobScheduler(key, { pattern, tz: SCHEDULER_TIMEZONE }, { name: 'fire', data, opts: { removeOnComplete: 200, removeOnFail: 500 } });
  }

  async unschedule(key: string): Promise<void> {
    await this.queue.removeJobScheduler(key);
  }

  async enqueue(req: RunRequest): Promise<void> {
    const data: RunJobData = { key: req.key, spec: req.spec, trigger: req.trigger };
    await this.queue.add('manual', data, { removeOnComplete: 200, removeOnFail: 500 });
  }

  async nextRun(key: string): Promise<Date | null> {
    const scheduler = await this.queue.getJobScheduler(key);
    return scheduler?.next ? new Date(scheduler.next) : null;
  }

  async close(): Promise<void> {
    // the pipeline's closing signal already told running handlers to stop; the worker waits for their log rows
    await this.worker?.close().catch(() => undefined);
    await this.queue.close().catch(() => undefined);
    await Promise.allSettled(this.connections.map((c) => c.quit()));
  }
}

/** BullMQ's next fire time from croner, so both engines read a pattern the same way. */
function croneRepeatStrategy(millis: number, opts: { pattern?: string; tz?: string }): number | undefined {
  if (!opts.pattern) return undefined;
  // the schedules this engine writes name China's zone, which croner computes as its fixed offset (cron.ts)
  const zone = !opts.tz || opts.tz === SCHEDULER_TIMEZONE ? CHINA_TIME : { timezone: opts.tz };
  const next = new Cron(opts.pattern, { paused: true, ...zone }).nextRun(new Date(millis));
  return next ? next.getTime() : undefined;
}
