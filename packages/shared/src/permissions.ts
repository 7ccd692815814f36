/**
 * Every permission code of spec §6, grouped as the permission tree is seeded: a parent `<X>_ALL` with its
 * children. `ADMIN` passes every check.
 */
export interface PermissionGroup {
  /** Code prefix, e.g. USER. */
  prefix: string;
  /** Chinese alias of the parent node. */
  alias: string;
  /** Child actions with their aliases. */
  actions: [suffix: string, alias: string][];
}

const CRUD: [string, string][] = [
  ['SELECT', '查询'],
  ['CREATE', '新增'],
  ['EDIT', '编辑'],
  ['DELETE', '删除'],
];

export const PERMISSION_GROUPS: PermissionGroup[] = [
  { prefix: 'USER', alias: '用户管理', actions: CRUD },
  { prefix: 'ROLES', alias: '角色管理', actions: CRUD },
  { prefix: 'PERMISSION', alias: '权限管理', actions: CRUD },
  { prefix: 'MENU', alias: '菜单管理', actions: CRUD },
  { prefix: 'DEPT', alias: '部门管理', actions: CRUD },
  { prefix: 'USERJOB', alias: '岗位管理', actions: CRUD },
  { prefix: 'DICT', alias: '字典管理', actions: CRUD },
  { prefix: 'REDIS', alias: '缓存管理', actions: [['SELECT', '查询'], ['DELETE', '删除']] },
  { prefix: 'JOB', alias: '定时任务', actions: CRUD },
  { prefix: 'PICTURE', alias: '图床管理', actions: [['SELECT', '查询'], ['UPLOAD', '上传'], ['DELETE', '删除']] },
  { prefix: 'ACCOUNTSCOMPANY', alias: '单位管理', actions: CRUD },
  { prefix: 'ACCOUNTSSTAFF', alias: '员工管理', actions: CRUD },
  { prefix: 'ACCOUNTSSTAFFEXTRA', alias: '员工加班扣款', actions: CRUD },
  { prefix: 'ACCOUNTSSALARY', alias: '月度工资', actions: CRUD },
  { prefix: 'ACPAYSLIP', alias: '工资条', actions: CRUD },
  { prefix: 'ACCENTRY', alias: '入职记录', actions: CRUD },
  { prefix: 'ACCDEPART', alias: '离职记录', actions: CRUD },
  { prefix: 'ACCINTERN', alias: '实习记录', actions: CRUD },
  { prefix: 'ACCGJJ', alias: '公积金账户', actions: CRUD },
  { prefix: 'ACCSALARY', alias: '工资记录', actions: CRUD },
  { prefix: 'ACCTRAIN', alias: '培训记录', actions: CRUD },
  { prefix: 'ACCSOCIAL', alias: '社保记录', actions: CRUD },
  { prefix: 'ACCJOB', alias: '调岗记录', actions: CRUD },
];

/** All codes: ADMIN, then every group's `_ALL` and its children. */
export const ALL_PERMISSION_CODES: string[] = [
  'ADMIN',
  ...PERMISSION_GROUPS.flatMap((g) => [`${g.prefix}_ALL`, ...g.actions.map(([s]) => `${g.prefix}_${s}`)]),
];

/** The role given to a user without any code, as the web app expects. */
export const DEFAULT_ROLE_CODE = 'ROLE_SYSTEM_DEFAULT';

/** The job (position) name of restricted ordinary employees. */
export const ORDINARY_EMPLOYEE_JOB = '普通员工';
