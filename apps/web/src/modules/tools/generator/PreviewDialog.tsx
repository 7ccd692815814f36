import { DownloadOutlined } from '@ant-design/icons';
import { type GeneratorColumnRow as ColumnRow, generateCode } from '@app/shared/contracts/generator';
import { Alert, Button, Modal, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadContract, useContractQuery } from '../../../app/contractClient';
import { notify } from '../../../app/feedback';
import { columnPayload, uniqueTabLabels } from './generatorModel';

/** The generated files, one tab each, monospace; download as zip. */
export function PreviewDialog({ table, columns, onClose }: { table: string; columns?: ColumnRow[]; onClose: () => void }) {
  const { t } = useTranslation('tools');
  const body = columns ? columnPayload(columns) : [];
  const q = useContractQuery(generateCode, { query: { tableName: table, preview: true }, body }, { gcTime: 0 });
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadContract(generateCode, { query: { tableName: table }, body });
      notify.success(t('generator.generated'));
    } finally {
      setDownloading(false);
    }
  };
  const preview = q.data;
  const labels = uniqueTabLabels((preview?.files ?? []).map((f) => f.path));
  return (
    <Modal
      open
      width={1100}
      // fits a 900 px high window: the body scrolls, the 关闭/下载代码 footer stays visible (U18)
      centered
      className="gen-preview"
      styles={{ body: { maxHeight: 'calc(100vh - 170px)', overflow: 'auto' } }}
      title={t('generator.previewOf', { table })}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={onClose}>
          {t('close')}
        </Button>,
        <Button key="zip" type="primary" icon={<DownloadOutlined />} loading={downloading} onClick={download} data-testid="gen-download">
          {t('generator.download')}
        </Button>,
      ]}
    >
      {preview?.warnings.map((w) => (
        <Alert key={w.code} type="warning" showIcon style={{ marginBottom: 8 }} title={t(`generator.warning.${w.code}`, { value: w.value })} />
      ))}
      {q.isLoading ? (
        <div style={{ padding: 48, textAlign: 'center' }}>{t('loading')}</div>
      ) : (
        <Tabs
          data-testid="gen-preview-tabs"
          items={(preview?.files ?? []).map((f, i) => ({
            key: f.path,
            label: labels[i],
            children: (
              <div>
                <Typography.Text type="secondary" copyable={{ text: f.content }} style={{ fontSize: 12 }}>
                  {f.path}
                </Typography.Text>
                <pre className="gen-code" data-testid="gen-preview-code">
                  {f.content}
                </pre>
              </div>
            ),
          }))}
        />
      )}
    </Modal>
  );
}
