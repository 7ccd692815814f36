import type { FastifyInstance, FastifyRequest } from 'fastify';
import { holdsPermissionCode } from '@app/shared/permissions';
import { allRoles, assignRoleMenus, assignRolePermissions, ownRoleLevel } from '@app/shared/contracts/system';
import { roleResource } from '@app/shared/resources/role';
import type { Db } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { assertManagesLevels, holdsAdmin, requestDeptScope } from '../../core/rbac.ts';
import { registerResource } from '../../crud/registerResource.ts';
import { assertIdsExist, replaceLinks } from '../../crud/links.ts';
import { routeContract } from '../../crud/registerContract.ts';

type Row = Record<string, unknown>;


/** A role the caller may change: it exists and ranks below them (404 / 403 otherwise). */
async function manageableRole(req: FastifyRequest, db: Db, id: number): Promise<Row> {
  const role = await db.selectFrom('sys_role').selectAll().where('id', '=', id).executeTakeFirst();
  if (!role) throw new AppError('ROLE_NOT_FOUND');
  assertManagesLevels(req.user!, [Number(role.level)]);
  return role as Row;
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
      if (values.dataScope === '全部' && callerScope !== null) throw new AppError('ROLE_SCOPE_ALL_FORBIDDEN');
      let deptIds: number[] = [];
      if (values.dataScope === '自定义') {
        // `depts` was parsed by the route schema (the refMany kind) into distinct ids
        deptIds = (values.depts as number[] | null | undefined) ?? [];
        if (deptIds.length === 0) throw new AppError('ROLE_SCOPE_DEPTS_REQUIRED', {}, { depts: { code: 'ROLE_SCOPE_DEPTS_REQUIRED' } });
        await assertIdsExist(trx, 'sys_dept', deptIds, '部门');
        if (callerScope !== null && deptIds.some((d) => !callerScope.includes(d))) throw new AppError('ROLE_SCOPE_DEPT_FORBIDDEN');
      }
      // only a 自定义 scope keeps departments: the CRUD replaces the role's set with these
      values.depts = deptIds;
    },
    beforeDelete: async (ids, { req, db: trx }) => {
      const roles = await trx.selectFrom('sys_role').select('level').where('id', 'in', ids).execute();
      assertManagesLevels(
        req.user!,
        roles.map((r) => Number(r.level)),
      );
      if (await trx.selectFrom('sys_users_roles').select('user_id').where('role_id', 'in', ids).limit(1).executeTakeFirst()) {
        throw new AppError('ROLE_HAS_USERS');
      }
      // (the CRUD then drops the role's menus, permissions and departments: its link-table fields)
    },
  });

  routeContract(app, allRoles, async () => {
    const rows = await db().selectFrom('sys_role').select(['id', 'name', 'level', 'data_scope', 'remark']).orderBy('level', 'asc').orderBy('id', 'asc').execute();
    // name and data_scope are NOT NULL columns (0001_platform); the typed table leaves every string nullable
    return rows.map((r) => ({ id: Number(r.id), name: r.name as string, level: Number(r.level), dataScope: r.data_scope as string, remark: r.remark }));
  });

  // The user dialog disables roles the caller may not hand out; the server checks again on save.
  routeContract(app, ownRoleLevel, async (req) => ({ level: Number.isFinite(req.user!.level) ? req.user!.level : null }));

  routeContract(app, assignRoleMenus, async (req, reply) => {
    const { id, ids } = req.body;
    await db()
      .transaction()
      .execute(async (trx) => {
        await manageableRole(req, trx, id);
        await assertIdsExist(trx, 'sys_menu', ids, '菜单');
        await replaceLinks(trx, 'sys_roles_menus', 'role_id', id, 'menu_id', ids);
      });
    reply.status(204);
  });

  routeContract(app, assignRolePermissions, async (req, reply) => {
    const { id, ids } = req.body;
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
            const names = new Map((await trx.selectFrom('sys_permission').select(['id', 'name']).execute()).map((p) => [Number(p.id), String(p.name)]));
            if (changed.some((p) => names.get(p) === 'ADMIN')) throw new AppError('ROLE_ADMIN_ONLY');
            // "Held" is judged from the codes themselves (the shipped hierarchy: USER_ALL holds USER_EDIT), never
            // from the editable tree, where anyone with PERMISSION_EDIT could hang a code under one they hold.
            const own = new Set(req.user!.permissions);
            const foreign = changed.filter((p) => !had.has(p) && !holdsPermissionCode(own, names.get(p)!)).map((p) => names.get(p)!);
            if (foreign.length) throw new AppError('ROLE_FOREIGN_CODES', { codes: foreign.join('、') });
          }
        }
        await replaceLinks(trx, 'sys_roles_permissions', 'role_id', id, 'permission_id', ids);
      });
    reply.status(204);
  });
}

