import { Card, Empty, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import '../../crud/crud.css';
import ModelStatistics from '../operations/dashboard/ModelStatistics';
import HomeActions, { useHomeActionsVisible } from './HomeActions';
import SalaryMonthCard, { PayrollWorkCards, SALARY_CODES } from './SalaryMonthCard';

/**
 * /dashboard (首页), in the order a clerk works (U10): this month's salary state of every company they see,
 * then what must be acted on (contracts ending soon or ended without renewal, salary months not confirmed),
 * then the month's payroll work and the model statistics.
 */
export default function DashboardPage() {
  const { t } = useTranslation('home');
  const { hasPermission } = useAuth();
  // Without the codes the lists would only be refused by the server: say so instead of asking.
  if (!useHomeActionsVisible()) {
    return (
      <div className="crud-page" data-testid="dashboard-page">
        <Card variant="borderless">
          <Empty description={t('noPermission')} data-testid="dashboard-no-permission" />
        </Card>
        <ModelStatistics />
      </div>
    );
  }
  return (
    <div className="crud-page" data-testid="dashboard-page">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        {hasPermission(SALARY_CODES) && <SalaryMonthCard />}
        <HomeActions />
        <PayrollWorkCards />
        {/* 数据管理's statistics cards and top-10 charts (they hide themselves for 普通员工) */}
        <ModelStatistics />
      </Space>
    </div>
  );
}
