/**
 * The scheduler's contract (issue 11 items 1-2). One plugin runs every scheduled or one-off run: system jobs
 * (`/api/jobs`, keys `job:<id>`) and model tasks (`/taskManagement/jobs`, keys `task:<id>`). Handlers are
 * registered by name in code; a schedule can only name a registered handler. Embedded default: in-process
 * (croner); with `REDIS_URL`: BullMQ queues and job schedulers, a worker in every instance, so one fire runs
 * exactly once on whichever instance takes it.
 *
 * Every run is written to the run log (`sys_job_log`) by the scheduler itself: key, job name, handler, params,
 * cron, success, time in ms, exception detail (secrets masked), the handler's summary and counts.
 */

/** What a handler gets for one run. */
export interface RunContext {
  /** The schedule key (`job:12`, `task:7`) or, for a one-off run without a schedule, the key passed to runNow. */
  key: string;
  params: Record<string, unknown>;
  /** Aborted when the run's timeout passes (or the instance shuts down): stop and throw. */
  signal: AbortSignal;
  /** Progress of the run, shown by `/taskManagement/dispatch` (percent from 0 to 1). */
  progress(msg: string, percent: number): Promise<void>;
}

/** What a handler may report; counts feed the dashboard statistics (spec "output and calculation"). */
export interface RunResult {
  /** One line for the run log (Chinese). */
  summary?: string;
  /** Records written (output). */
  outputCount?: number;
  /** Records read and computed (calculation). */
  calcCount?: number;
}

export interface HandlerSpec {
  /** The name a job row stores (its `beanName`/`methodName` pair is `name` split at the first '.'). */
  name: string;
  /** Chinese title for the screen's handler choice. */
  title: string;
  /** Default 10 minutes. */
  timeoutMs?: number;
  run(ctx: RunContext): Promise<RunResult | undefined | void>;
}

/**
 * How a job's runs behave (issue 25 item 2; stored on `sys_scheduled_job` since migration 0027). Both engines run
 * every fire through the same pipeline, which honours them.
 */
export interface RunOptions {
  /** Further attempts after a failed one (0-10); only when every attempt failed does the run count as failed. */
  retries: number;
  /** Wait between attempts, ms. */
  retryIntervalMs: number;
  /** A fire missed while no instance ran (or taken up later than the grace): run it once, or skip it (logged). */
  misfire: 'once' | 'skip';
  /** Runs of the key may overlap (otherwise a fire while one runs is skipped and logged, 执行一次 is a 409). */
  overlap: boolean;
}

export const DEFAULT_RUN_OPTIONS: RunOptions = { retries: 0, retryIntervalMs: 60_000, misfire: 'once', overlap: false };

export interface ScheduleSpec {
  /** Display name written into the run log (jobName). */
  jobName: string;
  /** Quartz or five/six-field cron; normalised by `normaliseCron`. */
  cron: string;
  /** A registered handler's name. */
  handler: string;
  params: Record<string, unknown>;
  paused: boolean;
  /** Retries, misfire policy, overlap (default DEFAULT_RUN_OPTIONS). */
  options?: Partial<RunOptions>;
  /**
   * When the schedule last ran or was (re)armed by an operator: a fire due between then and now was missed (no
   * instance ran), and the misfire policy decides (in-process engine; BullMQ keeps the missed fire queued itself).
   */
  since?: Date | null;
}

/** Emitted after every run, on the instance that ran it. */
export interface RunEndEvent {
  key: string;
  handler: string;
  ok: boolean;
  ms: number;
  result?: RunResult;
  /** Exception detail as logged (secrets masked). */
  error?: string;
  /** The schedule was paused because of consecutive failures (the owner updates its own row). */
  autoPaused: boolean;
  /** How the run was started: a cron fire or a run-once. */
  trigger?: 'cron' | 'manual';
  /** Not run at all: the previous run had not ended (no alert for this). */
  skipped?: boolean;
  /** Attempts made (1 + retries used). */
  attempts?: number;
  /** The schedule's display name (jobName). */
  jobName?: string;
}

export interface Scheduler {
  registerHandler(spec: HandlerSpec): void;
  handlers(): { name: string; title: string }[];
  /** Create or replace the schedule of `key` (idempotent; also how an instance re-arms its rows at start). */
  schedule(key: string, spec: ScheduleSpec): Promise<void>;
  unschedule(key: string): Promise<void>;
  /** Run once now (enqueue; does not wait). Refused (409) while `key` is running. */
  runNow(key: string, spec: Omit<ScheduleSpec, 'cron' | 'paused'> & { cron?: string }): Promise<void>;
  isRunning(key: string): Promise<boolean>;
  progressOf(key: string): Promise<{ msg: string; percent: number } | null>;
  onRunEnd(listener: (e: RunEndEvent) => void | Promise<void>): void;
  close(): Promise<void>;
  /** Which engine fires and runs: `in-process` (croner) or `bullmq` (REDIS_URL with the scheduler on). */
  readonly engine: 'in-process' | 'bullmq';
  /** The next fire time of an armed key (null: paused, unknown, or the scheduler is off on this instance). */
  nextRun(key: string): Promise<Date | null>;
}
