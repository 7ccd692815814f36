import { Cron } from 'croner';
import { AppError } from '../errors.ts';

/** Every schedule fires in China time, whatever the server's zone (spec: dates are China dates). */
export const SCHEDULER_TIMEZONE = 'Asia/Shanghai';

/**
 * China time as croner computes it in this process: Asia/Shanghai's fixed UTC+8 (480 minutes; no daylight saving
 * since 1991), given as an offset rather than as the zone's name. The same clock for every date a schedule can
 * reach, but croner then needs no Intl.DateTimeFormat: the first one in a process reads ~7 MB of the Node binary's
 * ICU data into memory, which a started server held for nothing but this (issue 27). BullMQ's scheduler (Redis)
 * still takes the zone's name, SCHEDULER_TIMEZONE.
 */
export const CHINA_TIME: { readonly utcOffset: number } = Object.freeze({ utcOffset: 480 });

/** Longest expression a row stores (the column is varchar(120)). */
const MAX_CRON_LENGTH = 120;

/** Highest value of each field, to turn Quartz's `start/step` into croner's `start-max/step`. */
const QUARTZ_MAX = [59, 59, 23, 31, 12, 7, 2099];
const UNIX_MAX = [59, 23, 31, 12, 6];

export interface NormalisedCron {
  /** A croner pattern: six fields (seconds first) and an optional year, weekdays numbered 0 = Sunday. */
  pattern: string;
  /** The expression as given, trimmed and with single spaces (what a row keeps and a log shows). */
  display: string;
}

const invalid = (cron: string) => new AppError('JOB_CRON_INVALID', { cron });

/**
 * Accept the cron forms users bring and turn them into one croner pattern:
 * - six or seven fields are Quartz (`秒 分 时 日 月 周 [年]`, as eladmin and RuoYi write them): `?`, `L`, `W`,
 *   `#`, names, and `0/5` (Quartz's "from 0 every 5", which croner refuses) become `0-59/5`; weekdays count
 *   1 = Sunday … 7 = Saturday and are renumbered to croner's 0 = Sunday; day-of-month and day-of-week may not
 *   both be given (one of them is `?` or `*`, as Quartz demands);
 * - five fields are Unix cron (`分 时 日 月 周`, 0 or 7 = Sunday) and get a seconds field of 0.
 * An expression croner cannot parse, or one that never fires again (a past year, 30 February), is a 400.
 */
export function normaliseCron(expr: string): NormalisedCron {
  const display = String(expr ?? '')
    .trim()
    .replace(/\s+/g, ' ');
  if (!display || display.length > MAX_CRON_LENGTH) throw invalid(display.slice(0, 40));
  const fields = display.split(' ');
  let parts: string[];
  if (fields.length === 5) {
    parts = ['0', ...fields.map((f, i) => expandStartStep(f, UNIX_MAX[i], display))];
  } else if (fields.length === 6 || fields.length === 7) {
    parts = fields.map((f, i) => expandStartStep(f, QUARTZ_MAX[i], display));
    const [dom, dow] = [parts[3], parts[5]];
    if (!['?', '*'].includes(dom) && !['?', '*'].includes(dow)) throw new AppError('JOB_CRON_DAY_AND_WEEK', { cron: display });
    parts[5] = quartzWeekdaysToUnix(dow, display);
  } else {
    throw invalid(display);
  }
  // croner reads `?` as "any" in both day fields; Quartz means the same
  const pattern = parts.join(' ');
  let cron: Cron;
  try {
    cron = new Cron(pattern, { paused: true, ...CHINA_TIME });
  } catch {
    throw invalid(display);
  }
  if (!cron.nextRun()) throw new AppError('JOB_CRON_NEVER', { cron: display });
  return { pattern, display };
}

/** The next `count` fire times of an expression (ISO strings), for the dialog's preview. Throws like normaliseCron. */
export function nextFireTimes(expr: string, count = 5, from?: Date): string[] {
  const { pattern } = normaliseCron(expr);
  return new Cron(pattern, { paused: true, ...CHINA_TIME }).nextRuns(count, from).map((d) => d.toISOString());
}

/** `N/S` (Quartz: from N every S) → `N-max/S` in every comma-separated part of a field. */
function expandStartStep(field: string, max: number, display: string): string {
  return field
    .split(',')
    .map((part) => {
      const m = /^(\d+)\/(\d+)$/.exec(part);
      if (!m) return part;
      if (Number(m[2]) === 0 || Number(m[1]) > max) throw invalid(display);
      return `${m[1]}-${max}/${m[2]}`;
    })
    .join(',');
}

/**
 * Quartz weekday numbers (1 = SUN … 7 = SAT) → croner's (0 = SUN … 6 = SAT), leaving steps (`/2`), nth (`#3`),
 * names and `L` as they are: `6L` → `5L`, `2-6` → `1-5`, `1#2` → `0#2`.
 */
function quartzWeekdaysToUnix(field: string, display: string): string {
  return field.replace(/(^|[,-])(\d+)/g, (_all, lead: string, digits: string) => {
    const n = Number(digits);
    if (n < 1 || n > 7) throw invalid(display);
    return `${lead}${n - 1}`;
  });
}
