import type { FastifyRequest } from 'fastify';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { CurrentUser } from './context.ts';
import type { Db } from './db.ts';
import { AppError } from './errors.ts';

/**
 * Role-based access rules beyond the permission codes checked per route:
 * - data scope: which departments' rows a user may see (全部 / 本级 / 自定义), for every module whose rows
 *   belong to a department;
 * - role levels: smaller is higher; a user manages only what ranks strictly below them (level 1 excepted).
 */

/** Department ids a user may see; `null` means no restriction. An empty list means nothing is visible. */
export type DeptScope = number[] | null;

/** Every department id under the given ones (inclusive), walking `sys_dept.pid`. */
export async function deptWithDescendants(db: Db, rootIds: readonly number[]): Promise<number[]> {
  if (rootIds.length === 0) return [];
  const rows = await db.selectFrom('sys_dept').select(['id', 'pid']).execute();
  return collectDescendants(
    rows.map((r) => ({ id: Number(r.id), pid: Number(r.pid) })),
    rootIds,
  );
}

/** Pure helper: `roots` plus all their descendants in a `{id,pid}` forest (cycle-safe). */
export function collectDescendants(nodes: readonly { id: number; pid: number }[], roots: readonly number[]): number[] {
  const children = new Map<number, number[]>();
  for (const n of nodes) {
    const list = children.get(n.pid);
    if (list) list.push(n.id);
    else children.set(n.pid, [n.id]);
  }
  const seen = new Set<number>();
  const stack = [...roots];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const c of children.get(id) ?? []) stack.push(c);
  }
  return [...seen];
}

/**
 * The departments a user may see. Any 全部 role lifts the restriction; 本级 adds the user's own department
 * (not its children); 自定义 adds the role's departments and all their descendants. Unlike the reference
 * server, an empty result means "nothing", never "everything" (a 自定义 role without departments, a user
 * without roles or without a department).
 */
export async function computeDeptScope(db: Db, user: Pick<CurrentUser, 'deptId' | 'roles'>): Promise<DeptScope> {
  if (user.roles.some((r) => r.dataScope === '全部')) return null;
  const ids = new Set<number>();
  if (user.roles.some((r) => r.dataScope === '本级') && user.deptId !== null && user.deptId !== undefined) ids.add(Number(user.deptId));
  const customRoleIds = user.roles.filter((r) => r.dataScope === '自定义').map((r) => r.id);
  if (customRoleIds.length) {
    const rows = await db.selectFrom('sys_roles_depts').select('dept_id').where('role_id', 'in', customRoleIds).execute();
    for (const id of await deptWithDescendants(
      db,
      rows.map((r) => Number(r.dept_id)),
    ))
      ids.add(id);
  }
  return [...ids].sort((a, b) => a - b);
}

/** The caller's department scope, computed once per request (kept on `request.deptScope`, see plugins/auth.ts). */
export function requestDeptScope(req: FastifyRequest, db: Db): Promise<DeptScope> {
  if (!req.user) return Promise.resolve([]);
  req.deptScope ??= computeDeptScope(db, req.user);
  return req.deptScope;
}

/**
 * Hand a request the scope its user's cached entry already holds (the onRequest guard), so handlers and hooks
 * that ask for it get it without working it out again. Returns the same promise.
 */
export function primeRequestDeptScope(req: FastifyRequest, scope: Promise<DeptScope>): Promise<DeptScope> {
  req.deptScope = scope;
  return scope;
}

/** Restrict a query to rows whose department column lies in the scope (nothing at all for an empty scope). */
export function whereDeptInScope<QB extends SelectQueryBuilder<any, any, any>>(qb: QB, column: string, scope: DeptScope): QB {
  if (scope === null) return qb;
  if (scope.length === 0) return qb.where(sql<boolean>`1 = 0`) as QB;
  return qb.where(column, 'in', scope) as QB;
}

/** Is a department visible within a scope? */
export function deptInScope(scope: DeptScope, deptId: number | null | undefined): boolean {
  if (scope === null) return true;
  return deptId !== null && deptId !== undefined && scope.includes(Number(deptId));
}


/** May a user with `actorLevel` act on something of `targetLevel`? Level 1 may do everything. */
export function mayManageLevel(actorLevel: number, targetLevel: number): boolean {
  return actorLevel === 1 || targetLevel > actorLevel;
}

/** Throw 403 '角色权限不足' unless the caller ranks strictly above every given level (or is level 1). */
export function assertManagesLevels(user: Pick<CurrentUser, 'level'>, levels: readonly number[]): void {
  for (const level of levels) if (!mayManageLevel(user.level, level)) throw new AppError('ROLE_LEVEL_DENIED');
}

/** The highest (smallest) role level of each user; users without roles are absent. */
export async function userLevels(db: Db, userIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (userIds.length === 0) return out;
  const rows = await db
    .selectFrom('sys_users_roles as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select(['ur.user_id', 'r.level'])
    .where('ur.user_id', 'in', [...userIds])
    .execute();
  for (const r of rows) {
    const uid = Number(r.user_id);
    const level = Number(r.level);
    out.set(uid, Math.min(out.get(uid) ?? Number.POSITIVE_INFINITY, level));
  }
  return out;
}

/** Does the caller hold the ADMIN code (the only one that may hand ADMIN on)? */
export function holdsAdmin(user: Pick<CurrentUser, 'permissions'>): boolean {
  return user.permissions.includes('ADMIN');
}
