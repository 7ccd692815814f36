import { deliveryDetail, type Publication, type Receipt, replyObjection } from '@app/shared/contracts/payslipDelivery';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, Empty, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { contractKey, useContractMutation, useContractQuery } from '../../../app/contractClient';
import { notify } from '../../../app/feedback';
import { formatDateTime } from '../../../crud/format';
import { maskIdCard } from '@app/shared/idcard';

/** Colour of each receipt state (shared with the counts of the list and the employee's own view). */
export const STATE_COLOR: Record<string, string> = { published: 'default', viewed: 'blue', confirmed: 'green', objected: 'red', answered: 'orange', overdue: 'volcano', total: 'default' };

/** ID card shown with its middle masked (PIPL: the clerk's list needs to tell people apart, not the whole number). */

/** One company's month: counts, the 有异议 list with 答复, and everyone's state with the evidence. */
export function DeliveryDrawer({ publication, onClose, onChanged, canAnswer }: { publication: Publication | null; onClose: () => void; onChanged: () => void; canAnswer: boolean }) {
  const { t } = useTranslation('salary');
  const queryClient = useQueryClient();
  const input = { query: { companyId: publication?.companyId ?? 0, month: publication?.month ?? '' } };
  const detail = useContractQuery(deliveryDetail, input, { enabled: publication !== null });
  const [answering, setAnswering] = useState<Receipt | null>(null);
  const [text, setText] = useState('');
  const reply = useContractMutation(replyObjection, {
    onSuccess: () => {
      notify.success(t('delivery.repliedMsg'));
      setAnswering(null);
      setText('');
      void queryClient.invalidateQueries({ queryKey: contractKey(deliveryDetail) });
      onChanged();
    },
  });
  const pub = detail.data?.publication ?? publication;
  const state = (r: Receipt) => (
    <Tag color={STATE_COLOR[r.state]} data-testid={`receipt-state-${r.state}`}>
      {t(`delivery.states.${r.state}`)}
    </Tag>
  );

  const objectionColumns: ColumnsType<Receipt> = [
    { key: 'staffName', title: t('delivery.name'), dataIndex: 'staffName', width: 100 },
    { key: 'state', title: t('delivery.state'), width: 110, render: (_v, r) => state(r) },
    { key: 'objection', title: t('delivery.objection'), dataIndex: 'objection', render: (v: string) => <Typography.Text data-testid="objection-text">{v}</Typography.Text> },
    { key: 'objectionTime', title: t('delivery.objectionTime'), width: 150, render: (_v, r) => formatDateTime(r.objectionTime) },
    { key: 'reply', title: t('delivery.replyCol'), dataIndex: 'reply' },
    {
      key: 'actions',
      title: t('delivery.actions'),
      width: 90,
      render: (_v, r) =>
        canAnswer && r.state === 'objected' ? (
          <Button size="small" type="link" onClick={() => setAnswering(r)} data-testid="objection-reply">
            {t('delivery.reply')}
          </Button>
        ) : null,
    },
  ];
  const receiptColumns: ColumnsType<Receipt> = [
    { key: 'staffName', title: t('delivery.name'), dataIndex: 'staffName', width: 90 },
    { key: 'idCard', title: t('delivery.idCard'), width: 160, render: (_v, r) => maskIdCard(r.idCard) },
    { key: 'state', title: t('delivery.state'), width: 110, render: (_v, r) => state(r) },
    { key: 'viewedTime', title: t('delivery.viewedTime'), width: 150, render: (_v, r) => formatDateTime(r.viewedTime) },
    { key: 'confirmedTime', title: t('delivery.confirmedTime'), width: 150, render: (_v, r) => formatDateTime(r.confirmedTime) },
    { key: 'confirmedIp', title: t('delivery.ip'), dataIndex: 'confirmedIp', width: 110 },
    { key: 'deadline', title: t('delivery.deadline'), width: 150, render: (_v, r) => formatDateTime(r.deadline) },
  ];

  return (
    <Drawer
      open={publication !== null}
      onClose={onClose}
      size="large"
      styles={{ wrapper: { width: 1000 } }}
      title={pub ? t('delivery.detailTitle', { company: pub.companyName ?? '', month: pub.month, version: pub.version }) : ''}
      destroyOnHidden
      data-testid="delivery-drawer"
    >
      {pub ? (
        <Space wrap style={{ marginBottom: 12 }} data-testid="delivery-counts">
          {(['published', 'viewed', 'confirmed', 'objected', 'answered', 'overdue'] as const).map((k) => (
            <Tag key={k} color={STATE_COLOR[k]}>
              {t(`delivery.states.${k}`)} {pub.counts[k]}
            </Tag>
          ))}
          <Typography.Text type="secondary">
            {t('delivery.states.total')} {pub.counts.total}
          </Typography.Text>
          {pub.noticeSummary ? <Typography.Text type="secondary">· {t('delivery.notice')}：{pub.noticeSummary}</Typography.Text> : null}
        </Space>
      ) : null}
      <Typography.Title level={5}>{t('delivery.objections')}</Typography.Title>
      {detail.data && detail.data.objections.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('delivery.noObjections')} />
      ) : (
        <Table<Receipt> size="small" rowKey="id" columns={objectionColumns} dataSource={detail.data?.objections ?? []} loading={detail.isFetching} pagination={false} data-testid="objection-table" />
      )}
      <Typography.Title level={5} style={{ marginTop: 20 }}>
        {t('delivery.receipts')}
      </Typography.Title>
      <Table<Receipt>
        size="small"
        rowKey="id"
        columns={receiptColumns}
        dataSource={detail.data?.receipts ?? []}
        loading={detail.isFetching}
        pagination={{ pageSize: 20, showSizeChanger: true, showTotal: (n) => t('delivery.total', { count: n }) }}
        scroll={{ x: 920 }}
        data-testid="receipt-table"
      />
      <Modal
        open={answering !== null}
        title={t('delivery.replyTitle')}
        onCancel={() => setAnswering(null)}
        onOk={() => answering && reply.mutate({ params: { id: answering.id }, body: { text } })}
        okButtonProps={{ disabled: !text.trim(), 'data-testid': 'reply-ok' } as never}
        confirmLoading={reply.isPending}
        okText={t('ok')}
        cancelText={t('cancel')}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{answering?.objection}</Typography.Paragraph>
        <Input.TextArea rows={4} maxLength={500} showCount value={text} onChange={(e) => setText(e.target.value)} placeholder={t('delivery.replyText')} style={{ marginBottom: 16 }} data-testid="reply-text" />
      </Modal>
    </Drawer>
  );
}
