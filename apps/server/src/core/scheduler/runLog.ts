import { nowIso } from '../db.ts';
import type { TypedDb } from '../dbTypes.ts';
import { AppError, maskSecrets } from '../errors.ts';
import { stripServerPaths } from '../serverPaths.ts';

/** One row of `sys_job_log` as the scheduler writes it. */
export interface RunLogEntry {
  key: string;
  jobName: string;
  handler: string;
  params: Record<string, unknown>;
  cron?: string | null;
  trigger: 'cron' | 'manual';
  fireTime: Date | null;
  ok: boolean;
  ms: number;
  exceptionDetail?: string | null;
  summary?: string | null;
  outputCount?: number | null;
  calcCount?: number | null;
  instance: string;
}

/** `beanName.methodName` → the pair the job screens show (the name split at its first '.'). */
export function splitHandlerName(handler: string): { beanName: string; methodName: string } {
  const dot = handler.indexOf('.');
  return dot < 0 ? { beanName: handler, methodName: '' } : { beanName: handler.slice(0, dot), methodName: handler.slice(dot + 1) };
}

const STACK_FRAMES = 8;
const DETAIL_MAX = 2000;

/**
 * What the run log keeps of a failure: the message, then at most eight stack frames, at most 2000 characters,
 * with passwords in connection URLs and `password=`/`"secret": …` style values replaced by `***` / `******`, so
 * the log screen never shows a secret a driver put into its message, and the server's absolute paths made
 * relative (core/serverPaths.ts). A refusal the user can put right (a 4xx AppError: no mail server configured,
 * invalid parameters) is its message alone: a stack would dress it up as a fault of the program.
 */
export function exceptionDetail(err: unknown, dataDir?: string): string {
  const e = err instanceof Error ? err : new Error(typeof err === 'string' ? err : JSON.stringify(err));
  if (e instanceof AppError && e.status < 500) return maskSecretText(stripServerPaths(e.message, dataDir)).slice(0, DETAIL_MAX);
  const lines = (e.stack ?? `${e.name}: ${e.message}`).split('\n');
  const head = lines.filter((l) => !/^\s+at /.test(l));
  const frames = lines.filter((l) => /^\s+at /.test(l)).slice(0, STACK_FRAMES);
  if (!head.join('\n').includes(e.message)) head.unshift(e.message);
  const text = [...head, ...frames].join('\n');
  return maskSecretText(stripServerPaths(text, dataDir)).slice(0, DETAIL_MAX);
}

/** Secrets inside free text (driver messages, URLs) replaced. */
export function maskSecretText(text: string): string {
  return text
    .replace(/([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@/\s]*@/gi, '$1***@')
    .replace(/\b(pass(?:word)?|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|authorization)(["']?\s*[:=]\s*["']?)(?:Bearer\s+)?[^\s"',;&}]+/gi, '$1$2******');
}

/** Write one run-log row; a failure to write (database gone at shutdown) is returned, not thrown. */
export async function writeRunLog(db: TypedDb, entry: RunLogEntry): Promise<Error | undefined> {
  const { beanName, methodName } = splitHandlerName(entry.handler);
  try {
    await db
      .insertInto('sys_job_log')
      .values({
        job_key: entry.key.slice(0, 64),
        job_name: entry.jobName.slice(0, 100),
        bean_name: beanName.slice(0, 100),
        method_name: methodName.slice(0, 100),
        params: JSON.stringify(maskSecrets(entry.params ?? {})),
        cron_expression: entry.cron ?? null,
        trigger_kind: entry.trigger,
        fire_time: entry.fireTime ? entry.fireTime.toISOString() : null,
        is_success: entry.ok ? 1 : 0,
        time: Math.max(0, Math.round(entry.ms)),
        exception_detail: entry.exceptionDetail ?? null,
        summary: entry.summary ? entry.summary.slice(0, 500) : null,
        output_count: entry.outputCount ?? null,
        calc_count: entry.calcCount ?? null,
        instance: entry.instance.slice(0, 100),
        create_time: nowIso(),
      })
      .execute();
    return undefined;
  } catch (err) {
    return err as Error;
  }
}
