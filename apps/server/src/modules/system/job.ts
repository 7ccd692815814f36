import type { FastifyInstance } from 'fastify';
import { jobResource } from '@app/shared/resources/job';
import { AppError } from '../../core/errors.ts';
import { deptInScope, requestDeptScope, whereDeptInScope } from '../../core/rbac.ts';
import { registerResource } from '../../crud/registerResource.ts';
import { refId } from './relations.ts';

/** Positions (岗位): each belongs to a department; visible within the caller's data scope. */
export function registerJobs(app: FastifyInstance): void {
  registerResource(app, jobResource, {
    prepareBody: (body) => (body.dept !== undefined && body.deptId === undefined ? { ...body, deptId: refId(body.dept) } : body),
    scope: async (req, qb) => whereDeptInScope(qb, 'sys_job.dept_id', await requestDeptScope(req, app.ctx.db)),
    beforeWrite: async (values, { req, db }) => {
      if (values.deptId === undefined) return;
      const dept = await db.selectFrom('sys_dept').select('id').where('id', '=', values.deptId as number).executeTakeFirst();
      if (!dept || !deptInScope(await requestDeptScope(req, db), values.deptId as number)) {
        throw new AppError('JOB_DEPT_MISSING', {}, { deptId: { code: 'JOB_DEPT_MISSING' } });
      }
    },
    beforeDelete: async (ids, { db }) => {
      const held = await db.selectFrom('sys_user').select('id').where('job_id', 'in', ids).limit(1).executeTakeFirst();
      if (held) throw new AppError('JOB_HAS_USERS');
    },
    decorate: async (rows) => {
      const deptIds = [...new Set(rows.map((r) => r.deptId as number).filter((id) => id !== null))];
      const depts = deptIds.length
        ? await app.ctx.db
            .selectFrom('sys_dept as d')
            .leftJoin('sys_dept as p', 'p.id', 'd.pid')
            .select(['d.id', 'd.name', 'p.name as superior'])
            .where('d.id', 'in', deptIds)
            .execute()
        : [];
      const byId = new Map(depts.map((d) => [Number(d.id), d]));
      for (const r of rows) {
        const d = byId.get(r.deptId as number);
        r.dept = d ? { id: Number(d.id), name: d.name } : null;
        r.deptSuperiorName = d?.superior ?? null;
      }
    },
  });
}
