import type { SelectQueryBuilder } from 'kysely';
import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { blurrySchema, columnOf, filterSchema, kindOf, pageSchema, sizeSchema, sortableNames, toDbValue } from '@app/shared/resource';
import type { z } from 'zod';
import { AppError, firstIssueError } from '../core/errors.ts';
import { type DialectName, likeMatches, likePattern } from '../core/db.ts';

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

/** One condition of a list's filters: a field equal to a value, or containing a text (a LIKE pattern). */
interface FilterStep {
  columns: string[];
  test: 'equals' | 'contains';
  /** The statement's parameter: the field's database value, or the LIKE pattern (likePattern). */
  value: unknown;
}

/**
 * The conditions a list's query string asks for, its values checked: the definition's declared filters and its
 * `blurry` search. Fuzzy filters use LIKE with the user's wildcards escaped; exact filters are validated by the
 * field's kind first (bad values are a 400). `shape` names which conditions there are, not their values: lists of
 * the same shape have the same SQL (compiledQuery.ts).
 */
export interface FilterPlan {
  steps: FilterStep[];
  shape: string;
}

export function filterPlan(def: ResourceDef, query: Record<string, unknown>, dialect: DialectName, alias?: string): FilterPlan {
  const col = (f: FieldDef) => (alias ? `${alias}.${columnOf(f)}` : columnOf(f));
  const steps: FilterStep[] = [];
  const shape: string[] = [];
  for (const f of def.fields) {
    if (!f.filter || query[f.name] === undefined) continue;
    // values already checked by the route's query schema pass again unchanged
    const v = parseOr400(filterSchema(f), query[f.name]);
    if (v === undefined) continue;
    const contains = f.filter === 'like' && kindOf(f).text;
    steps.push(contains ? { columns: [col(f)], test: 'contains', value: likePattern(dialect, v as string) } : { columns: [col(f)], test: 'equals', value: toDbValue(f, v) });
    shape.push(`${f.name}${contains ? '~' : '='}`);
  }
  const blurry = def.blurry && query.blurry !== undefined ? (parseOr400(blurrySchema, query.blurry) as string | undefined) : undefined;
  if (def.blurry && blurry !== undefined) {
    const columns = def.blurry.map((name) => {
      const f = def.fields.find((x) => x.name === name);
      return f ? col(f) : name;
    });
    steps.push({ columns, test: 'contains', value: likePattern(dialect, blurry) });
    shape.push('blurry~');
  }
  return { steps, shape: shape.join('&') };
}

/**
 * The plan's conditions on `qb`. `valueAt(i)` is what stands for step i's value: by default the value itself, or a
 * placeholder when the statement is compiled once for its shape.
 */
export function applyFilterPlan<QB extends SelectQueryBuilder<any, any, any>>(qb: QB, plan: FilterPlan, dialect: DialectName, valueAt: (i: number) => unknown = (i) => plan.steps[i].value): QB {
  let q = qb;
  plan.steps.forEach((step, i) => {
    const value = valueAt(i);
    if (step.test === 'equals') q = q.where(step.columns[0], '=', value) as QB;
    else if (step.columns.length === 1) q = q.where(likeMatches(dialect, step.columns[0], value)) as QB;
    else q = q.where((eb) => eb.or(step.columns.map((c) => likeMatches(dialect, c, value)))) as QB;
  });
  return q;
}

/** The definition's declared filters from the query string on `qb` (see filterPlan). */
export function applyFilters<QB extends SelectQueryBuilder<any, any, any>>(qb: QB, def: ResourceDef, query: Record<string, unknown>, dialect: DialectName, alias?: string): QB {
  return applyFilterPlan(qb, filterPlan(def, query, dialect, alias), dialect);
}
