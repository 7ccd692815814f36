import { Alert, Button, DatePicker, Descriptions, Drawer, Form, Input, InputNumber, Modal, Space, Table, Timeline, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PrinterOutlined } from '@ant-design/icons';
import { keepPreviousData } from '@tanstack/react-query';
import { addSettlementReceipt, changeSettlementState, getSettlement, type SettlementDetail, type SettlementState } from '@app/shared/contracts/settlement';
import { useAuth } from '../../../app/auth';
import { useContractQuery } from '../../../app/contractClient';
import { notify } from '../../../app/feedback';
import { formatMoney } from '../../../crud/format';
import { callContract, contractCodes, downloadContract, exportSettlement } from './contracts';
import { type LinePaging, SettlementLines } from './SettlementLines';
import { settlementPrintPath } from './printPath';
import { StateTag } from './StateTag';

/** The statement's detail: header, lines, receipts, history, and the actions its state allows (issue 22 items 4-6). */

const FIRST_PAGE: LinePaging = { page: 0, size: 20, keyword: '' };

type Action = 'SENT' | 'CONFIRMED' | 'DISPUTED' | 'INVOICED' | 'RECEIPT';
const ACTIONS: Record<SettlementState, Action[]> = {
  DRAFT: ['SENT'],
  SENT: ['CONFIRMED', 'DISPUTED'],
  DISPUTED: ['CONFIRMED'],
  CONFIRMED: ['INVOICED'],
  INVOICED: ['RECEIPT'],
  PARTIAL: ['RECEIPT'],
  SETTLED: ['RECEIPT'],
};

