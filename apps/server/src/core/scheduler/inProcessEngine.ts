import { Cron } from 'croner';
import { CHINA_TIME } from './cron.ts';
import { type RunPipeline, type RunRequest, runOptionsOf } from './runner.ts';
import type { ScheduleSpec } from './types.ts';

/** How the plugin drives an engine: arm or disarm a key's fires, queue a run, stop. */
export interface SchedulerEngine {
  readonly kind: 'in-process' | 'bullmq';
  start(): Promise<void>;
  schedule(key: string, spec: ScheduleSpec, pattern: string): Promise<void>;
  unschedule(key: string): Promise<void>;
  enqueue(req: RunRequest): Promise<void>;
  /** Fire times still armed for a key (tests, monitoring); null when not armed here. */
  nextRun(key: string): Promise<Date | null>;
  close(): Promise<void>;
}

/**
 * The embedded engine: one croner job per armed key in this process (`protect`: a fire while the previous one
 * still runs is skipped), runs in this process. Right for one instance; several instances without Redis would
 * each fire, which is why REDIS_URL switches to the BullMQ engine.
 */
export class InProcessEngine implements SchedulerEngine {
  readonly kind = 'in-process' as const;
  private crons = new Map<string, Cron>();
  private inflight = new Set<Promise<unknown>>();

  /** `arm` false (SCHEDULER_ENABLED=false): schedules are remembered but never fire; 执行一次 still runs. */
  constructor(
    private pipeline: RunPipeline,
    private arm: boolean,
    /** A missed fire older than this at arming is a misfire (SCHEDULER_MISFIRE_GRACE_MS). */
    private misfireGraceMs = 60_000,
  ) {}

  async start(): Promise<void> {}

  async schedule(key: string, spec: ScheduleSpec, pattern: string): Promise<void> {
    await this.unschedule(key);
    if (spec.paused || !this.arm) return;
    const options = runOptionsOf(spec);
    // a fire due since the schedule last ran (or an operator last armed it) was missed while no instance ran
    if (spec.since) {
      const missed = new Cron(pattern, { paused: true, ...CHINA_TIME }).nextRun(spec.since);
      if (missed && missed.getTime() < Date.now() - this.misfireGraceMs) {
        missed.setMilliseconds(0);
        const req = { key, spec, trigger: 'cron' as const, fireTime: missed };
        if (options.misfire === 'skip') void this.track(this.pipeline.skipMisfire(req));
        else void this.track(this.pipeline.run({ ...req, misfired: true }));
      }
    }
    // protect: a fire while the previous run still runs is not started (unless runs may overlap)
    const cron = new Cron(pattern, { ...CHINA_TIME, protect: !options.overlap, name: key }, async (self: Cron) => {
      const fire = self.currentRun() ?? new Date();
      fire.setMilliseconds(0);
      await this.track(this.pipeline.run({ key, spec, trigger: 'cron', fireTime: fire }));
    });
    this.crons.set(key, cron);
  }

  async unschedule(key: string): Promise<void> {
    this.crons.get(key)?.stop();
    this.crons.delete(key);
  }

  async enqueue(req: RunRequest): Promise<void> {
    // not awaited: 执行一次 answers at once, the run log tells the outcome
    void this.track(this.pipeline.run(req));
  }

  async nextRun(key: string): Promise<Date | null> {
    return this.crons.get(key)?.nextRun() ?? null;
  }

  async close(): Promise<void> {
    for (const cron of this.crons.values()) cron.stop();
    this.crons.clear();
    // the pipeline aborted the handlers (closing signal); wait for their log rows
    await Promise.allSettled([...this.inflight]);
  }

  private track<T>(p: Promise<T>): Promise<T | undefined> {
    const guarded = p.catch(() => undefined);
    this.inflight.add(guarded);
    void guarded.finally(() => this.inflight.delete(guarded));
    return guarded;
  }
}
