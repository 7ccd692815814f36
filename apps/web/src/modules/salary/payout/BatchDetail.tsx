import { Alert, Button, Checkbox, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { correctPayoutRow, getPayoutBatch, type importPayoutReturn, type PayoutRow } from '@app/shared/contracts/payout';
import type { ContractResult } from '@app/shared/contracts/contract';
import { useAuth } from '../../../app/auth';
import { callContract, contractCodes, useContractQuery } from '../../../app/contractClient';
import { notify } from '../../../app/feedback';
import { formatDateTime, formatMoney } from '../../../crud/format';

/** A batch's rows with the bank's answer; a failed row not yet re-paid can have its card corrected. */
export type ImportResult = ContractResult<typeof importPayoutReturn>;

const RESULT_COLOURS: Record<PayoutRow['result'], string> = { '': 'default', ok: 'green', failed: 'red' };

export function BatchDetail({ batchId, onClose, onChanged }: { batchId: number; onClose: () => void; onChanged: () => void }) {
  const { t } = useTranslation('salary');
  const { hasPermission } = useAuth();
  const q = useContractQuery(getPayoutBatch, { params: { id: batchId } });
  const [editing, setEditing] = useState<PayoutRow | null>(null);
  const canCorrect = hasPermission(contractCodes(correctPayoutRow));
  const b = q.data?.batch;
  return (
    <Modal open width={980} title={b ? t('payout.detailTitle', { id: b.id, company: b.companyName ?? '', month: b.month }) : t('payout.details')} onCancel={onClose} footer={null} data-testid="payout-detail">
      {b && (
        <Typography.Paragraph type="secondary">
          {t('payout.detailSummary', { count: b.rowCount, total: formatMoney(b.total), ok: b.okCount, failed: b.failedCount, state: t(`payout.states.${b.state}`) })}
        </Typography.Paragraph>
      )}
      {q.data?.iitOverride && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="payout-detail-override"
          title={t('iit.overrideDone', { reason: q.data.iitOverride.reason ?? '', by: q.data.iitOverride.username ?? '', time: formatDateTime(q.data.iitOverride.time), open: q.data.iitOverride.openCount })}
        />
      )}
      <Table<PayoutRow>
        size="small"
        rowKey="id"
        loading={q.isLoading}
        dataSource={q.data?.rows ?? []}
        pagination={{ pageSize: 20, showSizeChanger: false }}
        scroll={{ x: 860 }}
        columns={[
          { key: 'seq', dataIndex: 'seq', title: t('payout.seq'), width: 60 },
          { key: 'staffName', dataIndex: 'staffName', title: t('staffName'), width: 90 },
          { key: 'account', dataIndex: 'account', title: t('payout.account'), width: 190, render: (v: string, r) => (r.luhnOverride ? `${v} *` : v) },
          { key: 'accountName', dataIndex: 'accountName', title: t('payout.accountName'), width: 90 },
          { key: 'amount', dataIndex: 'amount', title: t('payout.amount'), width: 110, align: 'right', render: (v: number) => formatMoney(v) },
          {
            key: 'result',
            dataIndex: 'result',
            title: t('payout.result'),
            width: 90,
            render: (v: PayoutRow['result']) => <Tag color={RESULT_COLOURS[v]}>{t(`payout.results.${v || 'none'}`)}</Tag>,
          },
          { key: 'reason', dataIndex: 'reason', title: t('payout.reason'), width: 140 },
          {
            key: 'actions',
            title: t('actions'),
            width: 110,
            render: (_: unknown, r) =>
              r.repaidBy !== null ? (
                <Tag color="blue">{t('payout.repaid')}</Tag>
              ) : canCorrect && r.result === 'failed' ? (
                <Button size="small" onClick={() => setEditing(r)} data-testid={`payout-correct-${r.seq}`}>
                  {t('payout.correct')}
                </Button>
              ) : null,
          },
        ]}
      />
      {editing && (
        <CorrectDialog
          row={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void q.refetch();
            onChanged();
          }}
        />
      )}
    </Modal>
  );
}

function CorrectDialog({ row, onClose, onSaved }: { row: PayoutRow; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('salary');
  const [form] = Form.useForm<{ account: string; accountName: string; acceptLuhn: boolean }>();
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      await callContract(correctPayoutRow, { params: { id: row.id }, body: { account: v.account, accountName: v.accountName, acceptLuhn: v.acceptLuhn } });
      notify.success(t('saved'));
      onSaved();
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={t('payout.correctTitle', { name: row.staffName })} onCancel={onClose} onOk={save} confirmLoading={busy} okText={t('save')} cancelText={t('cancel')} data-testid="payout-correct-dialog">
      <Form form={form} layout="vertical" initialValues={{ account: row.account, accountName: row.accountName, acceptLuhn: false }}>
        <Form.Item name="account" label={t('payout.account')} rules={[{ required: true, message: t('payout.cardRule') }, { pattern: /^[\d\s-]{16,30}$/, message: t('payout.cardRule') }]}>
          <Input data-testid="payout-correct-account" maxLength={40} />
        </Form.Item>
        <Form.Item name="accountName" label={t('payout.accountName')} rules={[{ required: true, message: t('payout.nameRule') }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="acceptLuhn" valuePropName="checked">
          <Checkbox>{t('payout.acceptLuhnLong')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** What a return file did: paid, failed, and every line that was not applied, with why. */
export function ImportResultView({ result, onClose }: { result: ImportResult; onClose: () => void }) {
  const { t } = useTranslation('salary');
  return (
    <Modal open title={t('payout.importTitle')} onCancel={onClose} onOk={onClose} cancelButtonProps={{ style: { display: 'none' } }} data-testid="payout-import-result">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text>{t('payout.importSummary', { ok: result.ok, failed: result.failed, missing: result.missing })}</Typography.Text>
        {result.unmatched.length > 0 && (
          <Table
            size="small"
            rowKey="line"
            pagination={false}
            dataSource={result.unmatched}
            columns={[
              { key: 'line', dataIndex: 'line', title: t('payout.line'), width: 60 },
              { key: 'seq', dataIndex: 'seq', title: t('payout.seq'), width: 60 },
              { key: 'account', dataIndex: 'account', title: t('payout.account') },
              { key: 'why', dataIndex: 'why', title: t('payout.problemTitle'), render: (w: string) => t(`payout.unmatched.${w}`) },
            ]}
          />
        )}
      </Space>
    </Modal>
  );
}
