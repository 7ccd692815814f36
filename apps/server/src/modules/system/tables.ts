import type { HandTableSet } from '../../core/dbTypes.ts';

/**
 * The tables of users, roles and their links (migration 0001, modules/system) that no definition describes: table
 * -> column -> stored kind, in the notation of HandTableSet (core/dbTypes.ts). Assembled in src/dbTables.ts;
 * test/db-types.test.ts checks them against the migrated tables.
 */
export const SYSTEM_TABLES = {
  sys_users_roles: { user_id: 'int', role_id: 'int' },
  sys_roles_menus: { role_id: 'int', menu_id: 'int' },
  sys_roles_permissions: { role_id: 'int', permission_id: 'int' },
  sys_roles_depts: { role_id: 'int', dept_id: 'int' },
} as const satisfies HandTableSet;
