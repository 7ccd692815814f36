/**
 * The menu tree seeded on first start: every screen of the spec that exists. `component` is the web screen
 * key: `crud/<resource>` renders the generic resource page for that definition, other keys name screens in
 * apps/web/src/modules. Roots are directories (Layout); a root with `component` is a single-page entry.
 */
export interface MenuSeed {
  name: string;
  path: string;
  icon: string;
  component?: string;
  hidden?: boolean;
  children?: MenuSeed[];
}

export const MENU_TREE: MenuSeed[] = [
  {
    name: '派遣业务',
    path: 'accounts',
    icon: 'TeamOutlined',
    children: [
      { name: '单位管理', path: 'company', icon: 'BankOutlined', component: 'accounts/company/index' },
      { name: '员工管理', path: 'staff', icon: 'IdcardOutlined', component: 'accounts/staff/index' },
      { name: '合同管理', path: 'contract', icon: 'FileTextOutlined', component: 'accounts/contract/index' },
      { name: '合同到期提醒', path: 'contractWarn', icon: 'BellOutlined', component: 'accounts/contractWarn/index' },
      { name: '员工加班扣款', path: 'staffExtra', icon: 'ClockCircleOutlined', component: 'crud/accountsStaffExtra' },
    ],
  },
  {
    name: '薪资管理',
    path: 'salary',
    icon: 'MoneyCollectOutlined',
    children: [
      { name: '月度工资', path: 'accountsSalary', icon: 'CalculatorOutlined', component: 'salary/accountsSalary/index' },
      { name: '工资报表', path: 'salaryReport', icon: 'FileExcelOutlined', component: 'salary/report/index' },
    ],
  },
  { name: '工资条', path: 'acPayslip', icon: 'ProfileOutlined', component: 'salary/acPayslip/index' },
  {
    name: '人事档案',
    path: 'records',
    icon: 'FolderOpenOutlined',
    children: [
      { name: '入职记录', path: 'accEntry', icon: 'UserAddOutlined', component: 'crud/accEntry' },
      { name: '离职记录', path: 'accDepart', icon: 'UserDeleteOutlined', component: 'crud/accDepart' },
      { name: '实习记录', path: 'accIntern', icon: 'ReadOutlined', component: 'crud/accIntern' },
      { name: '调岗记录', path: 'accJob', icon: 'SwapOutlined', component: 'crud/accJob' },
      { name: '培训记录', path: 'accTrain', icon: 'BookOutlined', component: 'crud/accTrain' },
      { name: '社保记录', path: 'accSocial', icon: 'SafetyOutlined', component: 'crud/accSocial' },
      { name: '公积金账户', path: 'accGjj', icon: 'HomeOutlined', component: 'crud/accGjj' },
      { name: '工资记录', path: 'accSalary', icon: 'AccountBookOutlined', component: 'crud/accSalary' },
    ],
  },
  {
    name: '系统管理',
    path: 'system',
    icon: 'SettingOutlined',
    children: [
      { name: '用户管理', path: 'user', icon: 'UserOutlined', component: 'system/user/index' },
      { name: '角色管理', path: 'role', icon: 'SolutionOutlined', component: 'system/role/index' },
      { name: '权限管理', path: 'permission', icon: 'SafetyCertificateOutlined', component: 'system/permission/index' },
      { name: '菜单管理', path: 'menu', icon: 'MenuOutlined', component: 'system/menu/index' },
      { name: '部门管理', path: 'dept', icon: 'ApartmentOutlined', component: 'system/dept/index' },
      { name: '岗位管理', path: 'job', icon: 'ContactsOutlined', component: 'system/job/index' },
      { name: '字典管理', path: 'dict', icon: 'BookOutlined', component: 'system/dict/index' },
    ],
  },
  {
    name: '系统监控',
    path: 'monitor',
    icon: 'MonitorOutlined',
    children: [
      { name: '操作日志', path: 'logs', icon: 'HistoryOutlined', component: 'monitor/log/index' },
      { name: '异常日志', path: 'errorLog', icon: 'BugOutlined', component: 'monitor/log/errorLog' },
    ],
  },
];

/** Menus an ordinary administrator gets (names of roots or leaves; a root brings its children). */
export const ADMIN_ROLE_MENUS = ['派遣业务', '薪资管理', '工资条', '人事档案'];
/** Menus an ordinary employee gets. */
export const EMPLOYEE_ROLE_MENUS = ['工资条'];
