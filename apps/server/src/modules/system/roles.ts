import type { FastifyInstance, FastifyRequest } from 'fastify';
import { permissionCodes } from '@app/shared/resource';
import { roleResource } from '@app/shared/resources/role';
import type { Db } from '../../core/db.ts';
import { badRequest, conflict, forbidden, notFound } from '../../core/errors.ts';
import { assertManagesLevels, holdsAdmin, requestDeptScope } from '../../core/rbac.ts';
import { parseId, registerResource } from '../../crud/registerResource.ts';
import { assertIdsExist, parseIdRefs, replaceLinks } from './relations.ts';

type Row = Record<string, unknown>;

const USER_CODES = ['USER_ALL', 'USER_SELECT', 'USER_CREATE', 'USER_EDIT', 'USER_DELETE'];
const pendingDeptIds = new WeakMap<FastifyRequest, number[]>();

/** Menus, permissions and departments of roles, as the role screen ticks them in its trees. */
async function attachRoleRelations(db: Db, rows: Row[]): Promise<void> {
  const ids = rows.map((r) => r.id as number);
  const [menus, perms, depts] = await Promise.all([
    db.selectFrom('sys_roles_menus as rm').innerJoin('sys_menu as m', 'm.id', 'rm.menu_id').select(['rm.role_id', 'm.id', 'm.pid']).where('rm.role_id', 'in', ids).orderBy('m.id').execute(),
    db
      .selectFrom('sys_roles_permissions as rp')
      .innerJoin('sys_permission as p', 'p.id', 'rp.permission_id')
      .select(['rp.role_id', 'p.id', 'p.name', 'p.alias'])
      .where('rp.role_id', 'in', ids)
      .orderBy('p.id')
      .execute(),
    db.selectFrom('sys_roles_depts as rd').innerJoin('sys_dept as d', 'd.id', 'rd.dept_id').select(['rd.role_id', 'd.id', 'd.name']).where('rd.role_id', 'in', ids).orderBy('d.id').execute(),
  ]);
  for (const r of rows) {
    const mine = <T extends { role_id: unknown }>(list: T[]) => list.filter((x) => Number(x.role_id) === r.id);
    r.menus = mine(menus).map((m) => ({ id: Number(m.id), pid: Number(m.pid) }));
    r.permissions = mine(perms).map((p) => ({ id: Number(p.id), name: p.name, alias: p.alias }));
    r.depts = mine(depts).map((d) => ({ id: Number(d.id), name: d.name }));
  }
}

/** A role the caller may change: it exists and ranks below them (404 / 403 otherwise). */
async function manageableRole(req: FastifyRequest, db: Db, id: number): Promise<Row> {
  const role = await db.selectFrom('sys_role').selectAll().where('id', '=', id).executeTakeFirst();
  if (!role) throw notFound('角色不存在');
  assertManagesLevels(req.user!, [Number(role.level)]);
  return role as Row;
}

/** Parse `{id, <key>: [{id}]}` bodies of the assignment endpoints. */
function assignmentBody(raw: unknown, key: 'menus' | 'permissions'): { id: number; ids: number[] } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest('请求体必须是JSON对象');
  const body = raw as Row;
  if (body.id === undefined || body.id === null || body.id === '') throw badRequest('ID不能为空');
  const id = parseId(body.id);
  if (body[key] === undefined) throw badRequest(key === 'menus' ? '请选择菜单' : '请选择权限');
  return { id, ids: parseIdRefs(body[key], key === 'menus' ? '菜单格式不正确，应为 [{id}]' : '权限格式不正确，应为 [{id}]') };
}

