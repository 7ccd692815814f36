import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CrudAction, ResourceDef } from '@app/shared/resource';
import { permissionCodes, validateRecord } from '@app/shared/resource';
import type { RouteAuth } from '../../core/context.ts';
import type { Db } from '../../core/db.ts';
import { insertReturningId, nowIso } from '../../core/db.ts';
import { badRequest, conflict, notFound, validationError } from '../../core/errors.ts';
import { collectDescendants } from '../../core/rbac.ts';
import { parseId, parseIdArray } from '../../crud/registerResource.ts';
import { applyFilters, parsePaging, sortableColumns } from '../../crud/listQuery.ts';
import { apiToDb, rowToApi } from '../../crud/rowMapping.ts';
import { assertUnique, writeUnique } from '../../crud/uniqueWrites.ts';

/**
 * CRUD for the tree-shaped system tables (departments, menus, permissions), whose list is the whole tree
 * `{content: tree, totalElements}` rather than a page, and whose writes must keep the tree a tree:
 * the parent exists, and is neither the node itself nor one of its descendants.
 */

export type Row = Record<string, unknown>;

export interface TreeWriteContext {
  req: FastifyRequest;
  db: Db;
  mode: 'create' | 'update';
  existing?: Row;
}

export interface TreeCrudOptions {
  def: ResourceDef;
  /** Name of the parent in messages, e.g. 上级部门. */
  parentLabel: string;
  /** Route codes per action when they differ from the definition's. */
  auth?: Partial<Record<CrudAction, RouteAuth>>;
  /** Ids the caller may see and change (data scope); null = all. */
  visibleIds?: (req: FastifyRequest) => Promise<number[] | null>;
  prepareBody?: (body: Row) => Row;
  /** Further checks before a write (runs in the transaction, after the tree checks). */
  beforeWrite?: (values: Row, ctx: TreeWriteContext) => Promise<void> | void;
  /** Refuse a delete of the requested ids outright (protected nodes), before anything else is looked at. */
  guardDelete?: (ids: number[]) => void;
  /** `cascade`: deleting a node deletes its descendants; `refuse`: 409 while it has children. */
  childrenOnDelete: 'cascade' | { refuse: string };
  /** Refuse or clean up before the rows go (all ids, descendants included; in the transaction). */
  beforeDelete?: (ids: number[], ctx: { req: FastifyRequest; db: Db }) => Promise<void> | void;
  /** Extra properties of a node going out (e.g. `label`). */
  decorate?: (node: Row) => void;
}

export interface TreeNode extends Row {
  id: number;
  pid: number;
  children?: TreeNode[];
}

/**
 * Nest nodes under their parents, keeping the input order among siblings. A node whose parent is not in
 * the list (filtered out, outside the data scope) becomes a root, so a match deep in the tree still shows.
 */
export function buildTree<T extends { id: number; pid: number }>(nodes: readonly T[]): (T & { children?: T[] })[] {
  const byId = new Map<number, T & { children?: T[] }>();
  for (const n of nodes) byId.set(n.id, { ...n });
  const roots: (T & { children?: T[] })[] = [];
  for (const n of nodes) {
    const node = byId.get(n.id)!;
    const parent = n.pid !== n.id ? byId.get(n.pid) : undefined;
    if (parent) (parent.children ??= []).push(node);
    else roots.push(node);
  }
  return roots;
}

/** All `{id,pid}` pairs of a tree table. */
export async function treeLinks(db: Db, table: string): Promise<{ id: number; pid: number }[]> {
  const rows = await db.selectFrom(table).select(['id', 'pid']).execute();
  return rows.map((r) => ({ id: Number(r.id), pid: Number(r.pid) }));
}

