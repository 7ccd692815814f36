import { type SelectQueryBuilder, sql } from 'kysely';
import type { Paging } from './listQuery.ts';

/**
 * A hand-written paged list (not a resource list): `page`, `size` and `sort` in its querystring, documented for the
 * OpenAPI document and checked by parsePaging; the count, then only the asked page.
 */

/** The querystring fields parsePaging reads (stated with the contracts, which the lists' queries use). */
export { pagingQueryFields } from '@app/shared/contracts/schemas';

/** How many rows the filtered query matches. */
export async function countOf(qb: SelectQueryBuilder<any, any, any>): Promise<number> {
  const row = await qb.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  return Number((row as { n?: unknown } | undefined)?.n ?? 0);
}

/** The selection ordered by the paging's sort and cut to its page. */
export function orderedPage<QB extends SelectQueryBuilder<any, any, any>>(sel: QB, paging: Paging): QB {
  let out: SelectQueryBuilder<any, any, any> = sel;
  for (const [column, dir] of paging.sort) out = out.orderBy(sql.ref(column), dir);
  return out.limit(paging.size).offset(paging.page * paging.size) as QB;
}
