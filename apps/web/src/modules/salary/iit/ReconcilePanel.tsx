
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Input, Modal, Space, Switch, Table, Tag, Typography, } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { acknowledgeIitDiff, getIitReconcile, type IitDiff, importIitResult, listIitDiffs } from '@app/shared/contracts/iit';
import { useAuth } from '../../../app/auth';
import { callContract, contractCodes, contractKey, uploadContract, useContractQuery } from '../../../app/contractClient';
import { notify } from '../../../app/feedback';
import { formatDateTime, formatMoney } from '../../../crud/format';
import { usePagedList } from '../../../crud/usePagedList';
import { FilePickButton } from '../../../crud/FilePickButton';

const KIND_COLOURS: Record<IitDiff['kind'], string> = { differs: 'red', ours: 'orange', its: 'purple' };
const money = (v: number | null) => (v === null ? '—' : formatMoney(v));

/**
 * ITS's calculated result for the agent and month: the upload, the latest result's counts, the differences (paged,
 * optionally only the open ones) and the acknowledgement of each with a reason. While any is open the month's
 * 代发工资 export is held, which the alert says.
 */
export function ReconcilePanel({ agent, month }: { agent: string; month: string }) {
  const { t } = useTranslation('salary');
  const { hasPermission } = useAuth();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [ack, setAck] = useState<IitDiff | null>(null);
  const [reason, setReason] = useState('');
  const input = { query: { dispatchCompany: agent, month } };
  const result = useContractQuery(getIitReconcile, input);
  const rec = result.data?.reconcile ?? null;
  const list = usePagedList<IitDiff, { open: boolean }>({
    key: ['iitDiffs', rec?.id ?? 0],
    filters: { open: false },
    load: (f, page, size) => (rec ? callContract(listIitDiffs, { params: { id: rec.id }, query: { open: f.open ? 'true' : undefined, page, size } }) : Promise.resolve({ content: [], totalElements: 0 })),
    showTotal: (n) => t('iit.diffTotal', { count: n }),
  });
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: contractKey(getIitReconcile) });
    await list.refresh();
  };

  const upload = async (file: File) => {
    const form = new FormData();
    form.append('file', file);
    setBusy(true);
    try {
      const r = await uploadContract(importIitResult, form, input);
      notify.success(t('iit.summary', { file: r.fileName ?? '', time: formatDateTime(r.createTime), by: r.createBy ?? '', ours: r.oursCount, its: r.itsCount, diff: r.diffCount, open: r.openCount }));
      await refresh();
    } catch {
      /* the request layer showed the message */
    } finally {
      setBusy(false);
    }
  };

  const acknowledge = async () => {
    if (!ack || !reason.trim()) return;
    try {
      await callContract(acknowledgeIitDiff, { params: { id: ack.id }, body: { reason: reason.trim() } });
      notify.success(t('iit.acknowledged'));
      setAck(null);
      setReason('');
      await refresh();
    } catch {
      /* shown */
    }
  };

  const canAck = hasPermission(contractCodes(acknowledgeIitDiff));
  return (
    <section className="iit-section" data-testid="iit-reconcile">
      <Space wrap style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 8 }}>
        <Typography.Text strong>{t('iit.reconcile')}</Typography.Text>
        {hasPermission(contractCodes(importIitResult)) && (
          <FilePickButton accept=".xls,.xlsx" onFile={upload} loading={busy} testId="iit-import-result">
            {t('iit.importResult')}
          </FilePickButton>
        )}
      </Space>
      {!rec ? (
        <Alert type="info" showIcon title={t('iit.noReconcile')} data-testid="iit-no-reconcile" />
      ) : (
        <>
          <Alert
            type={rec.openCount ? 'warning' : 'success'}
            showIcon
            style={{ marginBottom: 8 }}
            data-testid="iit-reconcile-state"
            title={rec.openCount ? t('iit.openWarning', { count: rec.openCount }) : t('iit.allAcknowledged')}
            description={t('iit.summary', { file: rec.fileName ?? '', time: formatDateTime(rec.createTime), by: rec.createBy ?? '', ours: rec.oursCount, its: rec.itsCount, diff: rec.diffCount, open: rec.openCount })}
          />
          <Space style={{ marginBottom: 8 }}>
            <Switch size="small" checked={list.filters.open} onChange={(open) => list.filter({ open })} data-testid="iit-only-open" />
            <Typography.Text>{t('iit.onlyOpen')}</Typography.Text>
          </Space>
          <Table<IitDiff>
            {...list.tableProps}
            size="small"
            data-testid="iit-diffs"
            scroll={{ x: 1250 }}
            locale={{ emptyText: t('iit.noDiffs') }}
            columns={[
              { key: 'kind', dataIndex: 'kind', title: t('iit.kind'), width: 110, render: (k: IitDiff['kind']) => <Tag color={KIND_COLOURS[k]}>{t(`iit.kinds.${k}`)}</Tag> },
              { key: 'staffName', dataIndex: 'staffName', title: t('staffName'), width: 90 },
              { key: 'idCard', dataIndex: 'idCard', title: t('idCard'), width: 175 },
              { key: 'ours', dataIndex: 'ours', title: t('iit.ours'), width: 160, align: 'right', render: money },
              { key: 'its', dataIndex: 'its', title: t('iit.its'), width: 150, align: 'right', render: money },
              { key: 'difference', dataIndex: 'difference', title: t('iit.difference'), width: 130, align: 'right', render: money },
              { key: 'ackReason', dataIndex: 'ackReason', title: t('iit.ackReason'), width: 220, ellipsis: true },
              { key: 'ackBy', title: t('iit.ackBy'), width: 150, render: (_: unknown, d) => (d.ackTime ? `${d.ackBy ?? ''} ${formatDateTime(d.ackTime).slice(5, 16)}` : '') },
              {
                key: 'actions',
                title: t('actions'),
                fixed: 'right',
                width: 100,
                render: (_: unknown, d) =>
                  d.ackTime ? (
                    <Tag color="green">{t('iit.acknowledged')}</Tag>
                  ) : canAck ? (
                    <Button size="small" type="link" onClick={() => setAck(d)} data-testid={`iit-ack-${d.id}`}>
                      {t('iit.acknowledge')}
                    </Button>
                  ) : null,
              },
            ]}
          />
        </>
      )}
      <Modal
        open={ack !== null}
        title={ack ? t('iit.ackTitle', { name: ack.staffName ?? '', idCard: ack.idCard }) : ''}
        okText={t('iit.acknowledge')}
        cancelText={t('cancel')}
        okButtonProps={{ disabled: !reason.trim(), 'data-testid': 'iit-ack-ok' } as never}
        onOk={acknowledge}
        onCancel={() => setAck(null)}
        destroyOnHidden
      >
        <Input.TextArea rows={3} maxLength={200} showCount value={reason} onChange={(e) => setReason(e.target.value)} placeholder={t('iit.ackPlaceholder')} style={{ marginBottom: 16 }} data-testid="iit-ack-reason" />
      </Modal>
    </section>
  );
}
