import { BellOutlined } from '@ant-design/icons';
import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../app/auth';

/** Shown at /dashboard until a 'dashboard' screen is registered in modules/registry.ts. */
export default function DashboardPlaceholder() {
  const { t } = useTranslation();
  const { user } = useAuth();
  return (
    <Card
      title={
        <span>
          <BellOutlined /> {t('dashboard.welcome')}
        </span>
      }
      data-testid="dashboard-placeholder"
    >
      <Empty description={t('dashboard.placeholder')}>
        <div>{user?.cname ?? user?.username}</div>
      </Empty>
    </Card>
  );
}
