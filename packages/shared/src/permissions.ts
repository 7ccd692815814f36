import type { ResourceDef } from './resource/types.ts';

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
  // 系统监控 › 在线用户 (强退 ends a session at once) and 服务监控 (modules/system/monitor.ts)
  { prefix: 'ONLINE', alias: '在线用户', actions: [['SELECT', '查询'], ['DELETE', '强退']] },
  { prefix: 'SERVER', alias: '服务监控', actions: [['SELECT', '查看']] },
  { prefix: 'JOB', alias: '定时任务', actions: CRUD },
  { prefix: 'PICTURE', alias: '图床管理', actions: [['SELECT', '查询'], ['UPLOAD', '上传'], ['DELETE', '删除']] },
  { prefix: 'ACCOUNTSCOMPANY', alias: '单位管理', actions: CRUD },
  { prefix: 'ACCOUNTSSTAFF', alias: '员工管理', actions: CRUD },
  { prefix: 'ACCOUNTSSTAFFEXTRA', alias: '员工加班扣款', actions: CRUD },
  // 反确认 reopens a confirmed month (with a reason and an audit row): a right of its own
  { prefix: 'ACCOUNTSSALARY', alias: '月度工资', actions: [...CRUD, ['UNCONFIRM', '反确认']] },
  { prefix: 'ACPAYSLIP', alias: '工资条', actions: CRUD },
  // 结算单 (Month close I, issue 22): statements, their state changes, receipts and the receivables ledger
  { prefix: 'SETTLEMENT', alias: '结算单', actions: CRUD },
  { prefix: 'ACCENTRY', alias: '入职记录', actions: CRUD },
  { prefix: 'ACCDEPART', alias: '离职记录', actions: CRUD },
  { prefix: 'ACCINTERN', alias: '实习记录', actions: CRUD },
  { prefix: 'ACCGJJ', alias: '公积金账户', actions: CRUD },
  { prefix: 'ACCSALARY', alias: '工资记录', actions: CRUD },
  { prefix: 'ACCTRAIN', alias: '培训记录', actions: CRUD },
  { prefix: 'ACCSOCIAL', alias: '社保记录', actions: CRUD },
  { prefix: 'ACCJOB', alias: '调岗记录', actions: CRUD },
  { prefix: 'API_DOCS', alias: '接口文档', actions: [['SELECT', '查看']] },
  // 数据管理 › 模型管理 / 任务管理 / 模型数据 (modules/operations/models, tasks); the task screens also accept JOB_*
  { prefix: 'MODEL', alias: '模型管理', actions: CRUD },
  { prefix: 'TASK', alias: '任务管理', actions: [...CRUD, ['EXEC', '执行']] },
  { prefix: 'MODELDATA', alias: '模型数据', actions: [['SELECT', '查询与导出']] },
  // 数据管理 › 数据源管理 / 自定义数据源 (modules/operations/dataSources)
  { prefix: 'DATASOURCE', alias: '数据源管理', actions: CRUD },
  // 系统工具 › 存储管理 (modules/storage): the file list, uploads, deletes and synchronisation, the configuration
  { prefix: 'STORAGE', alias: '存储管理', actions: [['SELECT', '查询'], ['UPLOAD', '上传'], ['DELETE', '删除'], ['EDIT', '配置']] },
  // 系统工具 › 代码生成 (modules/tools/generator): read tables and settings, change settings, preview/download
  { prefix: 'GENERATOR', alias: '代码生成', actions: [['SELECT', '查看'], ['EDIT', '配置'], ['CREATE', '生成']] },
  // 系统工具 › SQL监控 (modules/tools/sqlMonitor): statement statistics; DELETE resets them
  { prefix: 'SQL_MONITOR', alias: 'SQL监控', actions: [['SELECT', '查看'], ['DELETE', '重置']] },
  // 系统工具 › 邮件工具 / 支付宝工具 (modules/integrations): reading the settings, changing them, using the tool
  { prefix: 'EMAIL', alias: '邮件工具', actions: [['SELECT', '查看'], ['EDIT', '配置'], ['SEND', '发送']] },
  // 薪资管理 › 代发工资 (modules/payout, issue 23): batches from a confirmed month, the bank file (locks the batch),
  // the bank's return file, card corrections and re-pay batches
  { prefix: 'PAYOUT', alias: '代发工资', actions: [['SELECT', '查询'], ['CREATE', '生成'], ['EXPORT', '导出'], ['IMPORT', '导入回盘'], ['EDIT', '更正账号'], ['DELETE', '删除']] },
  // 薪资管理 › 个税申报 (modules/iit, issue 23 items 4-6): the ITS declaration workbooks, ITS's calculated result
  // reconciled with ours (acknowledging a difference is EDIT), the ITS person list for 增减员
  { prefix: 'IIT', alias: '个税申报', actions: [['SELECT', '查询'], ['EXPORT', '导出申报表'], ['IMPORT', '导入税局文件'], ['EDIT', '确认差异']] },
  // 社保管理 › 增减员 (issue 24 item 3): the lists for the bureau and the fund centre
  { prefix: 'SICHANGES', alias: '增减员', actions: [['SELECT', '查询'], ['EXPORT', '导出']] },
  // 社保管理 › 社保调基 / 社保平账 (modules/siAdjust, issue 24 items 2 and 4): previews and lists, applying new bases
  // (creates 补差 items), importing the bureau's 应缴明细, accepting a difference as 补差
  { prefix: 'SIADJUST', alias: '社保调基与平账', actions: [['SELECT', '查询'], ['APPLY', '应用调基'], ['IMPORT', '导入平账'], ['ACCEPT', '确认差异']] },
  { prefix: 'ALIPAY', alias: '支付宝工具', actions: [['SELECT', '查看'], ['EDIT', '配置'], ['PAY', '测试支付']] },
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

