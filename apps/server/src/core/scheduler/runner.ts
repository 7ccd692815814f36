import crypto from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Cache } from '../cache.ts';
import type { TypedDb } from '../dbTypes.ts';
import { exceptionDetail, writeRunLog } from './runLog.ts';
import { DEFAULT_RUN_OPTIONS, type HandlerSpec, type RunEndEvent, type RunOptions, type RunResult, type ScheduleSpec } from './types.ts';

/** Default run timeout of a handler that names none. */
export const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
/** How this process signs the run-log rows it writes (which instance ran a fire). */
export const INSTANCE_NAME = `${os.hostname()}:${process.pid}`;

/** Keys the scheduler keeps in the application cache (Redis when configured, so every instance sees them). */
export const schedulerKeys = {
  running: (key: string) => `sched:running:${key}`,
  progress: (key: string) => `sched:progress:${key}`,
  failures: (key: string) => `sched:failures:${key}`,
};

/** One run to do: a cron fire or a 执行一次. */
export interface RunRequest {
  key: string;
  spec: Omit<ScheduleSpec, 'cron' | 'paused' | 'since'> & { cron?: string };
  trigger: 'cron' | 'manual';
  /** The cron fire this run belongs to (null for a manual run). */
  fireTime: Date | null;
  /**
   * Who holds the running marker: a fresh id per in-process run, the BullMQ job id for queued runs, so that a
   * run BullMQ hands out again after its worker died may take over the marker the dead worker left.
   */
  token?: string;
  /** A fire run late under the `once` misfire policy (noted in the run log). */
  misfired?: boolean;
}

export interface RunPipelineDeps {
  db: TypedDb;
  cache: Cache;
  handlers: Map<string, HandlerSpec>;
  maxFailures: number;
  log: FastifyBaseLogger;
  listeners: ((e: RunEndEvent) => void | Promise<void>)[];
  /** Cancel the future fires of a schedule (auto-pause). */
  pause(key: string): Promise<void>;
  /** Aborted when the instance shuts down: running handlers are told to stop. */
  closing: AbortSignal;
}

class RunAborted extends Error {}

interface AttemptOutcome {
  ok: boolean;
  result?: RunResult;
  error?: string;
  ms: number;
}

/** A spec's run options with the defaults filled in and bounds applied. */
export function runOptionsOf(spec: { options?: Partial<RunOptions> }): RunOptions {
  const o = { ...DEFAULT_RUN_OPTIONS, ...(spec.options ?? {}) };
  return { retries: Math.max(0, Math.min(10, Math.floor(Number(o.retries) || 0))), retryIntervalMs: Math.max(0, Number(o.retryIntervalMs) || 0), misfire: o.misfire === 'skip' ? 'skip' : 'once', overlap: o.overlap === true };
}

/** Wait `ms`, ending early when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * The one code path of every run, whichever engine fired it: take the running marker (a second run of a key
 * while one is running is skipped and logged), call the handler with a timeout signal, write the run log,
 * count consecutive failures and pause the schedule after `maxFailures` of them (with an alert line in the log),
 * then tell the listeners.
 */
export class RunPipeline {
  constructor(private deps: RunPipelineDeps) {}

