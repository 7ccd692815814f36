import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { createStaffAccounts, MAX_STAFF_ACCOUNTS, type SkipReason, STAFF_ACCOUNT_READ_CODES, type StaffAccountsAnswer } from '@app/shared/contracts/staffAccounts';
import { ORDINARY_EMPLOYEE_JOB } from '@app/shared/permissions';
import { hasPermission } from '@app/shared/resource';
import { userResource } from '@app/shared/resources/user';
import { generatePassword, hashPassword } from '../../core/auth/password.ts';
import type { Db } from '../../core/db.ts';
import { insertReturningId, isUniqueViolation, nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { assertManagesLevels, deptInScope, holdsAdmin, requestDeptScope } from '../../core/rbac.ts';
import { routeContract } from '../../crud/registerContract.ts';
import type { RegisteredResource } from '../../crud/registerResource.ts';

/**
 * 为员工开通账号 (findings 2026-11, issue 13): logins for staff from the staff list, one or many at a time.
 * Ordinary employees are recognised by their job (普通员工) and see the payslips whose ID card equals their
 * username (modules/payroll/payslipRoutes), so an account is: username = the staff's ID card, name = the
 * staff's name, job and role 普通员工, enabled, a random password shown once in the answer.
 */

/** The seed names the ordinary employees' role as their job; the role grants only ACPAYSLIP_SELECT. */
const ORDINARY_EMPLOYEE_ROLE = ORDINARY_EMPLOYEE_JOB;
/** Hashing is argon2 (~50 ms, memory-hard): two at a time, so a batch of 500 does not starve the server. */
const HASH_CONCURRENCY = 2;

/** The Chinese reason of each skip (the web shows its own translation of the code). */
export { MAX_STAFF_ACCOUNTS, type SkipReason, type StaffAccountsAnswer };

export const SKIP_REASONS: Record<SkipReason, string> = {
  NOT_FOUND: '员工不存在或无权访问',
  NO_ID_CARD: '没有身份证号',
  ACCOUNT_EXISTS: '账号已存在',
};

const PHONE_PATTERN = userResource.fields.find((f) => f.name === 'phone')?.pattern?.regex;

interface Target {
  jobId: number;
  roleId: number;
  deptId: number;
}

/**
 * The job, role and department every new account gets, checked with the users module's rules: the caller
 * must rank above the role, may hand on ADMIN only holding it, and must have the department in their data
 * scope. The department is the 普通员工 job's own (set in 岗位管理), so an operator decides where these
 * accounts live without a new setting.
 */
async function accountTarget(req: FastifyRequest, db: Db): Promise<Target> {
  const actor = req.user!;
  const job = await db.selectFrom('sys_job').select(['id', 'dept_id']).where('name', '=', ORDINARY_EMPLOYEE_JOB).orderBy('id').executeTakeFirst();
  if (!job) throw new AppError('STAFF_ACCOUNT_NO_JOB');
  const role = await db.selectFrom('sys_role').select(['id', 'level']).where('name', '=', ORDINARY_EMPLOYEE_ROLE).executeTakeFirst();
  if (!role) throw new AppError('STAFF_ACCOUNT_NO_ROLE');
  assertManagesLevels(actor, [Number(role.level)]);
  const grantsAdmin = await db
    .selectFrom('sys_roles_permissions as rp')
    .innerJoin('sys_permission as p', 'p.id', 'rp.permission_id')
    .select('rp.role_id')
    .where('rp.role_id', '=', role.id)
    .where('p.name', '=', 'ADMIN')
    .executeTakeFirst();
  if (grantsAdmin && !holdsAdmin(actor)) throw new AppError('USER_ADMIN_ROLE');
  const deptId = job.dept_id === null || job.dept_id === undefined ? null : Number(job.dept_id);
  const dept = deptId === null ? undefined : await db.selectFrom('sys_dept').select('id').where('id', '=', deptId).executeTakeFirst();
  if (deptId === null || !dept) throw new AppError('STAFF_ACCOUNT_NO_DEPT');
  if (!deptInScope(await requestDeptScope(req, db), deptId)) throw new AppError('USER_DEPT_FORBIDDEN');
  return { jobId: Number(job.id), roleId: Number(role.id), deptId };
}

/** Run `fn` over `items`, at most `limit` at a time, keeping the order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * `POST /api/accountsStaff/accounts` with `{ids}` (1..500 staff ids). Needs a user-creation code (as
 * `POST /api/users`) and a staff-reading code (checked here: a route holds one list of alternatives).
 * Staff are looked up through the staff list's own scoped query, so a row of a company outside the
 * caller's data scope is skipped as not found. Passwords leave the server only in this answer; the
 * operation log records the request (the ids), never the answer.
 */
export function registerStaffAccounts(app: FastifyInstance, staff: RegisteredResource): void {
  routeContract(app, createStaffAccounts, async (req): Promise<StaffAccountsAnswer> => {
    if (!hasPermission(req.user!.permissions, STAFF_ACCOUNT_READ_CODES)) throw new AppError('STAFF_ACCOUNT_STAFF_FORBIDDEN');
    const db = app.ctx.db;
    const ids = req.body.ids;
    const target = await accountTarget(req, db);

    const visibleQuery = await staff.listQuery(req, {});
    const rows = await visibleQuery
      .select(['accounts_staff.id', 'accounts_staff.staff_name', 'accounts_staff.id_card', 'accounts_staff.phone'])
      .where('accounts_staff.id', 'in', ids)
      .execute();
    const byId = new Map(rows.map((r) => [Number(r.id), r as { staff_name: string | null; id_card: string | null; phone: string | null }]));
    // One account per name whatever the case, as the users module checks (MySQL compares that way anyway).
    const wanted = [...new Set(rows.map((r) => String(r.id_card ?? '').trim()).filter(Boolean))];
    const taken = new Set<string>();
    for (let i = 0; i < wanted.length; i += 500) {
      const chunk = wanted.slice(i, i + 500).map((u) => u.toLowerCase());
      const found = await db.selectFrom('sys_user').select('username').where(sql`lower(${sql.ref('username')})`, 'in', chunk).execute();
      for (const f of found) taken.add(String(f.username).toLowerCase());
    }

    const skipped: StaffAccountsAnswer['skipped'] = [];
    const toCreate: { staffId: number; staffName: string; username: string; phone: string | null }[] = [];
    const skip = (staffId: number, staffName: string | null, reasonCode: SkipReason) => skipped.push({ staffId, staffName, reasonCode, reason: SKIP_REASONS[reasonCode] });
    for (const staffId of ids) {
      const row = byId.get(staffId);
      if (!row) {
        skip(staffId, null, 'NOT_FOUND');
        continue;
      }
      const staffName = String(row.staff_name ?? '');
      const username = String(row.id_card ?? '').trim();
      if (!username) skip(staffId, staffName, 'NO_ID_CARD');
      // the same person on two companies' lists gets one account (the first row asked for)
      else if (taken.has(username.toLowerCase())) skip(staffId, staffName, 'ACCOUNT_EXISTS');
      else {
        taken.add(username.toLowerCase());
        const phone = typeof row.phone === 'string' && PHONE_PATTERN?.test(row.phone) ? row.phone : null;
        toCreate.push({ staffId, staffName, username, phone });
      }
    }

    // Hashed before the transaction (seconds for a large batch, which must not hold SQLite's one connection).
    const passwords = toCreate.map(() => generatePassword());
    const hashes = await mapLimited(passwords, HASH_CONCURRENCY, (p) => hashPassword(p));
    const now = nowIso();
    try {
      await db.transaction().execute(async (trx) => {
        for (const [i, c] of toCreate.entries()) {
          const userId = await insertReturningId(trx, app.ctx.dialect, 'sys_user', {
            username: c.username,
            cname: c.staffName,
            email: null,
            phone: c.phone,
            password_hash: hashes[i],
            enabled: 1,
            dept_id: target.deptId,
            job_id: target.jobId,
            token_version: 0,
            last_password_reset_time: now,
            // the one-time password is changed at the first login (U23)
            must_change_password: 1,
            create_time: now,
            update_time: now,
          });
          await trx.insertInto('sys_users_roles').values({ user_id: userId, role_id: target.roleId }).execute();
        }
      });
    } catch (err) {
      // Somebody made one of these accounts since the check above: nothing of this batch was written.
      if (isUniqueViolation(err)) throw new AppError('USERNAME_TAKEN');
      throw err;
    }

    const created = toCreate.map((c, i) => ({ staffId: c.staffId, staffName: c.staffName, username: c.username, password: passwords[i] }));
    const message = skipped.length ? `已开通${created.length}个账号，跳过${skipped.length}人` : `已开通${created.length}个账号`;
    return { message, created, skipped };
  });
}