/** The shipped codes. Their names and places in the tree are fixed: routes check them by name. */
export const BUILT_IN_PERMISSION_CODES: ReadonlySet<string> = new Set(ALL_PERMISSION_CODES);

/**
 * The permission groups a set of definitions implies: the listed groups, then for every definition whose
 * `permission` prefix is not listed a group `<PREFIX>_ALL` named by its label with the four CRUD actions.
 * A new plain resource thus needs no line here; the server's start-up sync creates its codes.
 */
export function permissionGroupsOf(resources: readonly ResourceDef[]): PermissionGroup[] {
  const groups = [...PERMISSION_GROUPS];
  // ADMIN is a code of its own (the log resource is checked against it), not a prefix
  const known = new Set(['ADMIN', ...groups.map((g) => g.prefix)]);
  for (const def of resources) {
    if (known.has(def.permission)) continue;
    known.add(def.permission);
    groups.push({ prefix: def.permission, alias: def.label, actions: CRUD });
  }
  return groups;
}

/** Is this one of the shipped codes (as opposed to one an operator made)? */
export function isBuiltInPermission(code: string): boolean {
  return BUILT_IN_PERMISSION_CODES.has(code);
}

/** Built-in action code → its group parent (`USER_SELECT` → `USER_ALL`), as PERMISSION_GROUPS defines them. */
const BUILT_IN_PARENT: ReadonlyMap<string, string> = new Map(PERMISSION_GROUPS.flatMap((g) => g.actions.map(([s]): [string, string] => [`${g.prefix}_${s}`, `${g.prefix}_ALL`])));

/**
 * Count the groups derived from definitions (permissionGroupsOf) as shipped too, so their codes are fixed and
 * their `_ALL` parent holds their actions. The server calls this with the definitions it syncs; the web does
 * not need it (it judges from the codes the server lists).
 */
export function registerShippedPermissionGroups(groups: readonly PermissionGroup[]): void {
  for (const g of groups) {
    (BUILT_IN_PERMISSION_CODES as Set<string>).add(`${g.prefix}_ALL`);
    for (const [s] of g.actions) {
      (BUILT_IN_PERMISSION_CODES as Set<string>).add(`${g.prefix}_${s}`);
      (BUILT_IN_PARENT as Map<string, string>).set(`${g.prefix}_${s}`, `${g.prefix}_ALL`);
    }
  }
}

/**
 * Does a holder of the codes `own` hold `code`, so that they may hand it on to a role? Judged from the codes
 * themselves, never from the editable permission tree (whose parents anyone with PERMISSION_EDIT may change):
 * - ADMIN holds every code;
 * - a code is held by holding that very code;
 * - a built-in action code (`USER_EDIT`) is also held through its built-in group parent (`USER_ALL`), which is
 *   what every route accepts in its place;
 * - an operator-made code is held only by exact name, wherever it sits in the tree.
 * The server uses this when a role's codes are changed, the role screen to grey out what the editor lacks.
 */
export function holdsPermissionCode(own: ReadonlySet<string> | readonly string[], code: string): boolean {
  const has = (c: string) => (Array.isArray(own) ? (own as readonly string[]).includes(c) : (own as ReadonlySet<string>).has(c));
  if (has('ADMIN') || has(code)) return true;
  const parent = BUILT_IN_PARENT.get(code);
  return parent !== undefined && has(parent);
}
