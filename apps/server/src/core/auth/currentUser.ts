import type { Db } from '../db.ts';
import type { CurrentUser } from '../context.ts';

/** Load a user with department, job, roles and permission codes; null when the user is gone. */
export async function loadCurrentUser(db: Db, userId: number): Promise<(Omit<CurrentUser, 'tokenJti' | 'tokenExp'> & { tokenVersion: number }) | null> {
  const u = await db
    .selectFrom('sys_user as u')
    .leftJoin('sys_dept as d', 'd.id', 'u.dept_id')
    .leftJoin('sys_job as j', 'j.id', 'u.job_id')
    .select([
      'u.id',
      'u.username',
      'u.cname',
      'u.email',
      'u.phone',
      'u.enabled',
      'u.avatar',
      'u.token_version',
      'u.must_change_password',
      'u.create_time',
      'u.dept_id',
      'd.name as dept_name',
      'u.job_id',
      'j.name as job_name',
    ])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!u) return null;
  const roles = await db
    .selectFrom('sys_users_roles as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select(['r.id', 'r.name', 'r.level', 'r.data_scope'])
    .where('ur.user_id', '=', userId)
    .execute();
  const roleIds = roles.map((r) => r.id as number);
  const perms = roleIds.length
    ? await db
        .selectFrom('sys_roles_permissions as rp')
        .innerJoin('sys_permission as p', 'p.id', 'rp.permission_id')
        .select('p.name')
        .distinct()
        .where('rp.role_id', 'in', roleIds)
        .execute()
    : [];
  return {
    id: u.id,
    // NOT NULL in the table (migration 0001); the definition-derived type does not carry that
    username: u.username ?? '',
    cname: u.cname,
    email: u.email,
    phone: u.phone,
    deptId: u.dept_id,
    deptName: u.dept_name,
    jobId: u.job_id,
    jobName: u.job_name,
    avatar: u.avatar,
    enabled: !!u.enabled,
    mustChangePassword: !!u.must_change_password,
    createTime: u.create_time,
    tokenVersion: Number(u.token_version),
    permissions: perms.map((p) => p.name as string).sort(),
    roles: roles.map((r) => ({ id: r.id, name: r.name ?? '', level: Number(r.level), dataScope: r.data_scope ?? '' })),
    level: roles.length ? Math.min(...roles.map((r) => Number(r.level))) : Number.POSITIVE_INFINITY,
  };
}
