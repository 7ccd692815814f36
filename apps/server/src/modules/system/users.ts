import fs from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { userResource } from '@app/shared/resources/user';
import { exportUsers, USER_LIST_FILTERS } from '@app/shared/contracts/system';
import { generatePassword, hashPassword } from '../../core/auth/password.ts';
import type { Db } from '../../core/db.ts';
import { nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { sendXlsx, pagedRows } from '../../core/excel/writeXlsx.ts';
import { assertManagesLevels, deptInScope, deptWithDescendants, holdsAdmin, requestDeptScope, userLevels, whereDeptInScope } from '../../core/rbac.ts';
import { registerResource } from '../../crud/registerResource.ts';
import { parsePaging, sortableColumns } from '../../crud/listQuery.ts';
import { rowToApi } from '../../crud/rowMapping.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { assertIdsExist } from '../../crud/links.ts';
import { argList, runStatement } from '../../crud/compiledQuery.ts';
import { refId } from './relations.ts';
import { avatarPath } from './avatars.ts';

type Row = Record<string, unknown>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The generated initial password of the user this request creates: shown in the create response only (never stored in clear, never logged). */
    issuedPassword: string | null;
  }
}

/** Add `dept {id,name}` and `job {id,name}` to user rows (`roles` is the definition's link-table field). */
export async function attachUserRelations(db: Db, rows: Row[]): Promise<void> {
  const deptIds = [...new Set(rows.map((r) => r.deptId as number).filter((v) => v !== null))];
  const jobIds = [...new Set(rows.map((r) => r.jobId as number).filter((v) => v !== null))];
  // compiled once per table and number of ids (compiledQuery.ts): a list page asks these on every request
  const namesOf = (table: 'sys_dept' | 'sys_job', ids: number[]) =>
    ids.length ? runStatement<{ id: number; name: string | null }>(db, `names ${table} ${ids.length}`, ids, (arg) => db.selectFrom(table).select(['id', 'name']).where('id', 'in', argList<number>(arg, ids.length))) : [];
  const [depts, jobs] = await Promise.all([namesOf('sys_dept', deptIds), namesOf('sys_job', jobIds)]);
  const deptById = new Map(depts.map((d) => [Number(d.id), { id: Number(d.id), name: d.name as string }]));
  const jobById = new Map(jobs.map((j) => [Number(j.id), { id: Number(j.id), name: j.name as string }]));
  for (const r of rows) {
    r.dept = deptById.get(r.deptId as number) ?? null;
    r.job = jobById.get(r.jobId as number) ?? null;
  }
}

/** Levels of the given roles, and whether any of them carries the ADMIN code. */
async function describeRoles(db: Db, roleIds: number[]): Promise<{ levels: number[]; grantsAdmin: boolean }> {
  const roles = await db.selectFrom('sys_role').select(['id', 'level']).where('id', 'in', roleIds).execute();
  const admin = await db
    .selectFrom('sys_roles_permissions as rp')
    .innerJoin('sys_permission as p', 'p.id', 'rp.permission_id')
    .select('rp.role_id')
    .where('rp.role_id', 'in', roleIds)
    .where('p.name', '=', 'ADMIN')
    .executeTakeFirst();
  return { levels: roles.map((r) => Number(r.level)), grantsAdmin: !!admin };
}

/** The check every user write goes through: roles, levels, department scope, self-protection. */
async function checkUserWrite(req: FastifyRequest, db: Db, values: Row, mode: 'create' | 'update', existing?: Row): Promise<void> {
  const actor = req.user!;
  // `roles` was parsed by the route schema (the refMany kind) into distinct ids; the CRUD writes the links
  const roleIds = values.roles as number[] | null | undefined;
  if (!roleIds?.length) throw new AppError('USER_ROLES_REQUIRED', {}, { roles: { code: 'USER_ROLES_REQUIRED' } });
  await assertIdsExist(db, 'sys_role', roleIds, '角色');
  const deptExists = await db.selectFrom('sys_dept').select('id').where('id', '=', values.deptId as number).executeTakeFirst();
  if (!deptExists) throw new AppError('DEPT_NOT_FOUND', {}, { deptId: { code: 'DEPT_NOT_FOUND' } });
  if (!(await db.selectFrom('sys_job').select('id').where('id', '=', values.jobId as number).executeTakeFirst())) {
    throw new AppError('JOB_NOT_FOUND', {}, { jobId: { code: 'JOB_NOT_FOUND' } });
  }

  if (mode === 'update') {
    const targetId = existing!.id as number;
    if (targetId === actor.id && values.enabled === false) throw new AppError('USER_DISABLE_SELF');
    const current = (await userLevels(db, [targetId])).get(targetId);
    if (current !== undefined) assertManagesLevels(actor, [current]);
  }
  const { levels, grantsAdmin } = await describeRoles(db, roleIds);
  assertManagesLevels(actor, levels);
  if (grantsAdmin && !holdsAdmin(actor)) throw new AppError('USER_ADMIN_ROLE');
  if (!deptInScope(await requestDeptScope(req, db), values.deptId as number)) throw new AppError('USER_DEPT_FORBIDDEN');

  // employee logins have no e-mail (U6): null stays null
  if (typeof values.email === 'string') values.email = values.email.toLowerCase();
  // One account per name whatever the case, on every database (MySQL compares case-insensitively anyway).
  let sameName = db
    .selectFrom('sys_user')
    .select('id')
    .where(sql`lower(${sql.ref('username')})`, '=', String(values.username).toLowerCase());
  if (existing) sameName = sameName.where('id', '!=', existing.id as number);
  if (await sameName.executeTakeFirst()) throw new AppError('USERNAME_TAKEN');

  if (mode === 'create') {
    const password = generatePassword();
    values.passwordHash = await hashPassword(password);
    values.lastPasswordResetTime = nowIso();
    // a password the user did not choose: changed at the first login (U23)
    values.mustChangePassword = true;
    req.issuedPassword = password;
  }
}

