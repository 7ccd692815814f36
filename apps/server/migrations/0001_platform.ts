import type { MigrationContext } from './index.ts';
import { createTable } from '../src/core/tableBuilder.ts';

/** Platform tables: departments, positions, users, roles, menus, permissions, dictionaries, logs. */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'sys_dept', (t) =>
    t.id().string('name', 100, { notNull: true }).int('pid', { notNull: true, default: 0, index: true }).int('sort', { default: 999 }).bool('enabled', { notNull: true, default: true }).timestamps(),
  );
  await createTable(db, dialect, 'sys_job', (t) =>
    t.id().string('name', 100, { notNull: true }).int('sort', { default: 999 }).bool('enabled', { notNull: true, default: true }).int('dept_id', { index: true }).timestamps().unique('name', 'dept_id'),
  );
  await createTable(db, dialect, 'sys_user', (t) =>
    t
      .id()
      .string('username', 50, { notNull: true, unique: true })
      .string('cname', 50)
      .string('email', 100, { unique: true })
      .string('phone', 20)
      .string('password_hash', 255, { notNull: true })
      .bool('enabled', { notNull: true, default: true })
      .int('dept_id', { index: true })
      .int('job_id', { index: true })
      .string('avatar', 255)
      .int('token_version', { notNull: true, default: 0 })
      .datetime('last_password_reset_time')
      .timestamps(),
  );
  await createTable(db, dialect, 'sys_role', (t) =>
    t.id().string('name', 100, { notNull: true, unique: true }).int('level', { notNull: true, default: 3 }).string('data_scope', 20, { notNull: true, default: '本级' }).string('remark', 255).timestamps(),
  );
  await createTable(db, dialect, 'sys_menu', (t) =>
    t
      .id()
      .string('name', 100, { notNull: true, unique: true })
      .int('sort', { notNull: true, default: 999 })
      .string('path', 255)
      .string('component', 255)
      .string('component_name', 100)
      .bool('iframe', { notNull: true, default: false })
      .bool('hidden', { notNull: true, default: false })
      .bool('cache', { notNull: true, default: false })
      .int('pid', { notNull: true, default: 0, index: true })
      .string('icon', 100)
      .timestamps(),
  );
  await createTable(db, dialect, 'sys_permission', (t) =>
    t.id().string('name', 100, { notNull: true, unique: true }).string('alias', 100, { notNull: true }).int('pid', { notNull: true, default: 0, index: true }).timestamps(),
  );
  await createTable(db, dialect, 'sys_users_roles', (t) => t.int('user_id', { notNull: true }).int('role_id', { notNull: true, index: true }).unique('user_id', 'role_id'));
  await createTable(db, dialect, 'sys_roles_menus', (t) => t.int('role_id', { notNull: true }).int('menu_id', { notNull: true, index: true }).unique('role_id', 'menu_id'));
  await createTable(db, dialect, 'sys_roles_permissions', (t) =>
    t.int('role_id', { notNull: true }).int('permission_id', { notNull: true, index: true }).unique('role_id', 'permission_id'),
  );
  await createTable(db, dialect, 'sys_roles_depts', (t) => t.int('role_id', { notNull: true }).int('dept_id', { notNull: true, index: true }).unique('role_id', 'dept_id'));
  await createTable(db, dialect, 'sys_dict', (t) => t.id().string('name', 100, { notNull: true, unique: true }).string('remark', 255).timestamps());
  await createTable(db, dialect, 'sys_dict_detail', (t) =>
    t.id().int('dict_id', { notNull: true, index: true }).string('label', 255, { notNull: true }).string('value', 255, { notNull: true }).int('sort', { notNull: true, default: 999 }).timestamps(),
  );
  await createTable(db, dialect, 'sys_log', (t) =>
    t
      .id()
      .string('log_type', 10, { notNull: true })
      .string('username', 50, { index: true })
      .string('description', 255)
      .string('method', 255)
      .text('params')
      .string('request_ip', 64)
      .string('browser', 255)
      .int('time')
      .text('exception_detail')
      .datetime('create_time', { index: true }),
  );
}
