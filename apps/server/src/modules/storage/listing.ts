import { pageSchema, sizeSchema } from '@app/shared/resource';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type SelectQueryBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { DB } from '../../core/dbTypes.ts';
import { AppError } from '../../core/errors.ts';
import { countOf } from '../../crud/pagedQuery.ts';
import { idParams, idSchema } from '../../crud/routeSchemas.ts';

/** Paging and sorting of the storage and picture lists (spec §7: page 0-based, size, sort `field,dir`, default id desc). */
export const MAX_PAGE_SIZE = 100;

export function sortSchema(fields: readonly string[]) {
  return z
    .union([z.string().max(40), z.array(z.string().max(40)).max(5)])
    .optional()
    .transform((raw, ctx) => {
      const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
      const out: [string, 'asc' | 'desc'][] = [];
      for (const s of list) {
        if (!s) continue;
        const [field, dir = 'asc'] = s.split(',').map((x) => x.trim());
        if (!fields.includes(field)) {
          ctx.addIssue({ code: 'custom', message: `不支持的排序字段: ${field.slice(0, 40)}`, input: s });
          return z.NEVER;
        }
        const d = dir.toLowerCase();
        if (d !== 'asc' && d !== 'desc') {
          ctx.addIssue({ code: 'custom', message: `排序方向只能是 asc 或 desc: ${dir.slice(0, 20)}`, input: s });
          return z.NEVER;
        }
        out.push([field, d]);
      }
      return out;
    });
}

export const paging = { page: pageSchema, size: sizeSchema };

/** Page window from the parsed query. */
export function windowOf(q: { page?: number; size?: number }) {
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

/**
 * Batch delete body: a JSON array of 1..1000 ids. An empty array is the spec's "at least one selected row"
 * ('请至少选择一条记录'), not a generic bad request.
 */
export const selectedIds = z
  .array(z.unknown(), { error: '请提供要删除的ID数组' })
  .max(1000, '一次最多删除1000条')
  .refine((a) => a.length > 0, '请至少选择一条记录')
  .pipe(z.array(idSchema()))
  .transform((ids) => [...new Set(ids)]);

export function requireSelection(ids: number[]): void {
  if (ids.length === 0) throw new AppError('STORAGE_SELECT_ONE', {});
}

/** `DELETE <path>/:id` and `DELETE <path>` with a body of ids, both removing through `remove` (spec §7). */
export function registerDeleteRoutes(
  fastify: FastifyInstance,
  opts: { path: string; auth: string[]; tags: string[]; one: { log: string; summary: string }; many: { log: string; summary: string }; remove: (ids: number[]) => Promise<void> },
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.delete(`${opts.path}/:id`, { config: { auth: opts.auth, log: opts.one.log }, schema: { tags: opts.tags, summary: opts.one.summary, params: idParams } }, async (req) => {
    await opts.remove([req.params.id]);
    return {};
  });
  app.delete(opts.path, { config: { auth: opts.auth, log: opts.many.log }, schema: { tags: opts.tags, summary: opts.many.summary, body: selectedIds } }, async (req) => {
    await opts.remove(req.body);
    return {};
  });
}
