import crypto from 'node:crypto';
import { ORDINARY_EMPLOYEE_JOB } from '@app/shared/permissions';
import type { Db, DialectName } from '../core/db.ts';
import { insertReturningId, nowIso } from '../core/db.ts';
import { hashPassword } from '../core/auth/password.ts';
import type { AppConfig } from '../config.ts';
import { ADMIN_ROLE_MENUS, EMPLOYEE_ROLE_MENUS } from './menus.ts';

export const DEV_ADMIN_PASSWORD = 'admin123';

export interface SeedResult {
  seeded: boolean;
  /** Set when a generated password must be shown once (production without ADMIN_PASSWORD). */
  adminPasswordShown?: string;
}

/**
 * First-start seed: departments, positions, roles (with their codes and menus) and the admin user. Runs only
 * on an empty database, in one transaction (nothing half-seeded), after the definition sync has written the
 * permission codes, menus and dictionaries (src/sync, on every start).
 */
export async function seedDatabase(db: Db, dialect: DialectName, config: Pick<AppConfig, 'adminPassword' | 'production'>): Promise<SeedResult> {
  const existing = await db.selectFrom('sys_user').select('id').limit(1).executeTakeFirst();
  if (existing) return { seeded: false };
  let adminPassword = config.adminPassword;
  let shown: string | undefined;
  if (!adminPassword) {
    if (config.production) {
      adminPassword = crypto.randomBytes(9).toString('base64url');
      shown = adminPassword;
    } else adminPassword = DEV_ADMIN_PASSWORD;
  }
  const passwordHash = await hashPassword(adminPassword);
  const now = nowIso();
  const run = async (trx: Db) => {
    const ins = (table: string, row: Record<string, unknown>) => insertReturningId(trx, dialect, table, row);
    // departments
    const head = await ins('sys_dept', { name: '总公司', pid: 0, sort: 1, enabled: 1, create_time: now });
    const hr = await ins('sys_dept', { name: '人力资源部', pid: head, sort: 2, enabled: 1, create_time: now });
    const finance = await ins('sys_dept', { name: '财务部', pid: head, sort: 3, enabled: 1, create_time: now });
    const business = await ins('sys_dept', { name: '业务部', pid: head, sort: 4, enabled: 1, create_time: now });
    await ins('sys_dept', { name: '派遣员工', pid: business, sort: 5, enabled: 1, create_time: now });
    // positions
    const jobHr = await ins('sys_job', { name: '人事专员', sort: 1, enabled: 1, dept_id: hr, create_time: now });
    await ins('sys_job', { name: '薪酬会计', sort: 2, enabled: 1, dept_id: finance, create_time: now });
    await ins('sys_job', { name: '业务经理', sort: 3, enabled: 1, dept_id: business, create_time: now });
    await ins('sys_job', { name: ORDINARY_EMPLOYEE_JOB, sort: 4, enabled: 1, dept_id: business, create_time: now });
    // permission codes and menus come from the definition sync (src/sync), which runs before the seed
    const permIds = new Map((await trx.selectFrom('sys_permission').select(['id', 'name']).execute()).map((r) => [String(r.name), Number(r.id)]));
    if (!permIds.has('ADMIN')) throw new Error('seedDatabase needs the definition sync first (src/sync prepareDatabase)');
    const menuRows = await trx.selectFrom('sys_menu').select(['id', 'pid', 'name']).execute();
    const menuIds = new Map<string, number[]>();
    const subtree = (id: number): number[] => [id, ...menuRows.filter((r) => Number(r.pid) === id).flatMap((r) => subtree(Number(r.id)))];
    for (const r of menuRows) menuIds.set(String(r.name), subtree(Number(r.id)));
    // roles
    const superRole = await ins('sys_role', { name: '超级管理员', level: 1, data_scope: '全部', remark: '拥有全部权限', create_time: now });
    const adminRole = await ins('sys_role', { name: '普通管理员', level: 2, data_scope: '全部', remark: '派遣、薪资和人事档案', create_time: now });
    const employeeRole = await ins('sys_role', { name: '普通员工', level: 3, data_scope: '本级', remark: '只能查看本人工资条', create_time: now });
    await trx.insertInto('sys_roles_permissions').values({ role_id: superRole, permission_id: permIds.get('ADMIN') }).execute();
    const businessCodes = ['ACCOUNTSCOMPANY', 'ACCOUNTSSTAFF', 'ACCOUNTSSTAFFEXTRA', 'ACCOUNTSSALARY', 'ACPAYSLIP', 'ACCENTRY', 'ACCDEPART', 'ACCINTERN', 'ACCGJJ', 'ACCSALARY', 'ACCTRAIN', 'ACCSOCIAL', 'ACCJOB'].map(
      (p) => `${p}_ALL`,
    );
    for (const code of [...businessCodes, 'DICT_SELECT'])
      await trx.insertInto('sys_roles_permissions').values({ role_id: adminRole, permission_id: permIds.get(code) }).execute();
    await trx.insertInto('sys_roles_permissions').values({ role_id: employeeRole, permission_id: permIds.get('ACPAYSLIP_SELECT') }).execute();
    const allMenus = menuRows.map((r) => Number(r.id));
    const menusOf = (names: string[]) => [...new Set(names.flatMap((n) => menuIds.get(n) ?? []))];
    for (const [role, menus] of [
      [superRole, allMenus],
      [adminRole, menusOf(ADMIN_ROLE_MENUS)],
      [employeeRole, menusOf(EMPLOYEE_ROLE_MENUS)],
    ] as const) {
      if (menus.length) await trx.insertInto('sys_roles_menus').values(menus.map((menu_id) => ({ role_id: role, menu_id }))).execute();
    }
    // admin user
    const admin = await ins('sys_user', {
      username: 'admin',
      cname: '系统管理员',
      email: 'admin@example.com',
      phone: '13800000000',
      password_hash: passwordHash,
      enabled: 1,
      dept_id: head,
      job_id: jobHr,
      token_version: 0,
      last_password_reset_time: now,
      create_time: now,
      update_time: now,
    });
    await trx.insertInto('sys_users_roles').values({ user_id: admin, role_id: superRole }).execute();
  };
  if (dialect === 'mysql' || dialect === 'postgres' || dialect === 'sqlite') await db.transaction().execute(run);
  return { seeded: true, adminPasswordShown: shown };
}
