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
      { name: '代发工资', path: 'payout', icon: 'TransactionOutlined', component: 'salary/payout/index' },
      // issue 23 items 4-6: the ITS declaration workbooks, ITS's result reconciled, 增减员
      { name: '个税申报', path: 'iit', icon: 'AuditOutlined', component: 'salary/iit/index' },
      // issue 24 item 1: publishing payslips and the employees' confirmations
      { name: '工资条发放', path: 'payslipDelivery', icon: 'FileTextOutlined', component: 'salary/payslipDelivery/index' },
      { name: '期初累计数据', path: 'taxOpening', icon: 'FieldTimeOutlined', component: 'crud/taxOpening' },
      // Month close I (issue 22): client statements, receipts, the receivables ledger
      { name: '结算单', path: 'settlement', icon: 'ReconciliationOutlined', component: 'salary/settlement/index' },
      { name: '回款登记', path: 'settlementReceipts', icon: 'TransactionOutlined', component: 'salary/settlement/receipts' },
      { name: '应收台账', path: 'receivables', icon: 'AccountBookOutlined', component: 'salary/settlement/receivables' },
    ],
  },
  {
    // issue 24: the lists for the social-insurance bureau and the housing-fund centre
    name: '社保管理',
    path: 'social',
    icon: 'SafetyOutlined',
    children: [
      { name: '增减员', path: 'siChanges', icon: 'UsergroupAddOutlined', component: 'social/siChanges/index' },
      // issue 24 items 2 and 4: new bases from a month with 补差 of confirmed months; the bureau's 应缴明细 against ours
      { name: '社保调基', path: 'siAdjust', icon: 'RiseOutlined', component: 'social/siAdjust/index' },
      { name: '社保平账', path: 'siRecon', icon: 'AuditOutlined', component: 'social/siRecon/index' },
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
    // 数据管理 (issue 11): models, model tasks and their outputs; the data-source screens sit here too
    name: '数据管理',
    path: 'operations',
    icon: 'DatabaseOutlined',
    children: [
      { name: '模型管理', path: 'models', icon: 'ExperimentOutlined', component: 'operations/models/index' },
      { name: '任务管理', path: 'tasks', icon: 'ScheduleOutlined', component: 'operations/tasks/index' },
      { name: '模型数据', path: 'modelData', icon: 'FileZipOutlined', component: 'operations/modelData/index' },
      { name: '数据源管理', path: 'dataSources', icon: 'DatabaseOutlined', component: 'operations/dataSources/index' },
      { name: '自定义数据源', path: 'customDatasource', icon: 'TableOutlined', component: 'operations/customDatasource/index' },
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
      { name: '缓存管理', path: 'redis', icon: 'DatabaseOutlined', component: 'monitor/redis/index' },
      { name: '在线用户', path: 'online', icon: 'TeamOutlined', component: 'monitor/online/index' },
      { name: '服务监控', path: 'server', icon: 'MonitorOutlined', component: 'monitor/server/index' },
    ],
  },
  {
    name: '系统工具',
    path: 'tools',
    icon: 'AppstoreOutlined',
    children: [
      { name: '定时任务', path: 'timing', icon: 'FieldTimeOutlined', component: 'tools/jobs/index' },
      { name: '接口文档', path: 'apiDocs', icon: 'FileTextOutlined', component: 'tools/apiDocs/index' },
      { name: '存储管理', path: 'storage', icon: 'CloudServerOutlined', component: 'tools/storage/index' },
      { name: '图床管理', path: 'pictures', icon: 'PictureOutlined', component: 'tools/picture/index' },
      { name: '代码生成', path: 'generator', icon: 'CodeOutlined', component: 'tools/generator/index' },
      { name: 'SQL监控', path: 'sqlMonitor', icon: 'DashboardOutlined', component: 'tools/sqlMonitor/index' },
      { name: '邮件工具', path: 'email', icon: 'MailOutlined', component: 'tools/email/index' },
      { name: '支付宝工具', path: 'aliPay', icon: 'AlipayCircleOutlined', component: 'tools/aliPay/index' },
    ],
  },
];

/** Menus an ordinary administrator gets (names of roots or leaves; a root brings its children). */
export const ADMIN_ROLE_MENUS = ['派遣业务', '薪资管理', '工资条', '人事档案'];
/** Menus an ordinary employee gets. */
export const EMPLOYEE_ROLE_MENUS = ['工资条'];
