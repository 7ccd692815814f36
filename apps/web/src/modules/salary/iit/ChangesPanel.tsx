import { DownloadOutlined, } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Space, Typography, } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exportIitChanges, getIitChanges, importIitPersons } from '@app/shared/contracts/iit';
import { useAuth } from '../../../app/auth';
import { contractCodes, contractKey, downloadContract, uploadContract, useContractQuery } from '../../../app/contractClient';
import { formatDateTime } from '../../../crud/format';
import { FilePickButton } from '../../../crud/FilePickButton';

/** 增减员: the ITS person list uploaded for the agent and month, the counts, and the workbook in the 人员信息采集 layout. */
export function ChangesPanel({ agent, month }: { agent: string; month: string }) {
  const { t } = useTranslation('salary');
  const { hasPermission } = useAuth();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const input = { query: { dispatchCompany: agent, month } };
  const canRead = hasPermission(contractCodes(getIitChanges));
  const changes = useContractQuery(getIitChanges, input, { enabled: canRead });
  const c = changes.data;

  const upload = async (file: File) => {
    const form = new FormData();
    form.append('file', file);
    setBusy(true);
    try {
      await uploadContract(importIitPersons, form, input);
      await queryClient.invalidateQueries({ queryKey: contractKey(getIitChanges) });
    } catch {
      /* the request layer showed the message */
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="iit-section" data-testid="iit-changes">
      <Space wrap style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 8 }}>
        <Typography.Text strong>{t('iit.changes')}</Typography.Text>
        <Space wrap>
          {hasPermission(contractCodes(importIitPersons)) && (
            <FilePickButton accept=".xls,.xlsx" onFile={upload} loading={busy} testId="iit-import-persons">
              {t('iit.importPersons')}
            </FilePickButton>
          )}
          {hasPermission(contractCodes(exportIitChanges)) && (
            <Button icon={<DownloadOutlined />} disabled={!c?.imported} onClick={() => downloadContract(exportIitChanges, input).catch(() => undefined)} data-testid="iit-export-changes">
              {t('iit.exportChanges')}
            </Button>
          )}
        </Space>
      </Space>
      {c && (
        <Alert
          type={c.imported ? (c.addCount || c.leaveCount ? 'warning' : 'success') : 'info'}
          showIcon
          data-testid="iit-changes-state"
          title={c.imported ? t('iit.changesSummary', { count: c.imported.count, time: formatDateTime(c.imported.time), add: c.addCount, leave: c.leaveCount }) : t('iit.noPersonList')}
        />
      )}
    </section>
  );
}
