import type React from 'react';
import { prefetchUserScreen } from './system/userScreenData';

/**
 * Screens that are not plain CRUD, by menu component key (e.g. 'system/user/index', 'dashboard',
 * 'user/center'). Each entry is a lazy import: `'system/user/index': () => import('./system/UserPage')`.
 */
export const moduleScreens: Record<string, () => Promise<{ default: React.ComponentType }>> = {
  // system screens
  'system/user/index': () => import('./system/UserPage'),
  'system/role/index': () => import('./system/RolePage'),
  'system/menu/index': () => import('./system/MenuPage'),
  'system/permission/index': () => import('./system/PermissionPage'),
  'system/dept/index': () => import('./system/DeptPage'),
  'system/job/index': () => import('./system/JobPage'),
  'system/dict/index': () => import('./system/DictPage'),
  'monitor/log/index': () => import('./monitor/LogPage'),
  'monitor/log/errorLog': () => import('./monitor/ErrorLogPage'),
  'monitor/redis/index': () => import('./monitor/CachePage'),
  'monitor/online/index': () => import('./monitor/OnlinePage'),
  'monitor/server/index': () => import('./monitor/ServerMonitorPage'),
  'user/center': () => import('./user/CenterPage'),
  'tools/apiDocs/index': () => import('./tools/ApiDocsPage'),
  'tools/storage/index': () => import('./tools/storage/StoragePage'),
  'tools/picture/index': () => import('./tools/storage/PicturePage'),
  'tools/email/index': () => import('./integrations/EmailToolPage'),
  'tools/aliPay/index': () => import('./integrations/AliPayToolPage'),
  'tools/generator/index': () => import('./tools/generator/GeneratorPage'),
  'tools/sqlMonitor/index': () => import('./tools/SqlMonitorPage'),
  'tools/jobs/index': () => import('./tools/jobs/JobsPage'),
  // -- system screens end
  // dispatch screens
  'accounts/company/index': () => import('./accounts/CompanyPage'),
  'accounts/staff/index': () => import('./accounts/StaffPage'),
  'accounts/contract/index': () => import('./accounts/ContractPage'),
  'accounts/contractWarn/index': () => import('./accounts/ContractWarnPage'),
  dashboard: () => import('./dashboard/DashboardPage'),
  // -- dispatch screens end
  // 数据管理 screens: models, model tasks, model data
  'operations/models/index': () => import('./operations/models/ModelsPage'),
  'operations/tasks/index': () => import('./operations/tasks/TasksPage'),
  'operations/modelData/index': () => import('./operations/modelData/ModelDataPage'),
  'operations/dataSources/index': () => import('./operations/dataSources/DataSourcesPage'),
  'operations/customDatasource/index': () => import('./operations/dataSources/CustomDatasourcePage'),
  // -- 数据管理 screens end
  // payroll screens
  'salary/accountsSalary/index': () => import('./salary/SalaryPage'),
  'salary/report/index': () => import('./salary/SalaryReportPage'),
  'salary/acPayslip/index': () => import('./salary/PayslipPage'),
  // Month close I (issue 22): 结算单, 回款登记, 应收台账
  'salary/settlement/index': () => import('./salary/settlement/SettlementPage'),
  'salary/settlement/receipts': () => import('./salary/settlement/ReceiptsPage'),
  'salary/settlement/receivables': () => import('./salary/settlement/ReceivablesPage'),
  // 代发工资 (issue 23)
  'salary/payout/index': () => import('./salary/payout/PayoutPage'),
  // 个税申报 (issue 23 items 4-6)
  'salary/iit/index': () => import('./salary/iit/IitPage'),
  'salary/payslipDelivery/index': () => import('./salary/payslipDelivery/PayslipDeliveryPage'),
  // 社保管理 › 增减员 (issue 24 item 3)
  'social/siChanges/index': () => import('./social/SiChangesPage'),
  // 社保管理 › 社保调基 and 社保平账 (issue 24 items 2 and 4)
  'social/siAdjust/index': () => import('./social/SiAdjustPage'),
  'social/siRecon/index': () => import('./social/SiReconPage'),
  'crud/siChangeTemplate': () => import('./social/SiChangeTemplatePage'),
  // payroll inputs on the generic screens, with their pickers and 无法匹配 check (U1, U7)
  'crud/taxDeduction': () => import('./salary/taxInputs/TaxDeductionPage'),
  'crud/taxOpening': () => import('./salary/taxInputs/TaxOpeningPage'),
  'crud/accountsStaffExtra': () => import('./salary/taxInputs/StaffExtraPage'),
  // -- payroll screens end
};

/**
 * A screen's first requests, for a page load to start before the screen's code has even run (kept out of
 * the screens' chunks, in small modules of their own). Screens without an entry simply ask when they render.
 */
export const screenPrefetches: Record<string, () => void> = {
  'system/user/index': prefetchUserScreen,
};
