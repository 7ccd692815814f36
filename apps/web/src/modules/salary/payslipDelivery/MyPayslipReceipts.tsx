import { confirmReceipt, FEEDBACK_TEXT_MAX, myReceipts, objectReceipt, type OwnReceipt, viewReceipt } from '@app/shared/contracts/payslipDelivery';
import { CheckOutlined, ExclamationCircleOutlined, FileTextOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Input, List, Modal, Popconfirm, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callContract, contractKey, useContractMutation, useContractQuery } from '../../../app/contractClient';
import { notify } from '../../../app/feedback';
import type { Row } from '../../../crud';
import { formatDateTime } from '../../../crud/format';
import { PayslipPrintModal } from '../PayslipSheet';
import { STATE_COLOR } from './DeliveryDrawer';

/**
 * The employee's published payslips with 查看, 确认 and 有异议 (issue 24 item 1), above their 工资条 list. 查看 shows
 * the slip as published (and records the first view); 确认 sends the hash of that very version.
 */
export function MyPayslipReceipts() {
  const { t } = useTranslation('salary');
  const queryClient = useQueryClient();
  const mine = useContractQuery(myReceipts, {});
  const [showing, setShowing] = useState<Row | null>(null);
  const [objecting, setObjecting] = useState<OwnReceipt | null>(null);
  const [text, setText] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: contractKey(myReceipts) });
  const confirm = useContractMutation(confirmReceipt, {
    onSuccess: () => {
      notify.success(t('delivery.mine.confirmedMsg'));
      void refresh();
    },
  });
  const object = useContractMutation(objectReceipt, {
    onSuccess: () => {
      notify.success(t('delivery.mine.objectedMsg'));
      setObjecting(null);
      setText('');
      void refresh();
    },
  });
  const open = async (r: OwnReceipt) => {
    setShowing(r.slip as Row);
    try {
      await callContract(viewReceipt, { params: { id: r.id } });
      void refresh();
    } catch {
      /* shown by the request layer */
    }
  };
  const rows = mine.data?.content ?? [];
  if (!rows.length) return null;

  return (
    <Card size="small" title={t('delivery.mine.title')} style={{ marginBottom: 12 }} data-testid="my-receipts">
      <Alert type="info" showIcon title={t('delivery.mine.intro')} style={{ marginBottom: 8 }} />
      <List
        dataSource={rows}
        rowKey="id"
        renderItem={(r) => (
          <List.Item
            data-testid={`my-receipt-${r.month}`}
            actions={[
              <Button key="view" size="small" icon={<FileTextOutlined />} onClick={() => void open(r)} data-testid="receipt-view">
                {t('delivery.mine.view')}
              </Button>,
              ...(r.state !== 'confirmed'
                ? [
                    <Popconfirm key="confirm" title={t('delivery.mine.confirmQuestion')} onConfirm={() => confirm.mutate({ params: { id: r.id }, body: { slipHash: r.slipHash } })} okText={t('ok')} cancelText={t('cancel')}>
                      <Button size="small" type="primary" icon={<CheckOutlined />} loading={confirm.isPending} data-testid="receipt-confirm">
                        {t('delivery.mine.confirm')}
                      </Button>
                    </Popconfirm>,
                    <Button key="object" size="small" danger icon={<ExclamationCircleOutlined />} onClick={() => setObjecting(r)} data-testid="receipt-object">
                      {t('delivery.mine.object')}
                    </Button>,
                  ]
                : []),
            ]}
          >
            <List.Item.Meta
              title={
                <Space wrap>
                  <span>{r.month}</span>
                  <span>{r.companyName}</span>
                  <Typography.Text type="secondary">{t('delivery.mine.version', { version: r.version })}</Typography.Text>
                  <Tag color={STATE_COLOR[r.state]} data-testid="receipt-state">
                    {t(`delivery.states.${r.state}`)}
                  </Tag>
                </Space>
              }
              description={
                <Space direction="vertical" size={0}>
                  {r.state === 'confirmed' ? (
                    <span>{t('delivery.mine.confirmedAt', { time: formatDateTime(r.confirmedTime) })}</span>
                  ) : r.deadline ? (
                    <span>{t('delivery.mine.deadline', { date: formatDateTime(r.deadline).slice(0, 10) })}</span>
                  ) : null}
                  {r.objection ? <span>{t('delivery.mine.objection', { text: r.objection })}</span> : null}
                  {r.reply ? <span data-testid="receipt-reply">{t('delivery.mine.reply', { text: r.reply })}</span> : null}
                </Space>
              }
            />
          </List.Item>
        )}
      />
      <PayslipPrintModal row={showing} onClose={() => setShowing(null)} />
      <Modal
        open={objecting !== null}
        title={t('delivery.mine.objectTitle')}
        onCancel={() => setObjecting(null)}
        onOk={() => objecting && object.mutate({ params: { id: objecting.id }, body: { text } })}
        okButtonProps={{ disabled: !text.trim(), 'data-testid': 'object-ok' } as never}
        confirmLoading={object.isPending}
        okText={t('ok')}
        cancelText={t('cancel')}
        destroyOnHidden
      >
        <Input.TextArea rows={4} maxLength={FEEDBACK_TEXT_MAX} showCount value={text} onChange={(e) => setText(e.target.value)} placeholder={t('delivery.mine.objectPlaceholder')} style={{ marginBottom: 16 }} data-testid="object-text" />
      </Modal>
    </Card>
  );
}
