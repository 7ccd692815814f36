import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import '../../crud/crud.css';
import ModelStatistics from '../operations/dashboard/ModelStatistics';
import HomeActions, { useHomeActionsVisible } from './HomeActions';

/**
 * /dashboard (首页): what a clerk must act on across every company they see (HomeActions: contracts ending
 * soon or ended without renewal, salary months not confirmed). The statistics cards sit beside it as
 * components of their own.
 */
export default function DashboardPage() {
  const { t } = useTranslation('home');
  // Without the codes the lists would only be refused by the server: say so instead of asking.
  if (!useHomeActionsVisible()) {
    return (
      <div className="crud-page" data-testid="dashboard-page">
        <ModelStatistics />
        <Card variant="borderless">
          <Empty description={t('noPermission')} data-testid="dashboard-no-permission" />
        </Card>
      </div>
    );
  }
  return (
    <div className="crud-page" data-testid="dashboard-page">
      {/* 数据管理's statistics cards and top-10 charts (they hide themselves for 普通员工) */}
      <ModelStatistics />
      <HomeActions />
    </div>
  );
}