/** Users: CRUD with roles, role-level and data-scope rules, and the Excel export. */
export function registerUsers(app: FastifyInstance): void {
  // a request property of the users routes only (checkUserWrite sets it, the create response reads it)
  app.decorateRequest('issuedPassword', null);
  const db = () => app.ctx.db;
  const users = registerResource(app, userResource, {
    prepareBody: (body) => {
      const out = { ...body };
      if (out.dept !== undefined && out.deptId === undefined) out.deptId = refId(out.dept);
      if (out.job !== undefined && out.jobId === undefined) out.jobId = refId(out.job);
      return out;
    },
    scope: async (req, qb) => whereDeptInScope(qb, 'sys_user.dept_id', await requestDeptScope(req, db())),
    query: USER_LIST_FILTERS,
    filter: async (_req, qb, query) => {
      const deptId = query.deptId as number | undefined;
      if (deptId === undefined) return qb;
      // A department means it and everything below it.
      return qb.where('sys_user.dept_id', 'in', await deptWithDescendants(db(), [deptId]));
    },
    beforeWrite: (values, ctx) => checkUserWrite(ctx.req, ctx.db, values, ctx.mode, ctx.existing),
    beforeDelete: async (ids, { req, db: trx }) => {
      const actor = req.user!;
      if (ids.includes(actor.id)) throw new AppError('USER_DELETE_SELF');
      assertManagesLevels(actor, [...(await userLevels(trx, ids)).values()]);
      const avatars = await trx.selectFrom('sys_user').select('avatar').where('id', 'in', ids).where('avatar', 'is not', null).execute();
      // Last step before the rows go: a deleted person's photo does not outlive the account.
      for (const a of avatars) {
        const file = avatarPath(app.ctx.config.dataDir, a.avatar as string);
        if (file) await fs.rm(file, { force: true });
      }
    },
    decorate: async (rows, req) => {
      await attachUserRelations(db(), rows);
      if (req.issuedPassword && req.method === 'POST' && rows.length === 1) {
        rows[0].defaultPassword = req.issuedPassword;
        req.issuedPassword = null;
      }
    },
  });

  const sortable = sortableColumns(userResource);
  routeContract(app, exportUsers, async (req, reply) => {
    const query = req.query;
    const { sort } = parsePaging(query, sortable, [['id', 'asc']]);
    const filtered = await users.listQuery(req, query);
    let qb = filtered.selectAll('sys_user');
    for (const [c, d] of sort) qb = qb.orderBy(`sys_user.${c}`, d);
    const rows = pagedRows(async (offset, limit) => {
      const page = (await qb.limit(limit).offset(offset).execute()).map((r) => rowToApi(userResource, r as Row));
      if (page.length) await Promise.all([attachUserRelations(db(), page), users.attachLinks(page)]);
      return page;
    });
    return sendXlsx(reply, {
      fileName: '用户数据',
      columns: [
        { header: '用户名', key: 'username', width: 20 },
        { header: '中文名', key: 'cname', width: 16 },
        { header: '邮箱', key: 'email', width: 28 },
        { header: '手机号码', key: 'phone', width: 16 },
        { header: '状态', value: (r) => (r.enabled ? '启用' : '禁用'), width: 8 },
        { header: '部门', value: (r) => (r.dept as { name: string } | null)?.name ?? '', width: 16 },
        { header: '岗位', value: (r) => (r.job as { name: string } | null)?.name ?? '', width: 16 },
        { header: '角色', value: (r) => (r.roles as { name: string }[]).map((x) => x.name).join(','), width: 24 },
        { header: '最后修改密码的时间', key: 'lastPasswordResetTime', kind: 'datetime', width: 22 },
        { header: '创建日期', key: 'createTime', kind: 'datetime', width: 22 },
      ],
      rows,
    });
  });
}

