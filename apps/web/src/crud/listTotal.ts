import type { ListPage } from '@app/shared/resource/listPage';
import type { TFunction } from 'i18next';

/**
 * The pager's count of a list: "共 N 条" when the server counted the rows, "约 N 条" when it answered the PostgreSQL
 * planner's estimate instead (`totalEstimated`, 10,000 matching rows or more: apps/server/src/crud/listTotal.ts).
 * `t` is a translation function of the `crud` namespace.
 */
export function listTotalText(t: TFunction<'crud'> | TFunction, count: number, estimated: boolean): string {
  return String(t(estimated ? 'totalEstimated' : 'total', { count, ns: 'crud' }));
}

/** Whether a list answer's total is an estimate (an array answer, or none yet, is exact). */
export function isTotalEstimated(answer: ListPage<unknown> | readonly unknown[] | undefined | null): boolean {
  return !!answer && !Array.isArray(answer) && (answer as ListPage<unknown>).totalEstimated === true;
}
