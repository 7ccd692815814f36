import { i18n } from './i18n';

/** Set the browser tab title: "<page> - 劳务派遣薪资管理系统" (product name translated). */
export function setPageTitle(page?: string | null): void {
  const app = i18n.t('appName', { ns: 'common', defaultValue: '劳务派遣薪资管理系统' });
  document.title = page ? `${page} - ${app}` : app;
}
