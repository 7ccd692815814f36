import { describe, expect, it } from 'vitest';
import { nextFireTimes, normaliseCron } from '../src/core/scheduler/cron.ts';
import { AppError } from '../src/core/errors.ts';

/** Quartz and Unix cron forms → one croner pattern (core/scheduler/cron.ts); bad ones are catalogued 400s. */
describe('normaliseCron', () => {
  it.each([
    // [input, croner pattern]
    ['0 0/5 * * * ?', '0 0-59/5 * * * ?'], // Quartz "from 0 every 5", which croner refuses as written
    ['0 3/15 * * * ?', '0 3-59/15 * * * ?'],
    ['0/10 * * * * ?', '0-59/10 * * * * ?'],
    ['0 0 1 * * ?', '0 0 1 * * ?'],
    ['  0   0  12  L  *  ? ', '0 0 12 L * ?'], // spaces folded, last day of month
    ['0 15 10 ? * 6L', '0 15 10 ? * 5L'], // Quartz 6 = Friday → croner 5
    ['0 0 9 ? * 2-6', '0 0 9 ? * 1-5'], // Monday-Friday
    ['0 0 9 ? * 1#2', '0 0 9 ? * 0#2'], // second Sunday
    ['0 0 9 ? * MON-FRI', '0 0 9 ? * MON-FRI'],
    ['0 0 1 * * ? 2099', '0 0 1 * * ? 2099'], // optional year
    ['0 1 * * *', '0 0 1 * * *'], // Unix five fields get seconds 0, weekdays untouched
    ['*/5 * * * 1-5', '0 */5 * * * 1-5'],
  ])('%s → %s', (input, pattern) => {
    expect(normaliseCron(input).pattern).toBe(pattern);
  });

  it('fires as Quartz means it: 6L is the last Friday, 2-6 Monday to Friday, in China time', () => {
    const from = new Date('2026-01-01T00:00:00Z');
    const lastFridays = nextFireTimes('0 15 10 ? * 6L', 2, from);
    expect(lastFridays).toEqual(['2026-01-30T02:15:00.000Z', '2026-02-27T02:15:00.000Z']); // 10:15 +08:00, Fridays
    const weekdays = nextFireTimes('0 0 9 ? * 2-6', 5, from).map((t) => new Date(t).getUTCDay());
    expect(weekdays).toEqual([4, 5, 1, 2, 3]); // from Thursday 2026-01-01 08:00 China: Thu 09:00, Fri, then Mon-Wed
    expect(nextFireTimes('0 0/5 * * * ?', 3, new Date('2026-01-01T00:01:00Z'))).toEqual([
      '2026-01-01T00:05:00.000Z',
      '2026-01-01T00:10:00.000Z',
      '2026-01-01T00:15:00.000Z',
    ]);
  });

  it.each([
    ['', 'JOB_CRON_INVALID'],
    ['hello', 'JOB_CRON_INVALID'],
    ['* * *', 'JOB_CRON_INVALID'],
    ['0 0 25 * * ?', 'JOB_CRON_INVALID'], // hour 25
    ['0 0 1 * * 9', 'JOB_CRON_INVALID'], // Quartz weekday 9
    ['0 0/0 * * * ?', 'JOB_CRON_INVALID'], // step 0
    ['0 0 1 1 * 2', 'JOB_CRON_DAY_AND_WEEK'], // Quartz: one of day and weekday must be ?
    ['0 0 1 * * ? 2020', 'JOB_CRON_NEVER'], // a past year
    ['0 0 0 30 2 ?', 'JOB_CRON_NEVER'], // 30 February
    ['x'.repeat(200), 'JOB_CRON_INVALID'],
  ])('%s is refused with %s', (input, code) => {
    let caught: unknown;
    try {
      normaliseCron(input);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe(code);
    expect((caught as AppError).status).toBe(400);
  });
});
