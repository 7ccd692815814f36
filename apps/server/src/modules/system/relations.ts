import type { Db } from '../../core/db.ts';
import { badRequest } from '../../core/errors.ts';

/**
 * Many-to-many links of the system tables (users-roles, roles-menus, roles-permissions, roles-depts):
 * parsing `[{id}, ...]` bodies, checking the ids exist, and replacing a whole set in the caller's
 * transaction.
 */

const MAX_LINKS = 2000;

/** Parse `[{id}, ...]` (or `[id, ...]`) into distinct positive ids; 400 with `message` when malformed. */
export function parseIdRefs(raw: unknown, message: string): number[] {
  if (!Array.isArray(raw)) throw badRequest(message);
  if (raw.length > MAX_LINKS) throw badRequest(`一次最多提交${MAX_LINKS}项`);
  const ids = new Set<number>();
  for (const item of raw) {
    const id = item !== null && typeof item === 'object' ? (item as { id?: unknown }).id : item;
    const s = typeof id === 'number' || typeof id === 'string' ? String(id) : '';
    if (!/^\d{1,15}$/.test(s) || Number(s) <= 0) throw badRequest(message);
    ids.add(Number(s));
  }
  return [...ids];
}

/** An `{id}` object (or a bare id) from a body field such as `dept: {id}`; undefined when absent. */
export function refId(raw: unknown): unknown {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) return (raw as { id?: unknown }).id;
  return raw;
}

/** 400 naming the missing ids unless every id exists in `table`. */
export async function assertIdsExist(db: Db, table: string, ids: readonly number[], what: string): Promise<void> {
  if (ids.length === 0) return;
  const found = new Set((await db.selectFrom(table).select('id').where('id', 'in', [...ids]).execute()).map((r) => Number(r.id)));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw badRequest(`${what}不存在: ${missing.slice(0, 10).join(',')}`);
}

/** Replace the set of `targetColumn` values linked to one owner. Run it inside the write's transaction. */
export async function replaceLinks(db: Db, table: string, ownerColumn: string, ownerId: number, targetColumn: string, targetIds: readonly number[]): Promise<void> {
  await db.deleteFrom(table).where(ownerColumn, '=', ownerId).execute();
  for (let i = 0; i < targetIds.length; i += 500) {
    const chunk = targetIds.slice(i, i + 500);
    await db
      .insertInto(table)
      .values(chunk.map((t) => ({ [ownerColumn]: ownerId, [targetColumn]: t })))
      .execute();
  }
}
