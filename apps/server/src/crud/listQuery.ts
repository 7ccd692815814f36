import type { SelectQueryBuilder } from 'kysely';
import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { blurrySchema, columnOf, filterSchema, kindOf, pageSchema, sizeSchema, sortableNames, toDbValue } from '@app/shared/resource';
import type { z } from 'zod';
import { AppError, firstIssueError } from '../core/errors.ts';
import { likeContains, type DialectName } from '../core/db.ts';

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 10;

export interface Paging {
  page: number;
  size: number;
  sort: [column: string, dir: 'asc' | 'desc'][];
}

/**
 * Parse `page` (0-based), `size` (capped at 1000) and repeatable `sort=field,dir` against the fields a
 * resource allows to sort by. Anything else is a 400 with a clear message.
 */
export function parsePaging(query: Record<string, unknown>, sortable: Map<string, string>, defaultSort: [string, 'asc' | 'desc'][]): Paging {
  // the route's query schema has usually checked these already (then this is cheap and finds nothing new)
  const page = (parseOr400(pageSchema, query.page) as number | undefined) ?? 0;
  const size = Math.min((parseOr400(sizeSchema, query.size) as number | undefined) ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const sortParams = query.sort === undefined ? [] : Array.isArray(query.sort) ? query.sort : [query.sort];
  const sort: Paging['sort'] = [];
  for (const s of sortParams) {
    if (typeof s !== 'string' || s === '') continue;
    const [field, dirRaw = 'asc'] = s.split(',');
    const dir = dirRaw.trim().toLowerCase();
    const column = sortable.get(field.trim());
    if (!column) throw new AppError('SORT_FIELD', { value: field.slice(0, 50) });
    if (dir !== 'asc' && dir !== 'desc') throw new AppError('SORT_DIRECTION', { value: dirRaw.slice(0, 20) });
    sort.push([column, dir]);
  }
  if (sort.length === 0) for (const [f, d] of defaultSort) sort.push([sortable.get(f) ?? f, d]);
  if (!sort.some(([c]) => c === 'id')) sort.push(['id', sort[0]?.[1] ?? 'desc']);
  return { page, size, sort };
}

/** The value of a query schema, or a 400 with its first message. */
function parseOr400(schema: z.ZodType, raw: unknown): unknown {
  const r = schema.safeParse(raw);
  if (!r.success) throw firstIssueError(r.error, raw);
  return r.data;
}

/** Sortable fields of a definition: API name -> column. */
export function sortableColumns(def: ResourceDef): Map<string, string> {
  const m = new Map<string, string>();
  const names = new Set(sortableNames(def));
  for (const f of def.fields) if (names.has(f.name)) m.set(f.name, columnOf(f));
  return m;
}

/**
 * Apply the definition's declared filters from the query string. Fuzzy filters use LIKE with the user's
 * wildcards escaped; exact filters are validated by the field's kind first (bad values are a 400).
 */
export function applyFilters<QB extends SelectQueryBuilder<any, any, any>>(qb: QB, def: ResourceDef, query: Record<string, unknown>, dialect: DialectName, alias?: string): QB {
  const col = (f: FieldDef) => (alias ? `${alias}.${columnOf(f)}` : columnOf(f));
  let q = qb;
  for (const f of def.fields) {
    if (!f.filter || query[f.name] === undefined) continue;
    // values already checked by the route's query schema pass again unchanged
    const v = parseOr400(filterSchema(f), query[f.name]);
    if (v === undefined) continue;
    if (f.filter === 'like' && kindOf(f).text) q = q.where(likeContains(dialect, col(f), v as string)) as QB;
    else q = q.where(col(f), '=', toDbValue(f, v)) as QB;
  }
  const blurry = def.blurry && query.blurry !== undefined ? (parseOr400(blurrySchema, query.blurry) as string | undefined) : undefined;
  if (def.blurry && blurry !== undefined) {
    const cols = def.blurry.map((name) => {
      const f = def.fields.find((x) => x.name === name);
      return f ? col(f) : name;
    });
    q = q.where((eb) => eb.or(cols.map((c) => likeContains(dialect, c, blurry)))) as QB;
  }
  return q;
}
