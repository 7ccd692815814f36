import crypto from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Cache } from '../cache.ts';
import type { TypedDb } from '../dbTypes.ts';
import { exceptionDetail, writeRunLog } from './runLog.ts';
import type { HandlerSpec, RunEndEvent, RunResult, ScheduleSpec } from './types.ts';

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
  spec: Omit<ScheduleSpec, 'cron' | 'paused'> & { cron?: string };
  trigger: 'cron' | 'manual';
  /** The cron fire this run belongs to (null for a manual run). */
  fireTime: Date | null;
  /**
   * Who holds the running marker: a fresh id per in-process run, the BullMQ job id for queued runs, so that a
   * run BullMQ hands out again after its worker died may take over the marker the dead worker left.
   */
  token?: string;
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
    const started = Date.now();
    const base = { key, jobName: spec.jobName, handler: spec.handler, params: spec.params ?? {}, cron: spec.cron ?? null, trigger: req.trigger, fireTime: req.fireTime, instance: INSTANCE_NAME };
    const timeoutMs = handler?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const token = req.token ?? crypto.randomUUID();
    const markerKey = schedulerKeys.running(key);
    const acquired = (await deps.cache.setIfAbsent(markerKey, token, Math.ceil(timeoutMs / 1000) + 60)) || (await deps.cache.get(markerKey)) === token;
    if (!acquired) {
      await this.writeLog({ ...base, ok: false, ms: 0, exceptionDetail: '上次运行未结束，本次跳过' });
      const skipped: RunEndEvent = { key, handler: spec.handler, ok: false, ms: 0, error: '上次运行未结束，本次跳过', autoPaused: false };
      return skipped;
    }

    let ok = false;
    let result: RunResult | undefined;
    let error: string | undefined;
    const ac = new AbortController();
    const onClosing = () => ac.abort(new RunAborted('实例关闭，运行中止'));
    deps.closing.addEventListener('abort', onClosing, { once: true });
    const timer = setTimeout(() => ac.abort(new RunAborted(`超时终止（超过 ${Math.round(timeoutMs / 1000)} 秒）`)), timeoutMs);
    try {
      await deps.cache.set(schedulerKeys.progress(key), JSON.stringify({ msg: '运行中', percent: 0 }), 86_400);
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
    const ms = Date.now() - started;

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
    await this.writeLog({
      ...base,
      ok,
      ms,
      exceptionDetail: error ?? null,
      summary: result?.summary ?? null,
      outputCount: result?.outputCount ?? null,
      calcCount: result?.calcCount ?? null,
    });
    // release the marker only if it is still ours (a timed-out handler's marker is ours too)
    if ((await deps.cache.get(markerKey)) === token) await deps.cache.del(markerKey);
    const event: RunEndEvent = { key, handler: spec.handler, ok, ms, result, error, autoPaused, trigger: req.trigger };
    for (const listener of deps.listeners) {
      try {
        await listener(event);
      } catch (err) {
        deps.log.error({ err, key }, 'run-end listener failed');
      }
    }
    return event;
  }

  async writeLog(entry: Parameters<typeof writeRunLog>[1]): Promise<void> {
    const err = await writeRunLog(this.deps.db, entry);
    if (err) this.deps.log.error({ err, key: entry.key }, 'run log not written');
  }
}
