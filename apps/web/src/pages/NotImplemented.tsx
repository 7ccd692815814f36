import { ToolOutlined } from '@ant-design/icons';
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** Shown for a menu entry whose screen does not exist (yet); never crashes the app. */
export default function NotImplemented({ screenKey }: { screenKey?: string }) {
  const { t } = useTranslation();
  return (
    <Result
      icon={<ToolOutlined />}
      title={t('notImplemented')}
      subTitle={screenKey ? t('notImplementedHint', { key: screenKey }) : undefined}
      data-testid="not-implemented"
    />
  );
}
