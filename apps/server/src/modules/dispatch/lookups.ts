import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FieldMessage } from '@app/shared/errors/zodIssues';
import type { ResourceDef } from '@app/shared/resource';
import { companyResource } from '@app/shared/resources/company';
import { requestDeptScope, whereDeptInScope } from '../../core/rbac.ts';
import type { Db } from '../../core/db.ts';
import { validationError } from '../../core/errors.ts';
import type { AnySelect } from '../../crud/registerResource.ts';
import { rowToApi } from '../../crud/rowMapping.ts';

/**
 * Lookups the dispatch write rules share, cached per request: an import of 100,000 staff rows asks for
 * the same company and dictionaries once, not once per row.
 */

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's dispatch lookups (see perRequest); declared on the dispatch area's requests (index.ts). */
    lookupMemo: Map<string, Promise<unknown>> | null;
  }
}

/** Load once per request (the promise is shared; a failure is not cached). */
export function perRequest<T>(req: FastifyRequest, key: string, load: () => Promise<T>): Promise<T> {
  // created on first use: most requests of the area never look anything up
  req.lookupMemo ??= new Map();
  const m = req.lookupMemo;
  let p = m.get(key) as Promise<T> | undefined;
  if (!p) {
    p = load();
    m.set(key, p);
    p.catch(() => m.delete(key));
  }
  return p;
}

/**
 * Entries of a dictionary (label, value) in display order. Pass the transaction when called inside one:
 * SQLite has a single connection, so a query on the pool from inside a transaction would wait forever.
 */
export function dictEntries(req: FastifyRequest, db: Db, name: string): Promise<{ label: string; value: string }[]> {
  return perRequest(req, `dict:${name}`, async () => {
    const rows = await db
      .selectFrom('sys_dict_detail as d')
      .innerJoin('sys_dict as t', 't.id', 'd.dict_id')
      .select(['d.label', 'd.value'])
      .where('t.name', '=', name)
      .orderBy('d.sort', 'asc')
      .orderBy('d.id', 'asc')
      .execute();
    return rows.map((r) => ({ label: String(r.label), value: String(r.value) }));
  });
}

let todayCache = { until: 0, value: '' };
/** Today's date in China (UTC+8, no daylight saving) as YYYY-MM-DD (recomputed at most once a second). */
export function chinaToday(now = Date.now()): string {
  if (now < todayCache.until && now >= todayCache.until - 1000) return todayCache.value;
  const value = new Date(now + 8 * 3600 * 1000).toISOString().slice(0, 10);
  todayCache = { until: now + 1000, value };
  return value;
}

/** Companies visible to the caller: owned by a department in their data scope (all for 全部). */
export async function scopeCompanies(app: FastifyInstance, req: FastifyRequest, qb: AnySelect, column = 'accounts_company.dept_id'): Promise<AnySelect> {
  return whereDeptInScope(qb, column, await requestDeptScope(req, app.ctx.db));
}

/** Restrict rows with a company id column to companies visible to the caller. */
export async function scopeByCompany(app: FastifyInstance, req: FastifyRequest, qb: AnySelect, companyIdColumn: string): Promise<AnySelect> {
  const scope = await requestDeptScope(req, app.ctx.db);
  if (scope === null) return qb;
  const visible = whereDeptInScope(app.ctx.db.selectFrom('accounts_company').select('accounts_company.id'), 'accounts_company.dept_id', scope);
  return qb.where(companyIdColumn, 'in', visible);
}

/** A company (API shape) if it exists and is visible to the caller, else undefined (`db`: see dictEntries). */
export function companyInScope(app: FastifyInstance, req: FastifyRequest, id: number, db: Db): Promise<Record<string, unknown> | undefined> {
  return perRequest(req, `company:${id}`, async () => {
    const qb = await scopeCompanies(app, req, db.selectFrom('accounts_company').selectAll('accounts_company').where('accounts_company.id', '=', id));
    const row = await qb.executeTakeFirst();
    return row ? rowToApi(companyResource, row as Record<string, unknown>) : undefined;
  });
}

/**
 * Dictionary fields must hold a value of their dictionary. Checked when a value is new or changed, so a
 * row stays editable after an entry it uses was retired.
 */
export async function checkDictionaryValues(
  req: FastifyRequest,
  db: Db,
  def: ResourceDef,
  values: Record<string, unknown>,
  existing?: Record<string, unknown>,
): Promise<void> {
  const toCheck = def.fields.filter((f) => {
    if (f.kind !== 'dict' || !f.dict || f.readOnly) return false;
    const v = values[f.name];
    return v !== undefined && v !== null && v !== '' && !(existing && existing[f.name] === v);
  });
  if (!toCheck.length) return;
  // one await for all dictionaries (an import checks thousands of rows against the same few)
  const sets = await perRequest(req, `dictValues:${toCheck.map((f) => f.dict).join(',')}`, async () => {
    const m = new Map<string, Set<string>>();
    for (const f of toCheck) m.set(f.dict!, new Set((await dictEntries(req, db, f.dict!)).map((e) => e.value)));
    return m;
  });
  const errors: Record<string, FieldMessage> = {};
  for (const f of toCheck) {
    const v = values[f.name];
    if (!sets.get(f.dict!)!.has(v as string)) errors[f.name] = { code: 'FIELD_NOT_OPTION', params: { label: f.label, value: String(v) } };
  }
  if (Object.keys(errors).length) throw validationError(errors);
}
