import type { FastifyInstance } from 'fastify';
import { isBuiltInPermission } from '@app/shared/permissions';
import { type PermissionNode, permissionTree } from '@app/shared/contracts/systemTrees';
import { permissionResource } from '@app/shared/resources/permission';
import { AppError } from '../../core/errors.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { registerResource } from '../../crud/registerResource.ts';
import { buildTree } from '../../crud/tree.ts';


/**
 * Permission codes. The server's routes check the built-in codes by name, and who holds what is judged from
 * the shipped hierarchy (`@app/shared/permissions`), so the built-in codes keep their name and their place in
 * the tree, and are never deleted (not even as a descendant of a deleted node). Operator-made codes may be
 * renamed, moved (anywhere: a place in the tree confers nothing) and deleted.
 */
export function registerPermissions(app: FastifyInstance): void {
  routeContract(app, permissionTree, async () => {
    const rows = await app.ctx.db.selectFrom('sys_permission').select(['id', 'pid', 'name', 'alias']).orderBy('id', 'asc').execute();
    const strip = (n: PermissionNode & { pid?: number }): PermissionNode => {
      const out: PermissionNode = { id: n.id, label: n.label, name: n.name };
      if (n.children?.length) out.children = n.children.map(strip);
      return out;
    };
    return buildTree(rows.map((r) => ({ id: Number(r.id), pid: Number(r.pid), name: String(r.name), label: String(r.alias) }))).map(strip);
  });

  registerResource(app, permissionResource, {
    decorate: (rows) => {
      for (const r of rows) r.label = r.alias;
    },
    beforeWrite: (values, { mode, existing }) => {
      if (mode !== 'update' || !isBuiltInPermission(String(existing!.name))) return;
      const fixed = { code: 'PERMISSION_BUILT_IN_FIXED' } as const;
      const fieldErrors: Record<string, typeof fixed> = {};
      if (values.name !== undefined && values.name !== existing!.name) fieldErrors.name = fixed;
      if (values.pid !== undefined && Number(values.pid) !== Number(existing!.pid)) fieldErrors.pid = fixed;
      if (Object.keys(fieldErrors).length) throw new AppError(fixed.code, {}, fieldErrors);
    },
    beforeDelete: async (ids, { db }) => {
      const rows: { id: number; name: string }[] = [];
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = await db.selectFrom('sys_permission').select(['id', 'name']).where('id', 'in', ids.slice(i, i + 500)).execute();
        rows.push(...chunk.map((r) => ({ id: Number(r.id), name: String(r.name) })));
      }
      const names = rows.sort((a, b) => a.id - b.id).map((r) => r.name);
      if (names.includes('ADMIN')) throw new AppError('PERMISSION_ADMIN_DELETE');
      const builtIn = names.filter(isBuiltInPermission);
      if (builtIn.length) throw new AppError('PERMISSION_BUILT_IN_DELETE', { codes: builtIn.slice(0, 10).join('、') });
      for (let i = 0; i < ids.length; i += 500) await db.deleteFrom('sys_roles_permissions').where('permission_id', 'in', ids.slice(i, i + 500)).execute();
    },
  });
}
