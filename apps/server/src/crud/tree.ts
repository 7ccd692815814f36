import { dynamicDb } from '../core/db.ts';
import type { Db } from '../core/db.ts';

/**
 * Helpers of tree-shaped resources (a definition's `tree` option): nesting rows under their parents and the
 * `{id, parent}` pairs the cycle check walks.
 */

/**
 * Nest nodes under their parents, keeping the input order among siblings. A node whose parent is not in
 * the list (filtered out, outside the data scope) becomes a root, so a match deep in the tree still shows.
 */
export function buildTree<T extends { id: number; pid: number }>(nodes: readonly T[]): (T & { children?: T[] })[] {
  return nestBy(nodes, 'pid') as (T & { children?: T[] })[];
}

/** `buildTree` over any parent field (the definition's `tree.parentField`). */
export function nestBy<T extends Record<string, unknown>>(nodes: readonly T[], parentField: string): (T & { children?: T[] })[] {
  const byId = new Map<number, T & { children?: T[] }>();
  for (const n of nodes) byId.set(Number(n.id), { ...n });
  const roots: (T & { children?: T[] })[] = [];
  for (const n of nodes) {
    const node = byId.get(Number(n.id))!;
    const pid = Number(n[parentField]);
    const parent = pid !== Number(n.id) ? byId.get(pid) : undefined;
    if (parent) (parent.children ??= []).push(node);
    else roots.push(node);
  }
  return roots;
}

/** All `{id, pid}` pairs of a tree table (`parentColumn` holds the parent's id, 0 at the top). */
export async function treeLinks(db: Db, table: string, parentColumn = 'pid'): Promise<{ id: number; pid: number }[]> {
  const rows = await dynamicDb(db).selectFrom(table).select(['id', `${parentColumn} as pid`]).execute();
  return rows.map((r) => ({ id: Number(r.id), pid: Number(r.pid) }));
}
