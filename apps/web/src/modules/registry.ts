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
  'user/center': () => import('./user/CenterPage'),
  // -- system screens end
  // dispatch screens
  'accounts/company/index': () => import('./accounts/CompanyPage'),
  'accounts/staff/index': () => import('./accounts/StaffPage'),
  'accounts/contract/index': () => import('./accounts/ContractPage'),
  'accounts/contractWarn/index': () => import('./accounts/ContractWarnPage'),
  dashboard: () => import('./dashboard/DashboardPage'),
  // -- dispatch screens end
  // payroll screens
  'salary/accountsSalary/index': () => import('./salary/SalaryPage'),
  'salary/report/index': () => import('./salary/SalaryReportPage'),
  'salary/acPayslip/index': () => import('./salary/PayslipPage'),
  // -- payroll screens end
};

/**
 * A screen's first requests, for a page load to start before the screen's code has even run (kept out of
 * the screens' chunks, in small modules of their own). Screens without an entry simply ask when they render.
 */
export const screenPrefetches: Record<string, () => void> = {
  'system/user/index': prefetchUserScreen,
};
