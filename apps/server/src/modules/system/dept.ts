import { dynamicDb } from '../../core/db.ts';
import type { FastifyInstance } from 'fastify';
import { deptResource } from '@app/shared/resources/dept';
import { permissionCodes } from '@app/shared/resource';
import { AppError } from '../../core/errors.ts';
import { requestDeptScope, whereDeptInScope } from '../../core/rbac.ts';
import { registerResource } from '../../crud/registerResource.ts';

/** The root department (总公司) every installation has; it can be renamed but never deleted. */
export const ROOT_DEPT_ID = 1;

/** Who may read the department tree: its managers and the screens that pick a department. */
export const DEPT_READERS = [
  ...permissionCodes(deptResource, 'list'),
  'USER_ALL',
  'USER_SELECT',
  'USER_CREATE',
  'USER_EDIT',
  'USER_DELETE',
  'USERJOB_ALL',
  'USERJOB_SELECT',
  'USERJOB_CREATE',
  'USERJOB_EDIT',
  'ROLES_ALL',
  'ROLES_SELECT',
  'ROLES_CREATE',
  'ROLES_EDIT',
];

/** Departments: a tree restricted to the caller's data scope; deletes refuse while anything depends on them. */
export function registerDepartments(app: FastifyInstance): void {
  registerResource(app, deptResource, {
    auth: { list: DEPT_READERS },
    scope: async (req, qb) => whereDeptInScope(qb, 'sys_dept.id', await requestDeptScope(req, app.ctx.db)),
    beforeWrite: async (values, { req, db, mode }) => {
      // A new top-level department is outside every limited scope.
      if (mode === 'create' && values.pid === 0 && (await requestDeptScope(req, db)) !== null) throw new AppError('DEPT_TOP_FORBIDDEN');
    },
    guardDelete: (ids) => {
      if (ids.includes(ROOT_DEPT_ID)) throw new AppError('DEPT_ROOT_DELETE');
    },
    beforeDelete: async (ids, { db }) => {
      // one look-up for each table that points at a department (table and column given below)
      const hasRows = async (table: string, column: string) => !!(await dynamicDb(db).selectFrom(table).select(column).where(column, 'in', ids).limit(1).executeTakeFirst());
      if (await hasRows('sys_user', 'dept_id')) throw new AppError('DEPT_HAS_USERS');
      if (await hasRows('sys_job', 'dept_id')) throw new AppError('DEPT_HAS_JOBS');
      if (await hasRows('sys_roles_depts', 'dept_id')) throw new AppError('DEPT_HAS_ROLES');
    },
    decorate: (rows) => {
      for (const r of rows) r.label = r.name;
    },
  });
}