export function registerTreeCrud(app: FastifyInstance, opts: TreeCrudOptions): void {
  const { def } = opts;
  const base = `/api/${def.name}`;
  const table = def.table;
  const sortable = sortableColumns(def);
  const defaultSort = def.defaultSort ?? [['id', 'asc']];
  const authFor = (action: CrudAction): RouteAuth => opts.auth?.[action] ?? permissionCodes(def, action);

  const visible = async (req: FastifyRequest) => (opts.visibleIds ? opts.visibleIds(req) : null);
  const toNode = (row: Row): TreeNode => {
    const node = rowToApi(def, row) as TreeNode;
    opts.decorate?.(node);
    return node;
  };

  async function findVisible(req: FastifyRequest, db: Db, id: number): Promise<Row | undefined> {
    const ids = await visible(req);
    if (ids && !ids.includes(id)) return undefined;
    return (await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst()) as Row | undefined;
  }

  /** The parent must exist (0 = top level) and may not be the node itself or below it. */
  async function checkParent(req: FastifyRequest, db: Db, pid: number, selfId?: number) {
    if (selfId !== undefined) {
      const below = collectDescendants(await treeLinks(db, table), [selfId]);
      if (below.includes(pid)) throw badRequest('上级不能为自己或下级', { pid: '上级不能为自己或下级' });
    }
    if (pid === 0) return;
    const parent = await findVisible(req, db, pid);
    if (!parent) throw badRequest(`${opts.parentLabel}不存在`, { pid: `${opts.parentLabel}不存在` });
  }

  const checkUnique = (db: Db, values: Row, excludeId?: number) => assertUnique(db, def, table, values, excludeId);
  const write = <T,>(fn: (db: Db) => Promise<T>): Promise<T> => writeUnique(app.ctx.db, def, fn);

  const prepare = (body: unknown) =>
    body !== null && typeof body === 'object' && !Array.isArray(body) && opts.prepareBody ? opts.prepareBody(body as Row) : body;

  app.get(base, { config: { auth: authFor('list') } }, async (req) => {
    const query = req.query as Row;
    // Trees come whole; paging is ignored, but bad paging or sort input is still refused.
    const { sort } = parsePaging(query, sortable, defaultSort);
    let qb = applyFilters(app.ctx.db.selectFrom(table).selectAll(), def, query, app.ctx.dialect);
    const ids = await visible(req);
    if (ids) {
      if (ids.length === 0) return { content: [], totalElements: 0 };
      qb = qb.where('id', 'in', ids);
    }
    for (const [c, d] of sort) qb = qb.orderBy(c, d);
    const rows = (await qb.execute()) as Row[];
    return { content: buildTree(rows.map(toNode)), totalElements: rows.length };
  });

  app.get(`${base}/:id`, { config: { auth: authFor('list') } }, async (req) => {
    const row = await findVisible(req, app.ctx.db, parseId((req.params as { id: string }).id));
    if (!row) throw notFound(`${def.label}不存在或无权访问`);
    return toNode(row);
  });

  app.post(base, { config: { auth: authFor('create'), log: `新增${def.label}` } }, async (req, reply) => {
    const body = prepare(req.body) as Row | undefined;
    if (body && typeof body === 'object' && !Array.isArray(body) && body.id !== undefined && body.id !== null && body.id !== '') {
      throw badRequest(`新增${def.label}不能带有ID`);
    }
    const { value, errors } = validateRecord(def, body, 'create');
    if (Object.keys(errors).length) throw validationError(errors);
    const id = await write(async (db) => {
      await checkParent(req, db, Number(value.pid));
      await opts.beforeWrite?.(value, { req, db, mode: 'create' });
      await checkUnique(db, value);
      const now = nowIso();
      return insertReturningId(db, app.ctx.dialect, table, { ...apiToDb(def, value), create_time: now, update_time: now });
    });
    reply.status(201);
    return toNode((await app.ctx.db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Row);
  });

  app.put(base, { config: { auth: authFor('edit'), log: `修改${def.label}` } }, async (req, reply) => {
    const { value, errors } = validateRecord(def, prepare(req.body), 'update');
    if (Object.keys(errors).length) throw validationError(errors);
    const id = value.id as number;
    await write(async (db) => {
      const current = await findVisible(req, db, id);
      if (!current) throw notFound(`${def.label}不存在或无权访问`);
      const existing = rowToApi(def, current);
      if (value.pid !== undefined && Number(value.pid) !== Number(existing.pid)) await checkParent(req, db, Number(value.pid), id);
      await opts.beforeWrite?.(value, { req, db, mode: 'update', existing });
      await checkUnique(db, { ...existing, ...value }, id);
      const { id: _id, ...rest } = value;
      await db
        .updateTable(table)
        .set({ ...apiToDb(def, rest), update_time: nowIso() })
        .where('id', '=', id)
        .execute();
    });
    reply.status(204);
  });

  async function deleteIds(req: FastifyRequest, ids: number[]) {
    await write(async (db) => {
      const visibleIds = await visible(req);
      const found = new Set((await db.selectFrom(table).select('id').where('id', 'in', ids).execute()).map((r) => Number(r.id)));
      const missing = ids.filter((i) => !found.has(i) || (visibleIds !== null && !visibleIds.includes(i)));
      if (missing.length) throw notFound(`${def.label}不存在或无权访问: ${missing.slice(0, 10).join(',')}`);
      opts.guardDelete?.(ids);
      const all = collectDescendants(await treeLinks(db, table), ids);
      const children = all.filter((i) => !ids.includes(i));
      if (children.length && opts.childrenOnDelete !== 'cascade') throw conflict(opts.childrenOnDelete.refuse);
      await opts.beforeDelete?.(all, { req, db });
      for (let i = 0; i < all.length; i += 500) await db.deleteFrom(table).where('id', 'in', all.slice(i, i + 500)).execute();
    });
  }

  app.delete(`${base}/:id`, { config: { auth: authFor('delete'), log: `删除${def.label}` } }, async (req) => {
    await deleteIds(req, [parseId((req.params as { id: string }).id)]);
    return {};
  });

  app.delete(base, { config: { auth: authFor('delete'), log: `批量删除${def.label}` } }, async (req) => {
    await deleteIds(req, parseIdArray(req.body));
    return {};
  });
}
