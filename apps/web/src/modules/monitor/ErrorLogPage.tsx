import { errorLogDetail, listErrorLogs } from '@app/shared/contracts/system';
import { FileSearchOutlined } from '@ant-design/icons';
import { Button, Card, Modal, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useContractQuery } from '../../app/contractClient';
import { LogTable } from './LogPage';

/** The stack trace of one error entry, fetched when the dialog opens. */
function ExceptionDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation('system');
  const q = useContractQuery(errorLogDetail, { params: { id: id ?? 0 } }, { enabled: id !== null, staleTime: Number.POSITIVE_INFINITY });
  const text = q.isLoading ? null : (q.data?.exception ?? '');
  return (
    <Modal open={id !== null} title={t('log.exceptionTitle')} width={900} footer={null} onCancel={onClose} destroyOnHidden>
      {text === null ? (
        <div style={{ textAlign: 'center', padding: 24 }}>
          <Spin />
        </div>
      ) : (
        <pre className="log-exception" data-testid="log-exception">
          {text || t('log.noException')}
        </pre>
      )}
    </Modal>
  );
}

/** Error log (spec §2) with the exception dialog. */
export default function ErrorLogPage() {
  const { t } = useTranslation('system');
  const [open, setOpen] = useState<number | null>(null);
  return (
    <Card variant="borderless" className="crud-page">
      <LogTable
        url={listErrorLogs.path}
        tableKey="logs-error"
        testId="error-log-page"
        columns={['username', 'requestIp', 'description', 'method', 'params', 'createTime']}
        rowActions={(row) => (
          <Button size="small" type="link" icon={<FileSearchOutlined />} onClick={() => setOpen(Number(row.id))} data-testid="log-detail">
            {t('log.detail')}
          </Button>
        )}
      />
      <ExceptionDialog id={open} onClose={() => setOpen(null)} />
    </Card>
  );
}
