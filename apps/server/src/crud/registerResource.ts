import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import type { CrudAction, ResourceDef } from '@app/shared/resource';
import type { RouteAuth } from '../core/context.ts';
import { permissionCodes, validateRecord } from '@app/shared/resource';
import type { Db } from '../core/db.ts';
import { insertReturningId, nowIso } from '../core/db.ts';
import { badRequest, notFound, validationError } from '../core/errors.ts';
import { apiToDb, rowToApi } from './rowMapping.ts';
import { assertUnique, writeUnique } from './uniqueWrites.ts';
import { applyFilters, parsePaging, sortableColumns } from './listQuery.ts';

export type AnySelect = SelectQueryBuilder<any, any, any>;

export interface WriteContext {
  req: FastifyRequest;
  /** The transaction the write runs in. */
  db: Db;
  mode: 'create' | 'update';
  /** The current row (API shape) when updating. */
  existing?: Record<string, unknown>;
}

/** Custom steps around the generic CRUD; each is optional. */
export interface ResourceHooks {
  /** Restrict every read/update/delete to the caller's data scope (and other implicit filters). */
  scope?: (req: FastifyRequest, qb: AnySelect) => AnySelect | Promise<AnySelect>;
  /** Extra list filters beyond the declared ones (e.g. a department and its descendants). */
  filter?: (req: FastifyRequest, qb: AnySelect) => AnySelect | Promise<AnySelect>;
  /** Validate across fields or fill derived values (mutate `values`); throw AppError to refuse. */
  beforeWrite?: (values: Record<string, unknown>, ctx: WriteContext) => Promise<void> | void;
  afterWrite?: (row: Record<string, unknown>, ctx: WriteContext) => Promise<void> | void;
  /** Refuse or prepare deletes (e.g. 409 when rows still depend on them). Runs in the transaction. */
  beforeDelete?: (ids: number[], ctx: { req: FastifyRequest; db: Db }) => Promise<void> | void;
  /** Add computed fields to rows going out (e.g. names of referenced rows). */
  decorate?: (rows: Record<string, unknown>[], req: FastifyRequest) => Promise<void> | void;
  /** Reshape a create/update body before validation (e.g. `dict: {id}` -> `dictId`). */
  prepareBody?: (body: Record<string, unknown>) => Record<string, unknown>;
  /** Columns to select, when rows need joins; defaults to `<table>.*`. */
  select?: (qb: AnySelect) => AnySelect;
}

export interface RegisteredResource {
  def: ResourceDef;
  hooks: ResourceHooks;
  /** Read one row (API shape) within the caller's scope, or throw 404. */
  getOne(req: FastifyRequest, id: number): Promise<Record<string, unknown>>;
  /** The scoped, filtered, sorted base query the list and the Excel export share. */
  listQuery(req: FastifyRequest, query: Record<string, unknown>): Promise<AnySelect>;
}

function parseId(raw: unknown): number {
  const s = String(raw);
  if (!/^\d{1,15}$/.test(s) || Number(s) <= 0) throw badRequest('ID必须是正整数');
  return Number(s);
}

/**
 * Register the standard routes of a resource under /api/<name>:
 * GET list (page/size/sort/filters -> {content,totalElements}), GET /:id, POST (201 + row),
 * PUT (body has id, 204), DELETE /:id and DELETE with an id array (200). Every route checks the
 * definition's permission codes on the server and every write is validated by the definition.
 */