  async run(req: RunRequest, onProgress?: (p: { msg: string; percent: number }) => Promise<void>): Promise<RunEndEvent> {
    const { deps } = this;
    const { key, spec } = req;
    const handler = deps.handlers.get(spec.handler);
    const options = runOptionsOf(spec);
    const base = { key, jobName: spec.jobName, handler: spec.handler, params: spec.params ?? {}, cron: spec.cron ?? null, trigger: req.trigger, fireTime: req.fireTime, instance: INSTANCE_NAME };
    const timeoutMs = handler?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const token = req.token ?? crypto.randomUUID();
    const markerKey = schedulerKeys.running(key);
    // the marker lives as long as every attempt and wait could take
    const markerTtl = Math.ceil(((timeoutMs + options.retryIntervalMs) * (options.retries + 1)) / 1000) + 60;
    if (options.overlap) {
      // overlapping runs allowed: the marker only tells the screen that one runs (the latest one holds it)
      await deps.cache.set(markerKey, token, markerTtl);
    } else {
      const acquired = (await deps.cache.setIfAbsent(markerKey, token, markerTtl)) || (await deps.cache.get(markerKey)) === token;
      if (!acquired) {
        await this.writeLog({ ...base, ok: false, ms: 0, exceptionDetail: '上次运行未结束，本次跳过' });
        return { key, handler: spec.handler, ok: false, ms: 0, error: '上次运行未结束，本次跳过', autoPaused: false, skipped: true, trigger: req.trigger, jobName: spec.jobName };
      }
    }

    await deps.cache.set(schedulerKeys.progress(key), JSON.stringify({ msg: '运行中', percent: 0 }), 86_400);
    const misfireNote = req.misfired && req.fireTime ? `补跑错过的触发（${req.fireTime.toISOString()}）` : null;
    let attempt = 0;
    let outcome: AttemptOutcome;
    let totalMs = 0;
    for (;;) {
      attempt++;
      outcome = await this.attempt(req, handler, timeoutMs, onProgress);
      totalMs += outcome.ms;
      if (outcome.ok || attempt > options.retries || deps.closing.aborted) break;
      // a failed attempt with retries left: logged as such, then tried again after the interval
      const waitSec = Math.round(options.retryIntervalMs / 1000);
      await this.writeLog({ ...base, ok: false, ms: outcome.ms, exceptionDetail: `${outcome.error}\n第 ${attempt} 次尝试失败，${waitSec} 秒后重试（最多重试 ${options.retries} 次）`, summary: misfireNote });
      await deps.cache.set(schedulerKeys.progress(key), JSON.stringify({ msg: `第 ${attempt} 次尝试失败，等待重试`, percent: 0 }), 86_400);
      await sleep(options.retryIntervalMs, deps.closing);
      if (deps.closing.aborted) break;
    }
    const { ok, result } = outcome;
    let error = outcome.error;
    if (!ok && attempt > 1) error = `${error}\n共尝试 ${attempt} 次，均失败`;

    let autoPaused = false;
    if (ok) {
      await deps.cache.del(schedulerKeys.failures(key));
    } else {
      const failures = await deps.cache.incr(schedulerKeys.failures(key), 90 * 86_400);
      if (req.trigger === 'cron' && failures >= deps.maxFailures) {
        autoPaused = true;
        error = `${error}\n【告警】连续失败 ${failures} 次，任务已自动暂停，请检查后恢复`;
        try {
          await deps.pause(key);
        } catch (err) {
          deps.log.error({ err, key }, 'auto-pause failed');
        }
        deps.log.warn({ key, jobName: spec.jobName, failures }, 'scheduled job paused after consecutive failures');
      }
    }
    await deps.cache.set(schedulerKeys.progress(key), JSON.stringify(ok ? { msg: result?.summary ?? '完成', percent: 1 } : { msg: `失败：${(error ?? '').split('\n')[0]}`, percent: 1 }), 86_400);
    const summary = [misfireNote, attempt > 1 && ok ? `第 ${attempt} 次尝试成功` : null, result?.summary].filter(Boolean).join('；') || null;
    await this.writeLog({
      ...base,
      ok,
      ms: outcome.ms,
      exceptionDetail: error ?? null,
      summary,
      outputCount: result?.outputCount ?? null,
      calcCount: result?.calcCount ?? null,
    });
    // release the marker only if it is still ours (a timed-out handler's marker is ours too)
    if ((await deps.cache.get(markerKey)) === token) await deps.cache.del(markerKey);
    const event: RunEndEvent = { key, handler: spec.handler, ok, ms: totalMs, result, error, autoPaused, trigger: req.trigger, attempts: attempt, jobName: spec.jobName };
    for (const listener of deps.listeners) {
      try {
        await listener(event);
      } catch (err) {
        deps.log.error({ err, key }, 'run-end listener failed');
      }
    }
    return event;
  }

  /** One call of the handler with the run's timeout and the instance's shutdown signal. */
  private async attempt(req: RunRequest, handler: HandlerSpec | undefined, timeoutMs: number, onProgress?: (p: { msg: string; percent: number }) => Promise<void>): Promise<AttemptOutcome> {
    const { deps } = this;
    const { key, spec } = req;
    const started = Date.now();
    let ok = false;
    let result: RunResult | undefined;
    let error: string | undefined;
    const ac = new AbortController();
    const onClosing = () => ac.abort(new RunAborted('实例关闭，运行中止'));
    deps.closing.addEventListener('abort', onClosing, { once: true });
    const timer = setTimeout(() => ac.abort(new RunAborted(`超时终止（超过 ${Math.round(timeoutMs / 1000)} 秒）`)), timeoutMs);
    try {
      if (!handler) throw new Error(`任务处理器 ${spec.handler} 未注册`);
      const aborted = new Promise<never>((_, reject) => {
        if (ac.signal.aborted) reject(ac.signal.reason);
        ac.signal.addEventListener('abort', () => reject(ac.signal.reason), { once: true });
      });
      aborted.catch(() => undefined);
      const ctx = {
        key,
        params: spec.params ?? {},
        signal: ac.signal,
        progress: async (msg: string, percent: number) => {
          const p = { msg: String(msg).slice(0, 200), percent: Math.min(1, Math.max(0, Number(percent) || 0)) };
          await deps.cache.set(schedulerKeys.progress(key), JSON.stringify(p), 86_400);
          if (onProgress) await onProgress(p);
        },
      };
      // a handler that ignores its signal is not waited for: the run ends at the timeout all the same
      result = (await Promise.race([handler.run(ctx), aborted])) ?? undefined;
      ok = true;
    } catch (err) {
      error = err instanceof RunAborted ? err.message : exceptionDetail(err);
    } finally {
      clearTimeout(timer);
      deps.closing.removeEventListener('abort', onClosing);
    }
    return { ok, result, error, ms: Date.now() - started };
  }

  /** A fire that came too late (no instance ran at its time) under the `skip` policy: logged, not run. */
  async skipMisfire(req: RunRequest): Promise<void> {
    const { spec } = req;
    await this.writeLog({
      key: req.key,
      jobName: spec.jobName,
      handler: spec.handler,
      params: spec.params ?? {},
      cron: spec.cron ?? null,
      trigger: req.trigger,
      fireTime: req.fireTime,
      ok: true,
      ms: 0,
      summary: `错过触发时间${req.fireTime ? `（${req.fireTime.toISOString()}）` : ''}，按错过策略跳过`,
      instance: INSTANCE_NAME,
    });
  }

  async writeLog(entry: Parameters<typeof writeRunLog>[1]): Promise<void> {
    const err = await writeRunLog(this.deps.db, entry);
    if (err) this.deps.log.error({ err, key: entry.key }, 'run log not written');
  }
}
