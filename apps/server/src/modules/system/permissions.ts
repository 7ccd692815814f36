import type { FastifyInstance } from 'fastify';
import { ALL_PERMISSION_CODES } from '@app/shared/permissions';
import { permissionResource } from '@app/shared/resources/permission';
import { badRequest } from '../../core/errors.ts';
import { labelTree } from './menus.ts';
import { registerTreeCrud } from './treeCrud.ts';

export const PERMISSION_TREE_READERS = ['PERMISSION_ALL', 'PERMISSION_SELECT', 'PERMISSION_CREATE', 'PERMISSION_EDIT', 'PERMISSION_DELETE', 'ROLES_ALL', 'ROLES_SELECT', 'ROLES_EDIT'];
const BUILT_IN = new Set(ALL_PERMISSION_CODES);

/**
 * Permission codes. The server's routes check codes by name, so the built-in names (ADMIN above all)
 * cannot be renamed, and ADMIN cannot be deleted (not even as a descendant of a deleted node).
 */
export function registerPermissions(app: FastifyInstance): void {
  app.get('/api/permissions/tree', { config: { auth: PERMISSION_TREE_READERS } }, async () => {
    const rows = await app.ctx.db.selectFrom('sys_permission').select(['id', 'pid', 'alias']).orderBy('id', 'asc').execute();
    return labelTree(rows.map((r) => ({ id: Number(r.id), pid: Number(r.pid), label: r.alias as string })));
  });

  registerTreeCrud(app, {
    def: permissionResource,
    parentLabel: '上级权限',
    childrenOnDelete: 'cascade',
    decorate: (node) => {
      node.label = node.alias;
    },
    beforeWrite: (values, { mode, existing }) => {
      if (mode === 'update' && values.name !== undefined && values.name !== existing!.name && BUILT_IN.has(String(existing!.name))) {
        throw badRequest(existing!.name === 'ADMIN' ? '超级管理员权限不能改名' : `内置权限 ${existing!.name} 不能改名`);
      }
    },
    beforeDelete: async (ids, { db }) => {
      const admin = await db.selectFrom('sys_permission').select('id').where('name', '=', 'ADMIN').where('id', 'in', ids).executeTakeFirst();
      if (admin) throw badRequest('超级管理员权限不能删除');
      for (let i = 0; i < ids.length; i += 500) await db.deleteFrom('sys_roles_permissions').where('permission_id', 'in', ids.slice(i, i + 500)).execute();
    },
  });
}
