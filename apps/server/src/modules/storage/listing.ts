import type { ContractShape } from '@app/shared/contracts/contract';
import type { deleteStorageFile, deleteStorageFiles } from '@app/shared/contracts/storage';
import type { FastifyInstance } from 'fastify';
import { type SelectQueryBuilder, sql } from 'kysely';
import type { DB } from '../../core/dbTypes.ts';
import { countOf } from '../../crud/pagedQuery.ts';
import { routeContract } from '../../crud/registerContract.ts';

/** Paging and sorting of the storage and picture lists (spec §7: page 0-based, size, sort `field,dir`, default id desc). */
export const MAX_PAGE_SIZE = 100;

/** Page window from the parsed query. */
function windowOf(q: { page?: number; size?: number }) {
  const size = Math.min(q.size ?? 10, MAX_PAGE_SIZE);
  return { limit: size, offset: (q.page ?? 0) * size };
}

/**
 * One page of a storage list: the count, then (when there is anything) the rows in the asked order, by default
 * newest first, with id last so that equal values do not shuffle rows between pages.
 */
export async function listPage<T extends keyof DB>(base: SelectQueryBuilder<DB, T, object>, q: { sort: [string, 'asc' | 'desc'][]; page?: number; size?: number }, sortable: Record<string, string>) {
  const totalElements = await countOf(base);
  let sel = base.selectAll();
  const sort = q.sort.length ? q.sort : [['id', 'desc'] as [string, 'asc' | 'desc']];
  for (const [f, d] of sort) sel = sel.orderBy(sql.ref(sortable[f]), d);
  if (!sort.some(([f]) => f === 'id')) sel = sel.orderBy(sql.ref('id'), 'desc');
  const { limit, offset } = windowOf(q);
  const rows = totalElements ? await sel.limit(limit).offset(offset).execute() : [];
  return { rows, totalElements };
}

/** The shapes of `DELETE <path>/:id` and `DELETE <path>` with a body of ids (files and pictures alike). */
type DeleteOne = ContractShape & Pick<typeof deleteStorageFile, 'params' | 'response'>;
type DeleteMany = ContractShape & Pick<typeof deleteStorageFiles, 'body' | 'response'>;

/** `DELETE <path>/:id` and `DELETE <path>` with a body of ids, both removing through `remove` (spec §7). */
export function registerDeleteRoutes(app: FastifyInstance, opts: { one: DeleteOne; many: DeleteMany; remove: (ids: number[]) => Promise<void> }): void {
  routeContract(app, opts.one, async (req) => {
    await opts.remove([req.params.id]);
    return {};
  });
  routeContract(app, opts.many, async (req) => {
    await opts.remove(req.body);
    return {};
  });
}
