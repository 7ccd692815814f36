import { dynamicDb } from '../core/db.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SelectQueryBuilder } from 'kysely';
import { z } from 'zod';
import type { CrudAction, ResourceDef } from '@app/shared/resource';
import type { RouteAuth } from '../core/context.ts';
import { columnOf, permissionCodes, schemaOf } from '@app/shared/resource';
import type { Db } from '../core/db.ts';
import { insertReturningId, nowIso } from '../core/db.ts';
import { AppError } from '../core/errors.ts';
import { collectDescendants } from '../core/rbac.ts';
import { attachLinks, deleteLinks, readLinks, writeLinks } from './links.ts';
import { nestBy, treeLinks } from './tree.ts';
import { apiToDb, rowToApi } from './rowMapping.ts';
import { assertUnique, writeUnique } from './uniqueWrites.ts';
import { checkOptionalWhen } from './optionalWhen.ts';
import { applyFilterPlan, filterPlan, type Paging, parsePaging, sortableColumns } from './listQuery.ts';
import { type ListSource, listReads, readListPage } from './listPage.ts';
import { noteRouteOrigin } from './registerContract.ts';
import { emptyObject, idArrayBody, idParams, idSchema, isTrustedResponse, trustedResponse } from './routeSchemas.ts';
import { resourcePaths } from '@app/shared/resource/paths';

/** A list query of the generic engine: any definition's table (see DynamicDb), rows of unknown values. */
export type AnySelect = SelectQueryBuilder<Record<string, Record<string, unknown>>, string, Record<string, unknown>>;

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
  /**
   * Restrict every read/update/delete to the caller's data scope (and other implicit filters). Returns the builder it
   * was given when it adds no condition (a caller who sees everything): such lists run statements compiled once.
   */
  scope?: (req: FastifyRequest, qb: AnySelect) => AnySelect | Promise<AnySelect>;
  /**
   * Extra list filters beyond the declared ones (e.g. a department and its descendants), from the parsed query; the
   * builder it was given when the query asks for none. Its values go into the statement as parameters.
   */
  filter?: (req: FastifyRequest, qb: AnySelect, query: Record<string, unknown>) => AnySelect | Promise<AnySelect>;
  /** List parameters beyond the definition's filters (read by `filter`), declared in the list and export schemas. */
  query?: Record<string, z.ZodType>;
  /** Validate across fields or fill derived values (mutate `values`); throw AppError to refuse. */
  beforeWrite?: (values: Record<string, unknown>, ctx: WriteContext) => Promise<void> | void;
  afterWrite?: (row: Record<string, unknown>, ctx: WriteContext) => Promise<void> | void;
  /** Route codes per action where they differ from the definition's (e.g. screens that pick a department). */
  auth?: Partial<Record<CrudAction, RouteAuth>>;
  /** Refuse a delete of the requested ids outright (protected rows), before anything else is looked at. */
  guardDelete?: (ids: number[]) => void;
  /**
   * Refuse or prepare deletes (e.g. 409 when rows still depend on them). Runs in the transaction; for trees
   * after the children rule, with the descendants a cascade deletes.
   */
  beforeDelete?: (ids: number[], ctx: { req: FastifyRequest; db: Db }) => Promise<void> | void;
  /** Add computed fields to rows going out (e.g. names of referenced rows). */
  decorate?: (rows: Record<string, unknown>[], req: FastifyRequest) => Promise<void> | void;
  /** Reshape a create/update body before validation (e.g. `dict: {id}` -> `dictId`). */
  prepareBody?: (body: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Members of create/update bodies beyond the definition's fields (e.g. a user's `roles`): checked by the
   * route schema and handed to the hooks in `values` (never written as columns).
   */
  body?: Record<string, z.ZodType>;
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
  /** The list's query-string schema (the definition's filters, paging, sort and `hooks.query`). */
  querySchema: z.ZodType<Record<string, unknown>>;
  /** Fill the definition's `refMany` fields of API rows (one query per field). */
  attachLinks(rows: Record<string, unknown>[]): Promise<void>;
}

const idValue = idSchema();
/** A positive id (1..2^31-1), or a 400 ID必须是正整数. */
function parseId(raw: unknown): number {
  const r = idValue.safeParse(raw);
  if (!r.success) throw new AppError('ID_INVALID');
  return r.data;
}

/** The page a list answers: `{content, totalElements}`. */
export function pageOf(row: z.ZodType) {
  const page = z.object({
    content: z.array(row),
    totalElements: z.number().int(),
    totalEstimated: z.literal(true).optional().meta({ description: '仅 PostgreSQL：匹配行数达 10000 行及以上时 totalElements 为查询规划器的估计值' }),
  });
  return isTrustedResponse(row) ? trustedResponse(page) : page;
}