export function SettlementDrawer({ id, onClose, onChanged }: { id: number | null; onClose: () => void; onChanged: () => unknown }) {
  const { t } = useTranslation('settlement');
  const { hasPermission } = useAuth();
  const [paging, setPaging] = useState<LinePaging>(FIRST_PAGE);
  // another statement starts on its first page
  const [shownId, setShownId] = useState(id);
  if (shownId !== id) {
    setShownId(id);
    setPaging(FIRST_PAGE);
  }
  const q = useContractQuery(getSettlement, { params: { id: id ?? 0 }, query: { page: paging.page, size: paging.size, ...(paging.keyword ? { keyword: paging.keyword } : {}) } }, { enabled: id !== null, placeholderData: keepPreviousData });
  const [action, setAction] = useState<Action | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ note?: string; invoiceNo?: string; invoiceDate?: Dayjs; amount?: number }>();
  const s = q.data as SettlementDetail | undefined;
  const canEdit = hasPermission(contractCodes(changeSettlementState));
  const canReceipt = hasPermission(contractCodes(addSettlementReceipt));

  const start = (a: Action) => {
    form.resetFields();
    if (a === 'INVOICED' && s) form.setFieldsValue({ amount: s.totalDue });
    if (a === 'SENT' || a === 'CONFIRMED') {
      Modal.confirm({ title: t(`confirmAction.${a}`), onOk: () => run(a, {}) });
      return;
    }
    setAction(a);
  };

  const run = async (a: Action, v: { note?: string; invoiceNo?: string; invoiceDate?: Dayjs; amount?: number }) => {
    if (!s) return;
    setBusy(true);
    try {
      if (a === 'RECEIPT') {
        await callContract(addSettlementReceipt, { params: { id: s.id }, body: { amount: Number(v.amount), date: (v.invoiceDate as Dayjs).format('YYYY-MM-DD'), note: v.note } });
      } else {
        await callContract(changeSettlementState, {
          params: { id: s.id },
          body: { state: a, note: v.note, ...(a === 'INVOICED' ? { invoiceNo: v.invoiceNo, invoiceDate: (v.invoiceDate as Dayjs).format('YYYY-MM-DD'), invoiceAmount: Number(v.amount) } : {}) },
        });
      }
      notify.success(t('done'));
      setAction(null);
      await q.refetch();
      await onChanged();
    } catch {
      // the request layer shows the server's reason
    } finally {
      setBusy(false);
    }
  };

  const money = (v: unknown) => formatMoney(v);
  const actions = s && !s.superseded && !s.needsReopen ? ACTIONS[s.state].filter((a) => (a === 'RECEIPT' ? canReceipt : canEdit)) : [];

  return (
    <Drawer open={id !== null} onClose={onClose} size={1100} title={s ? `${s.companyName ?? ''} ${s.month} ${t('title')} · ${t('versionN', { n: s.version })}` : t('title')} data-testid="settlement-drawer" destroyOnHidden>
      {s ? (
        <Space direction="vertical" style={{ width: '100%' }} size="middle" data-testid="settlement-detail">
          {s.needsReopen ? <Alert type="error" showIcon message={t('needsReopenHint')} data-testid="settlement-needs-reopen" /> : null}
          {s.superseded ? <Alert type="warning" showIcon message={t('supersededHint')} /> : null}
          <Space wrap>
            <StateTag state={s.state} needsReopen={s.needsReopen} />
            {actions.map((a) => (
              <Button key={a} type={a === 'DISPUTED' ? 'default' : 'primary'} danger={a === 'DISPUTED'} onClick={() => start(a)} data-testid={`settlement-action-${a}`}>
                {t(`action.${a}`)}
              </Button>
            ))}
            <Button onClick={() => downloadContract(exportSettlement, { params: { id: s.id } })} data-testid="settlement-export">
              {t('export')}
            </Button>
            <Button icon={<PrinterOutlined />} onClick={() => window.open(settlementPrintPath(s.id), '_blank', 'noopener')} data-testid="settlement-print">
              {t('print')}
            </Button>
          </Space>
          <Descriptions size="small" bordered column={3} styles={{ label: { whiteSpace: 'nowrap' }, content: { whiteSpace: 'nowrap' } }} data-testid="settlement-header">
            <Descriptions.Item label={t('heads')}>{s.header.heads}</Descriptions.Item>
            <Descriptions.Item label={t('vatRegime')}>{`${t(`regime.${s.terms.vatRegime}`)} ${s.terms.vatRate}`}</Descriptions.Item>
            <Descriptions.Item label={t('siMonth')}>{s.terms.siMonth}</Descriptions.Item>
            <Descriptions.Item label={t('passThrough')}>{money(s.header.passThrough)}</Descriptions.Item>
            <Descriptions.Item label={t('line.fee')}>{money(s.header.sums.fee)}</Descriptions.Item>
            <Descriptions.Item label={t('subtotal')}>{money(s.header.subtotal)}</Descriptions.Item>
            <Descriptions.Item label={t('vat')}>{money(s.header.vat)}</Descriptions.Item>
            <Descriptions.Item label={t('surtax')}>{money(s.header.surtax)}</Descriptions.Item>
            <Descriptions.Item label={t('taxCharged')}>{money(s.header.taxCharged)}</Descriptions.Item>
            <Descriptions.Item label={t('currentDue')}>{money(s.header.currentDue)}</Descriptions.Item>
            <Descriptions.Item label={t('arrearsIn')}>{money(s.header.arrearsIn)}</Descriptions.Item>
            <Descriptions.Item label={t('totalDue')}>
              <Typography.Text strong data-testid="settlement-total-due">
                {money(s.header.totalDue)}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('received')}>{money(s.received)}</Descriptions.Item>
            <Descriptions.Item label={t('outstanding')}>{money(s.outstanding)}</Descriptions.Item>
            <Descriptions.Item label={t('invoice')}>{s.invoiceNo ? `${s.invoiceNo} ${s.invoiceDate ?? ''} ${money(s.invoiceAmount)}` : '-'}</Descriptions.Item>
            {s.disputeReason ? <Descriptions.Item label={t('disputeReason')}>{s.disputeReason}</Descriptions.Item> : null}
          </Descriptions>
          <SettlementLines s={s} paging={paging} onPaging={setPaging} loading={q.isFetching} />
          {s.receipts.length ? (
            <Table
              size="small"
              rowKey="id"
              pagination={false}
              title={() => t('receipts')}
              dataSource={s.receipts}
              columns={[
                { key: 'date', dataIndex: 'date', title: t('receiptDate'), width: 110 },
                { key: 'amount', dataIndex: 'amount', title: t('amount'), align: 'right', render: money },
                { key: 'note', dataIndex: 'note', title: t('note') },
                { key: 'username', dataIndex: 'username', title: t('by'), width: 120 },
              ]}
            />
          ) : null}
          <Timeline
            items={s.events.map((e) => ({
              children: `${e.createTime?.slice(0, 19).replace('T', ' ') ?? ''} ${e.fromState ? `${t(`state.${e.fromState}`)} → ` : ''}${t(`state.${e.toState}`)}${e.note ? `：${e.note}` : ''}${e.username ? ` (${e.username})` : ''}`,
            }))}
          />
        </Space>
      ) : null}
      <Modal open={action !== null} title={action ? t(`action.${action}`) : ''} confirmLoading={busy} onCancel={() => setAction(null)} onOk={async () => run(action as Action, await form.validateFields())} destroyOnHidden data-testid="settlement-action-dialog">
        <Form form={form} layout="vertical">
          {action === 'INVOICED' ? (
            <Form.Item name="invoiceNo" label={t('invoiceNo')} rules={[{ required: true, message: t('required') }]}>
              <Input maxLength={50} data-testid="settlement-invoice-no" />
            </Form.Item>
          ) : null}
          {action === 'INVOICED' || action === 'RECEIPT' ? (
            <>
              <Form.Item name="invoiceDate" label={action === 'INVOICED' ? t('invoiceDate') : t('receiptDate')} rules={[{ required: true, message: t('required') }]}>
                <DatePicker data-testid="settlement-date" />
              </Form.Item>
              <Form.Item name="amount" label={action === 'INVOICED' ? t('invoiceAmount') : t('amount')} rules={[{ required: true, message: t('required') }]}>
                <InputNumber min={0.01} precision={2} style={{ width: 200 }} data-testid="settlement-amount" />
              </Form.Item>
            </>
          ) : null}
          <Form.Item name="note" label={action === 'DISPUTED' ? t('disputeReason') : t('note')} rules={action === 'DISPUTED' ? [{ required: true, message: t('required') }] : []}>
            <Input.TextArea maxLength={500} rows={2} data-testid="settlement-note" />
          </Form.Item>
        </Form>
      </Modal>
    </Drawer>
  );
}