export function registerResource(app: FastifyInstance, def: ResourceDef, hooks: ResourceHooks = {}): RegisteredResource {
  const base = `/api/${def.name}`;
  const table = def.table;
  const sortable = sortableColumns(def);
  const defaultSort = def.defaultSort ?? [['id', 'desc']];
  // An empty code list means "any logged-in user" (e.g. dictionary entries every screen reads).
  const authFor = (action: CrudAction): RouteAuth => {
    const codes = permissionCodes(def, action);
    return codes.length ? codes : 'user';
  };

  function prepare(body: unknown): Record<string, unknown> | undefined {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return body as undefined;
    return hooks.prepareBody ? hooks.prepareBody(body as Record<string, unknown>) : (body as Record<string, unknown>);
  }

  async function scoped(req: FastifyRequest, qb: AnySelect): Promise<AnySelect> {
    return hooks.scope ? await hooks.scope(req, qb) : qb;
  }

  async function decorate(rows: Record<string, unknown>[], req: FastifyRequest) {
    if (hooks.decorate && rows.length) await hooks.decorate(rows, req);
    return rows;
  }

  function selectBase(db: Db): AnySelect {
    const qb = db.selectFrom(table);
    return hooks.select ? hooks.select(qb) : qb.selectAll(table);
  }

  async function findRow(req: FastifyRequest, db: Db, id: number): Promise<Record<string, unknown> | undefined> {
    const qb = await scoped(req, selectBase(db).where(`${table}.id`, '=', id));
    return (await qb.executeTakeFirst()) as Record<string, unknown> | undefined;
  }

  async function getOne(req: FastifyRequest, id: number) {
    const row = await findRow(req, app.ctx.db, id);
    if (!row) throw notFound(`${def.label}不存在或无权访问`);
    return (await decorate([rowToApi(def, row)], req))[0];
  }

  async function listQuery(req: FastifyRequest, query: Record<string, unknown>): Promise<AnySelect> {
    let qb: AnySelect = app.ctx.db.selectFrom(table);
    qb = applyFilters(qb, def, query, app.ctx.dialect, table);
    if (hooks.filter) qb = await hooks.filter(req, qb);
    return scoped(req, qb);
  }

  const checkUnique = (db: Db, values: Record<string, unknown>, excludeId?: number) => assertUnique(db, def, table, values, excludeId);
  const write = <T,>(fn: (db: Db) => Promise<T>): Promise<T> => writeUnique(app.ctx.db, def, fn);

  app.get(base, { config: { auth: authFor('list') } }, async (req) => {
    const query = req.query as Record<string, unknown>;
    const paging = parsePaging(query, sortable, defaultSort);
    const filtered = await listQuery(req, query);
    let qb = hooks.select ? hooks.select(filtered) : filtered.selectAll(table);
    for (const [c, d] of paging.sort) qb = qb.orderBy(c.includes('.') ? c : `${table}.${c}`, d);
    const offset = paging.page * paging.size;
    const pageRows = () => qb.limit(paging.size).offset(offset).execute();
    const count = async () => Number(((await filtered.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst()) as { n: number } | undefined)?.n ?? 0);
    // No statement whose answer is already known: a first page that is not full is the whole list (no count),
    // and a page past the end is empty (no page query).
    let rows: unknown[];
    let totalElements: number;
    if (offset === 0) {
      rows = await pageRows();
      totalElements = rows.length < paging.size ? rows.length : await count();
    } else {
      totalElements = await count();
      rows = offset < totalElements ? await pageRows() : [];
    }
    const content = await decorate(
      rows.map((r) => rowToApi(def, r as Record<string, unknown>)),
      req,
    );
    return { content, totalElements };
  });

  app.get(`${base}/:id`, { config: { auth: authFor('list') } }, async (req) => {
    return getOne(req, parseId((req.params as { id: string }).id));
  });

  app.post(base, { config: { auth: authFor('create'), log: `新增${def.label}` } }, async (req, reply) => {
    const body = prepare(req.body);
    if (body && typeof body === 'object' && !Array.isArray(body) && body.id !== undefined && body.id !== null && body.id !== '') {
      throw badRequest(`新增${def.label}不能带有ID`);
    }
    const { value, errors } = validateRecord(def, body, 'create');
    if (Object.keys(errors).length) throw validationError(errors);
    const id = await write(async (db) => {
      await hooks.beforeWrite?.(value, { req, db, mode: 'create' });
      await checkUnique(db, value);
      const now = nowIso();
      const row = { ...apiToDb(def, value), ...timestamps(def, now, true) };
      const newId = await insertReturningId(db, app.ctx.dialect, table, row);
      const created = rowToApi(def, (await db.selectFrom(table).selectAll().where('id', '=', newId).executeTakeFirstOrThrow()) as Record<string, unknown>);
      await hooks.afterWrite?.(created, { req, db, mode: 'create' });
      return newId;
    });
    reply.status(201);
    return getOne(req, id);
  });

  app.put(base, { config: { auth: authFor('edit'), log: `修改${def.label}` } }, async (req, reply) => {
    const { value, errors } = validateRecord(def, prepare(req.body), 'update');
    if (Object.keys(errors).length) throw validationError(errors);
    const id = value.id as number;
    await write(async (db) => {
      const current = await findRow(req, db, id);
      if (!current) throw notFound(`${def.label}不存在或无权访问`);
      const existing = rowToApi(def, current);
      await hooks.beforeWrite?.(value, { req, db, mode: 'update', existing });
      await checkUnique(db, { ...existing, ...value }, id);
      const { id: _id, ...rest } = value;
      const row = { ...apiToDb(def, rest), ...timestamps(def, nowIso(), false) };
      if (Object.keys(row).length) await db.updateTable(table).set(row).where('id', '=', id).execute();
      const updated = rowToApi(def, (await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Record<string, unknown>);
      await hooks.afterWrite?.(updated, { req, db, mode: 'update', existing });
    });
    reply.status(204);
  });

  async function deleteIds(req: FastifyRequest, ids: number[]) {
    await write(async (db) => {
      const qb = await scoped(req, db.selectFrom(table).select(`${table}.id`).where(`${table}.id`, 'in', ids));
      const found = (await qb.execute()).map((r) => Number((r as { id: number }).id));
      const missing = ids.filter((i) => !found.includes(i));
      if (missing.length) throw notFound(`${def.label}不存在或无权访问: ${missing.slice(0, 10).join(',')}`);
      await hooks.beforeDelete?.(ids, { req, db });
      await db.deleteFrom(table).where('id', 'in', ids).execute();
    });
  }

  app.delete(`${base}/:id`, { config: { auth: authFor('delete'), log: `删除${def.label}` } }, async (req) => {
    await deleteIds(req, [parseId((req.params as { id: string }).id)]);
    return {};
  });

  app.delete(base, { config: { auth: authFor('delete'), log: `批量删除${def.label}` } }, async (req) => {
    const ids = parseIdArray(req.body);
    await deleteIds(req, ids);
    return {};
  });

  return { def, hooks, getOne, listQuery };
}

/** A JSON array of positive integer ids (1..1000 of them), or a 400. */
export function parseIdArray(body: unknown): number[] {
  if (!Array.isArray(body) || body.length === 0) throw badRequest('请提供要删除的ID数组');
  if (body.length > 1000) throw badRequest('一次最多删除1000条');
  return [...new Set(body.map(parseId))];
}

function timestamps(def: ResourceDef, now: string, create: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  if (create && def.fields.some((f) => f.name === 'createTime')) out.create_time = now;
  if (def.fields.some((f) => f.name === 'updateTime')) out.update_time = now;
  return out;
}

export { parseId };
