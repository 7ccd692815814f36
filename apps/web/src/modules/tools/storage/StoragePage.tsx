import { Card, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { StorageConfigForm } from './StorageConfigForm';
import { StorageFiles } from './StorageFiles';
import '../../../crud/crud.css';

/** 系统工具 › 存储管理 (spec §2): tabs 配置, 文件列表 (default) and 使用说明. */
export default function StoragePage() {
  const { t } = useTranslation('storage');
  const usage = t('usage.items', { returnObjects: true }) as string[];
  return (
    <Card variant="borderless" className="crud-page" data-testid="storage-page">
      <Tabs
        defaultActiveKey="files"
        destroyOnHidden={false}
        items={[
          { key: 'config', label: t('tabs.config'), children: <StorageConfigForm /> },
          { key: 'files', label: t('tabs.files'), children: <StorageFiles /> },
          {
            key: 'usage',
            label: t('tabs.usage'),
            children: (
              <Typography data-testid="storage-usage">
                <Typography.Title level={5}>{t('usage.title')}</Typography.Title>
                <ol>
                  {(Array.isArray(usage) ? usage : []).map((item) => (
                    <li key={item}>
                      <Typography.Paragraph>{item}</Typography.Paragraph>
                    </li>
                  ))}
                </ol>
              </Typography>
            ),
          },
        ]}
      />
    </Card>
  );
}