/**
 * Register the standard routes of a resource under /api/<name>:
 * GET list (page/size/sort/filters -> {content,totalElements}), GET /:id, POST (201 + row),
 * PUT (body has id, 204), DELETE /:id and DELETE with an id array (200). Every route checks the
 * definition's permission codes on the server and every write is validated by the definition.
 */
export function registerResource(fastify: FastifyInstance, def: ResourceDef, hooks: ResourceHooks = {}): RegisteredResource {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const paths = resourcePaths(def.name);
  const base = paths.list;
  const table = def.table;
  const sortable = sortableColumns(def);
  const defaultSort = def.defaultSort ?? [['id', 'desc']];
  // An empty code list means "any logged-in user" (e.g. dictionary entries every screen reads).
  const authFor = (action: CrudAction): RouteAuth => {
    const override = hooks.auth?.[action];
    if (override) return override;
    const codes = permissionCodes(def, action);
    return codes.length ? codes : 'user';
  };

  const isObject = (body: unknown): body is Record<string, unknown> => body !== null && typeof body === 'object' && !Array.isArray(body);
  /** Before the body schema runs: the resource's reshaping (e.g. `dict: {id}` -> `dictId`). */
  const prepareBody = async (req: FastifyRequest) => {
    if (hooks.prepareBody && isObject(req.body)) req.body = hooks.prepareBody(req.body);
  };
  // The definition's schemas are built when a request (or the API document) first needs them: built at start for
  // every resource they were ~9,000 zod objects, ~7 MB of heap that each garbage collection walks again (issue 27).
  // The generic routes handle any definition: rows are records here (RowOf<typeof def> where a definition is known).
  const row: z.ZodType<Record<string, unknown>> = trustedResponse(z.lazy(() => schemaOf(def, 'row')));
  const tags = [def.label];
  const querySchema: z.ZodType<Record<string, unknown>> = z.lazy(() => (hooks.query ? (schemaOf(def, 'query') as z.ZodObject).extend(hooks.query) : schemaOf(def, 'query')));
  const bodySchema = (mode: 'create' | 'update'): z.ZodType<Record<string, unknown>> =>
    z.lazy(() => (hooks.body ? (schemaOf(def, mode) as z.ZodObject).extend(hooks.body) : schemaOf(def, mode)));

  async function scoped(req: FastifyRequest, qb: AnySelect): Promise<AnySelect> {
    return hooks.scope ? await hooks.scope(req, qb) : qb;
  }

  // The module's computed fields and the linked sets are read side by side (independent look-ups); the linked
  // sets are put on the rows last, after the module's own fields (the order rows have always had).
  async function decorate(rows: Record<string, unknown>[], req: FastifyRequest) {
    if (!rows.length) return rows;
    const [, putLinks] = await Promise.all([hooks.decorate?.(rows, req), readLinks(app.ctx.db, def, rows)]);
    putLinks();
    return rows;
  }

  const tree = def.tree;
  const parentField = tree ? def.fields.find((f) => f.name === tree.parentField) : undefined;
  if (tree && !parentField) throw new Error(`tree resource ${def.name} has no field ${tree.parentField}`);
  const parentColumn = parentField ? columnOf(parentField) : '';

  /** Tree writes: the parent exists within the caller's scope (0 = top level) and is not the node or below it. */
  async function checkParent(req: FastifyRequest, db: Db, pid: number, selfId?: number) {
    const name = tree!.parentField;
    if (selfId !== undefined) {
      const below = collectDescendants(await treeLinks(db, table, parentColumn), [selfId]);
      if (below.includes(pid)) throw new AppError('PARENT_CYCLE', {}, { [name]: { code: 'PARENT_CYCLE' } });
    }
    if (pid === 0) return;
    if (!(await findRow(req, db, pid))) throw new AppError('PARENT_NOT_FOUND', { parent: tree!.parentLabel }, { [name]: { code: 'PARENT_NOT_FOUND', params: { parent: tree!.parentLabel } } });
  }

  function selectBase(db: Db): AnySelect {
    const qb = dynamicDb(db).selectFrom(table);
    return hooks.select ? hooks.select(qb) : qb.selectAll(table);
  }

  async function findRow(req: FastifyRequest, db: Db, id: number): Promise<Record<string, unknown> | undefined> {
    const qb = await scoped(req, selectBase(db).where(`${table}.id`, '=', id));
    return (await qb.executeTakeFirst()) as Record<string, unknown> | undefined;
  }

  async function getOne(req: FastifyRequest, id: number) {
    const row = await findRow(req, app.ctx.db, id);
    if (!row) throw new AppError('RECORD_NOT_FOUND', { resource: def.label });
    return (await decorate([rowToApi(def, row)], req))[0];
  }

  /** The table's bare selection per database, built once (Kysely's builders are immutable). */
  const bareSelections = new WeakMap<Db, AnySelect>();
  const bareSelection = (db: Db): AnySelect => {
    let bare = bareSelections.get(db);
    if (!bare) bareSelections.set(db, (bare = dynamicDb(db).selectFrom(table)));
    return bare;
  };

  /** The conditions of the resource's `filter` hook and of the caller's scope: `qb` itself when they add none. */
  async function hookConditions(req: FastifyRequest, qb: AnySelect, query: Record<string, unknown>): Promise<AnySelect> {
    const filtered = hooks.filter ? await hooks.filter(req, qb, query) : qb;
    return scoped(req, filtered);
  }

  async function listQuery(req: FastifyRequest, query: Record<string, unknown>): Promise<AnySelect> {
    const plan = filterPlan(def, query, app.ctx.dialect, table);
    return applyFilterPlan(await hookConditions(req, bareSelection(app.ctx.db), query), plan, app.ctx.dialect);
  }

  /** The selected columns in the paging's order (the generic list and its compiled statements). */
  function ordered(filtered: AnySelect, paging: Paging): AnySelect {
    let qb = hooks.select ? hooks.select(filtered) : filtered.selectAll(table);
    for (const [c, d] of paging.sort) qb = qb.orderBy(c.includes('.') ? c : `${table}.${c}`, d);
    return qb;
  }
  const listSource: ListSource = {
    name: def.name,
    get dialect() {
      return app.ctx.dialect;
    },
    bare: bareSelection,
    ordered,
  };

  const checkUnique = (db: Db, values: Record<string, unknown>, excludeId?: number) => assertUnique(db, def, table, values, excludeId);
  const write = <T,>(fn: (db: Db) => Promise<T>): Promise<T> => writeUnique(app.ctx.db, def, fn);

  noteRouteOrigin(app, 'GET', base, 'definition');
  app.get(base, { config: { auth: authFor('list') }, schema: { tags, summary: `${def.label}${tree ? '树' : '列表'}`, querystring: querySchema, response: { 200: pageOf(row) } } }, async (req) => {
    const query = req.query;
    const paging = parsePaging(query, sortable, defaultSort);
    const db = app.ctx.db;
    const plan = filterPlan(def, query, app.ctx.dialect, table);
    const conditioned = await hookConditions(req, bareSelection(db), query);
    if (tree) {
      // Trees come whole, nested on the parent field; paging is ignored, bad paging or sort input still refused.
      const rows = (await ordered(applyFilterPlan(conditioned, plan, app.ctx.dialect), paging).execute()) as Record<string, unknown>[];
      const nodes = await decorate(
        rows.map((r) => rowToApi(def, r)),
        req,
      );
      return { content: nestBy(nodes, tree.parentField), totalElements: rows.length };
    }
    const { rows, total } = await readListPage(db, app.ctx.dialect, table, listReads(listSource, db, plan, conditioned, paging), paging);
    const content = await decorate(
      rows.map((r) => rowToApi(def, r)),
      req,
    );
    return { content, ...total };
  });

  noteRouteOrigin(app, 'GET', paths.oneRoute, 'definition');
  app.get(paths.oneRoute, { config: { auth: authFor('list') }, schema: { tags, summary: `${def.label}详情`, params: idParams, response: { 200: row } } }, async (req) => {
    return getOne(req, req.params.id);
  });

  const refuseId = async (req: FastifyRequest) => {
    await prepareBody(req);
    const body = req.body;
    if (isObject(body) && body.id !== undefined && body.id !== null && body.id !== '') throw new AppError('CREATE_WITH_ID', { resource: def.label });
  };
  const createOptions = {
    config: { auth: authFor('create'), log: `新增${def.label}` },
    schema: { tags, summary: `新增${def.label}`, body: bodySchema('create'), response: { 201: row } },
    preValidation: refuseId,
  };
  noteRouteOrigin(app, 'POST', base, 'definition');
  app.post(base, createOptions, async (req, reply) => {
    const value = req.body;
    const id = await write(async (db) => {
      if (tree) await checkParent(req, db, Number(value[tree.parentField]));
      await hooks.beforeWrite?.(value, { req, db, mode: 'create' });
      await checkOptionalWhen(db, def, value);
      await checkUnique(db, value);
      const now = nowIso();
      const row = { ...apiToDb(def, value), ...timestamps(def, now, true) };
      const newId = await insertReturningId(db, app.ctx.dialect, table, row);
      await writeLinks(db, def, newId, value);
      const created = rowToApi(def, (await dynamicDb(db).selectFrom(table).selectAll().where('id', '=', newId).executeTakeFirstOrThrow()) as Record<string, unknown>);
      await hooks.afterWrite?.(created, { req, db, mode: 'create' });
      return newId;
    });
    reply.status(201);
    if (!tree) return getOne(req, id);
    // a new node under a visible parent may lie outside the scope worked out when the request began
    const created = (await selectBase(app.ctx.db).where(`${table}.id`, '=', id).executeTakeFirstOrThrow()) as Record<string, unknown>;
    return (await decorate([rowToApi(def, created)], req))[0];
  });

  const updateOptions = {
    config: { auth: authFor('edit'), log: `修改${def.label}` },
    schema: { tags, summary: `修改${def.label}`, body: bodySchema('update') },
    preValidation: prepareBody,
  };
  noteRouteOrigin(app, 'PUT', base, 'definition');
  app.put(base, updateOptions, async (req, reply) => {
    const value = req.body;
    const id = value.id as number;
    await write(async (db) => {
      const current = await findRow(req, db, id);
      if (!current) throw new AppError('RECORD_NOT_FOUND', { resource: def.label });
      const existing = rowToApi(def, current);
      if (tree) {
        const pid = value[tree.parentField];
        if (pid !== undefined && Number(pid) !== Number(existing[tree.parentField])) await checkParent(req, db, Number(pid), id);
      }
      await hooks.beforeWrite?.(value, { req, db, mode: 'update', existing });
      await checkOptionalWhen(db, def, { ...existing, ...value });
      await checkUnique(db, { ...existing, ...value }, id);
      const { id: _id, ...rest } = value;
      const row = { ...apiToDb(def, rest), ...timestamps(def, nowIso(), false) };
      if (Object.keys(row).length) await dynamicDb(db).updateTable(table).set(row).where('id', '=', id).execute();
      await writeLinks(db, def, id, rest);
      const updated = rowToApi(def, (await dynamicDb(db).selectFrom(table).selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Record<string, unknown>);
      await hooks.afterWrite?.(updated, { req, db, mode: 'update', existing });
    });
    reply.status(204);
  });

  async function deleteIds(req: FastifyRequest, ids: number[]) {
    await write(async (db) => {
      const qb = await scoped(req, dynamicDb(db).selectFrom(table).select(`${table}.id`).where(`${table}.id`, 'in', ids));
      const found = (await qb.execute()).map((r) => Number((r as { id: number }).id));
      const missing = ids.filter((i) => !found.includes(i));
      if (missing.length) throw new AppError('RECORDS_NOT_FOUND', { resource: def.label, ids: missing.slice(0, 10).join(',') });
      hooks.guardDelete?.(ids);
      let all = ids;
      if (tree) {
        all = collectDescendants(await treeLinks(db, table, parentColumn), ids);
        if (tree.onDelete !== 'cascade' && all.some((i) => !ids.includes(i))) throw new AppError(tree.onDelete.refuse);
      }
      await hooks.beforeDelete?.(all, { req, db });
      await deleteLinks(db, def, all);
      for (let i = 0; i < all.length; i += 500) await dynamicDb(db).deleteFrom(table).where('id', 'in', all.slice(i, i + 500)).execute();
    });
  }

  noteRouteOrigin(app, 'DELETE', paths.oneRoute, 'definition');
  app.delete(paths.oneRoute, { config: { auth: authFor('delete'), log: `删除${def.label}` }, schema: { tags, summary: `删除${def.label}`, params: idParams, response: { 200: emptyObject } } }, async (req) => {
    await deleteIds(req, [req.params.id]);
    return {};
  });

  noteRouteOrigin(app, 'DELETE', base, 'definition');
  app.delete(base, { config: { auth: authFor('delete'), log: `批量删除${def.label}` }, schema: { tags, summary: `批量删除${def.label}`, body: idArrayBody, response: { 200: emptyObject } } }, async (req) => {
    await deleteIds(req, req.body);
    return {};
  });

  return { def, hooks, getOne, listQuery, querySchema, attachLinks: (rows) => attachLinks(app.ctx.db, def, rows) };
}

/** A JSON array of positive integer ids (1..1000 of them), or a 400 (routes declare `idArrayBody` instead). */
export function parseIdArray(body: unknown): number[] {
  if (!Array.isArray(body) || body.length === 0) throw new AppError('DELETE_IDS_REQUIRED');
  if (body.length > 1000) throw new AppError('DELETE_TOO_MANY');
  return [...new Set(body.map(parseId))];
}

function timestamps(def: ResourceDef, now: string, create: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  if (create && def.fields.some((f) => f.name === 'createTime')) out.create_time = now;
  if (def.fields.some((f) => f.name === 'updateTime')) out.update_time = now;
  return out;
}

export { parseId };