/** Roles: CRUD with the level rules, data-scope departments, and menu/permission assignment. */
export function registerRoles(app: FastifyInstance): void {
  const db = () => app.ctx.db;
  registerResource(app, roleResource, {
    beforeWrite: async (values, { req, db: trx, mode, existing }) => {
      const actor = req.user!;
      // Nobody edits a role at or above their own level, nor lifts one there (level 1 excepted).
      if (mode === 'update') assertManagesLevels(actor, [Number(existing!.level)]);
      assertManagesLevels(actor, [Number(values.level)]);
      const callerScope = await requestDeptScope(req, trx);
      if (values.dataScope === '全部' && callerScope !== null) throw forbidden('数据权限不足，不能设置“全部”数据范围');
      const body = (req.body ?? {}) as Row;
      let deptIds: number[] = [];
      if (values.dataScope === '自定义') {
        deptIds = body.depts === undefined || body.depts === null ? [] : parseIdRefs(body.depts, '部门格式不正确，应为 [{id}]');
        if (deptIds.length === 0) throw badRequest('自定义数据权限不能为空', { depts: '自定义数据权限不能为空' });
        await assertIdsExist(trx, 'sys_dept', deptIds, '部门');
        if (callerScope !== null && deptIds.some((d) => !callerScope.includes(d))) throw forbidden('无权分配该部门的数据权限');
      }
      pendingDeptIds.set(req, deptIds);
    },
    afterWrite: async (row, { req, db: trx }) => {
      await replaceLinks(trx, 'sys_roles_depts', 'role_id', row.id as number, 'dept_id', pendingDeptIds.get(req) ?? []);
    },
    beforeDelete: async (ids, { req, db: trx }) => {
      const roles = await trx.selectFrom('sys_role').select('level').where('id', 'in', ids).execute();
      assertManagesLevels(
        req.user!,
        roles.map((r) => Number(r.level)),
      );
      if (await trx.selectFrom('sys_users_roles').select('user_id').where('role_id', 'in', ids).limit(1).executeTakeFirst()) {
        throw conflict('所选角色存在用户关联，请解除关联再试！');
      }
      for (const table of ['sys_roles_menus', 'sys_roles_permissions', 'sys_roles_depts']) await trx.deleteFrom(table).where('role_id', 'in', ids).execute();
    },
    decorate: (rows) => attachRoleRelations(db(), rows),
  });

  app.get('/api/roles/all', { config: { auth: [...permissionCodes(roleResource, 'list'), ...USER_CODES] } }, async () => {
    const rows = await db().selectFrom('sys_role').select(['id', 'name', 'level', 'data_scope', 'remark']).orderBy('level', 'asc').orderBy('id', 'asc').execute();
    return rows.map((r) => ({ id: Number(r.id), name: r.name, level: Number(r.level), dataScope: r.data_scope, remark: r.remark }));
  });

  // The user dialog disables roles the caller may not hand out; the server checks again on save.
  app.get('/api/roles/level', { config: { auth: 'user' } }, async (req) => ({ level: Number.isFinite(req.user!.level) ? req.user!.level : null }));

  const editCodes = permissionCodes(roleResource, 'edit');
  app.put('/api/roles/menu', { config: { auth: editCodes, log: '修改角色菜单' } }, async (req, reply) => {
    const { id, ids } = assignmentBody(req.body, 'menus');
    await db()
      .transaction()
      .execute(async (trx) => {
        await manageableRole(req, trx, id);
        await assertIdsExist(trx, 'sys_menu', ids, '菜单');
        await replaceLinks(trx, 'sys_roles_menus', 'role_id', id, 'menu_id', ids);
      });
    reply.status(204);
  });

  app.put('/api/roles/permission', { config: { auth: editCodes, log: '修改角色权限' } }, async (req, reply) => {
    const { id, ids } = assignmentBody(req.body, 'permissions');
    await db()
      .transaction()
      .execute(async (trx) => {
        await manageableRole(req, trx, id);
        await assertIdsExist(trx, 'sys_permission', ids, '权限');
        if (!holdsAdmin(req.user!)) {
          // Without ADMIN one may hand on only codes one holds oneself; otherwise an editor could give a lower
          // role powers they lack and then assign that role to a user of their own making. ADMIN itself is
          // neither granted nor taken away by anyone but a holder of ADMIN.
          const current = await trx.selectFrom('sys_roles_permissions').select('permission_id').where('role_id', '=', id).execute();
          const had = new Set(current.map((r) => Number(r.permission_id)));
          const changed = [...ids.filter((p) => !had.has(p)), ...[...had].filter((p) => !ids.includes(p))];
          if (changed.length) {
            const tree = new Map((await trx.selectFrom('sys_permission').select(['id', 'pid', 'name']).execute()).map((p) => [Number(p.id), { pid: Number(p.pid), name: String(p.name) }]));
            if (changed.some((p) => tree.get(p)?.name === 'ADMIN')) throw forbidden('只有超级管理员才能授予或收回超级管理员权限');
            const own = new Set(req.user!.permissions);
            const foreign = changed.filter((p) => !had.has(p) && !heldInTree(tree, own, p)).map((p) => tree.get(p)!.name);
            if (foreign.length) throw forbidden(`不能授予自己没有的权限：${foreign.join('、')}`);
          }
        }
        await replaceLinks(trx, 'sys_roles_permissions', 'role_id', id, 'permission_id', ids);
      });
    reply.status(204);
  });
}

/**
 * Is a permission held through the tree: the code itself or any code above it (a parent such as USER_ALL
 * holds all of its children)? Cycle-safe.
 */
function heldInTree(tree: ReadonlyMap<number, { pid: number; name: string }>, own: ReadonlySet<string>, id: number): boolean {
  const seen = new Set<number>();
  let at = id;
  for (let node = tree.get(at); node && !seen.has(at); node = tree.get(at)) {
    if (own.has(node.name)) return true;
    seen.add(at);
    at = node.pid;
  }
  return false;
}
