import type { SelectQueryBuilder } from 'kysely';
import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { columnOf, validateField } from '@app/shared/resource';
import { badRequest } from '../core/errors.ts';
import { likeContains, type DialectName } from '../core/db.ts';
import { yuanToFenExact } from './rowMapping.ts';

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 10;

export interface Paging {
  page: number;
  size: number;
  sort: [column: string, dir: 'asc' | 'desc'][];
}

function first(v: unknown): unknown {
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Parse `page` (0-based), `size` (capped at 1000) and repeatable `sort=field,dir` against the fields a
 * resource allows to sort by. Anything else is a 400 with a clear message.
 */
export function parsePaging(query: Record<string, unknown>, sortable: Map<string, string>, defaultSort: [string, 'asc' | 'desc'][]): Paging {
  const pageRaw = first(query.page);
  const sizeRaw = first(query.size);
  let page = 0;
  let size = DEFAULT_PAGE_SIZE;
  if (pageRaw !== undefined && pageRaw !== '') {
    if (!/^\d{1,9}$/.test(String(pageRaw))) throw badRequest('page 必须是不小于0的整数');
    page = Number(pageRaw);
  }
  if (sizeRaw !== undefined && sizeRaw !== '') {
    if (!/^\d{1,9}$/.test(String(sizeRaw)) || Number(sizeRaw) < 1) throw badRequest('size 必须是大于0的整数');
    size = Math.min(Number(sizeRaw), MAX_PAGE_SIZE);
  }
  const sortParams = query.sort === undefined ? [] : Array.isArray(query.sort) ? query.sort : [query.sort];
  const sort: Paging['sort'] = [];
  for (const s of sortParams) {
    if (typeof s !== 'string' || s === '') continue;
    const [field, dirRaw = 'asc'] = s.split(',');
    const dir = dirRaw.trim().toLowerCase();
    const column = sortable.get(field.trim());
    if (!column) throw badRequest(`不支持的排序字段: ${field.slice(0, 50)}`);
    if (dir !== 'asc' && dir !== 'desc') throw badRequest(`排序方向只能是 asc 或 desc: ${dirRaw.slice(0, 20)}`);
    sort.push([column, dir]);
  }
  if (sort.length === 0) for (const [f, d] of defaultSort) sort.push([sortable.get(f) ?? f, d]);
  if (!sort.some(([c]) => c === 'id')) sort.push(['id', sort[0]?.[1] ?? 'desc']);
  return { page, size, sort };
}

/** Sortable fields of a definition: API name -> column. */
export function sortableColumns(def: ResourceDef): Map<string, string> {
  const m = new Map<string, string>();
  for (const f of def.fields) if (f.sortable !== false && !f.secret && f.kind !== 'text') m.set(f.name, columnOf(f));
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
    if (!f.filter) continue;
    const raw = first(query[f.name]);
    if (raw === undefined || raw === null || raw === '') continue;
    if (typeof raw !== 'string') throw badRequest(`${f.label}筛选值无效`);
    if (raw.length > 100) throw badRequest(`${f.label}筛选值过长`);
    if (f.filter === 'like' && ['string', 'text', 'dict', 'phone', 'email', 'idCard'].includes(f.kind)) {
      q = q.where(likeContains(dialect, col(f), raw)) as QB;
    } else {
      const r = validateField({ ...f, required: false, pattern: undefined, kind: f.kind === 'idCard' ? 'string' : f.kind }, raw);
      if (!r.ok) throw badRequest(`${f.label}筛选值无效: ${r.message}`);
      let v = r.value;
      if (f.kind === 'bool') v = v ? 1 : 0;
      if (f.kind === 'money') v = yuanToFenExact(v as number);
      q = q.where(col(f), '=', v) as QB;
    }
  }
  const blurry = first(query.blurry);
  if (def.blurry && typeof blurry === 'string' && blurry !== '') {
    if (blurry.length > 100) throw badRequest('搜索内容过长');
    const cols = def.blurry.map((name) => {
      const f = def.fields.find((x) => x.name === name);
      return f ? col(f) : name;
    });
    q = q.where((eb) => eb.or(cols.map((c) => likeContains(dialect, c, blurry) as never))) as QB;
  }
  return q;
}
