import { type Publication, publishPayslips, listDeliveries, recallPayslips } from '@app/shared/contracts/payslipDelivery';
import { ReloadOutlined, SendOutlined } from '@ant-design/icons';
import { Button, Card, DatePicker, Form, InputNumber, Modal, Popconfirm, Space, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../app/auth';
import { callContract, contractCodes, useContractMutation } from '../../../app/contractClient';
import { notify } from '../../../app/feedback';
import { formatDateTime } from '../../../crud/format';
import { SearchButtons, SearchItem, SearchRow } from '../../../crud/SearchBar';
import { usePagedList } from '../../../crud/usePagedList';
import '../../../crud/crud.css';
import { CompanySelect, useCompanies } from '../../accounts/companies';
import { DeliveryDrawer, STATE_COLOR } from './DeliveryDrawer';

/**
 * 薪资管理 › 工资条发放 (issue 24 item 1): the latest publication of each company's month with its counts per state
 * (已发布 / 已查看 / 已确认 / 有异议 / 已答复 / 逾期未反馈), 发布 (now or at a set time) and 撤回; 明细 opens the people of
 * one month and the objections to answer.
 */

const COUNT_KEYS = ['published', 'viewed', 'confirmed', 'objected', 'answered', 'overdue', 'total'] as const;
const PUBLICATION_COLOR: Record<string, string> = { scheduled: 'gold', published: 'green', recalled: 'default', superseded: 'default' };

type Filters = { companyId: number | null; month: string | null };

export default function PayslipDeliveryPage() {
  const { t } = useTranslation('salary');
  const { hasPermission } = useAuth();
  const canPublish = hasPermission(contractCodes(publishPayslips));
  const { companies, loading } = useCompanies();
  const [draft, setDraft] = useState<Filters>({ companyId: null, month: null });
  const [publishing, setPublishing] = useState(false);
  const [opened, setOpened] = useState<Publication | null>(null);
  const list = usePagedList<Publication, Filters>({
    key: ['payslipDelivery'],
    filters: { companyId: null, month: null },
    load: (f, page, size) => callContract(listDeliveries, { query: { page, size, ...(f.companyId ? { companyId: f.companyId } : {}), ...(f.month ? { month: f.month } : {}) } }),
    showTotal: (total) => t('delivery.total', { count: total }),
  });
  const recall = useContractMutation(recallPayslips, {
    onSuccess: () => {
      notify.success(t('delivery.recalledMsg'));
      void list.refresh();
    },
  });

  const columns: ColumnsType<Publication> = [
    { key: 'companyName', title: t('delivery.company'), dataIndex: 'companyName', width: 160, ellipsis: true },
    { key: 'month', title: t('delivery.month'), dataIndex: 'month', width: 80 },
    { key: 'version', title: t('delivery.version'), dataIndex: 'version', width: 56, align: 'right' },
    {
      key: 'state',
      title: t('delivery.pubState'),
      width: 96,
      render: (_v, p) => (
        <Tooltip title={p.state === 'scheduled' ? formatDateTime(p.publishAt) : undefined}>
          <Tag color={PUBLICATION_COLOR[p.state]}>{t(`delivery.pubStates.${p.state}`)}</Tag>
        </Tooltip>
      ),
    },
    { key: 'publishedTime', title: t('delivery.publishedTime'), width: 150, render: (_v, p) => formatDateTime(p.publishedTime ?? p.publishAt) },
    ...COUNT_KEYS.map((k) => ({
      key: k,
      title: k === 'total' ? t('delivery.states.total') : <Tag color={STATE_COLOR[k]}>{t(`delivery.states.${k}`)}</Tag>,
      width: 72,
      align: 'right' as const,
      render: (_v: unknown, p: Publication) => <span data-testid={`count-${k}`}>{p.counts[k]}</span>,
    })),
    {
      key: 'actions',
      title: t('delivery.actions'),
      width: 120,
      fixed: 'right',
      render: (_v, p) => (
        <Space size={4}>
          <Button size="small" type="link" onClick={() => setOpened(p)} data-testid="delivery-detail">
            {t('delivery.detail')}
          </Button>
          {canPublish && (p.state === 'published' || p.state === 'scheduled') ? (
            <Popconfirm
              title={t('delivery.recallConfirm', { company: p.companyName ?? '', month: p.month })}
              onConfirm={() => recall.mutate({ body: { companyId: p.companyId, month: p.month } })}
              okText={t('ok')}
              cancelText={t('cancel')}
            >
              <Button size="small" type="link" danger data-testid="delivery-recall">
                {t('delivery.recall')}
              </Button>
            </Popconfirm>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <Card className="crud-page" variant="borderless" data-testid="payslip-delivery-page">
      <SearchRow>
        <SearchItem label={t('delivery.company')}>
          <CompanySelect value={draft.companyId} onChange={(v) => setDraft((d) => ({ ...d, companyId: v }))} companies={companies} loading={loading} testId="delivery-company" />
        </SearchItem>
        <SearchItem label={t('delivery.month')}>
          <DatePicker picker="month" format="YYYY-MM" value={draft.month ? dayjs(`${draft.month}-01`) : null} onChange={(d) => setDraft((x) => ({ ...x, month: d ? d.format('YYYY-MM') : null }))} data-testid="delivery-month" />
        </SearchItem>
        <SearchButtons
          onSearch={() => {
            // the same filters again still mean "show me the current counts"
            list.filter(draft);
            void list.refresh();
          }}
          onReset={() => {
            setDraft({ companyId: null, month: null });
            list.filter({ companyId: null, month: null });
          }}
          searchTestId="delivery-search"
        />
      </SearchRow>
      <div className="crud-toolbar">
        <Space wrap>
          {canPublish ? (
            <Button type="primary" icon={<SendOutlined />} onClick={() => setPublishing(true)} data-testid="delivery-publish">
              {t('delivery.publish')}
            </Button>
          ) : null}
        </Space>
        <Button icon={<ReloadOutlined />} onClick={() => void list.refresh()} aria-label="refresh" />
      </div>
      <Table<Publication> size="middle" columns={columns} {...list.tableProps} scroll={{ x: 1170 }} data-testid="delivery-table" />
      {canPublish ? <PublishDialog open={publishing} onClose={() => setPublishing(false)} onDone={() => void list.refresh()} /> : null}
      <DeliveryDrawer publication={opened} onClose={() => setOpened(null)} onChanged={() => void list.refresh()} canAnswer={canPublish} />
    </Card>
  );
}

/** 发布工资条: a company, a confirmed month, the days to respond and an optional time (empty: now). */
function PublishDialog({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('salary');
  const { companies, loading } = useCompanies();
  const [companyId, setCompanyId] = useState<number | null>(null);
  const [month, setMonth] = useState<string>(dayjs().subtract(1, 'month').format('YYYY-MM'));
  const [days, setDays] = useState<number>(7);
  const [at, setAt] = useState<Dayjs | null>(null);
  const publish = useContractMutation(publishPayslips, {
    onSuccess: (res) => {
      notify.success(res.publication.state === 'scheduled' ? t('delivery.scheduledMsg') : t('delivery.publishedMsg', { count: res.notified }));
      onDone();
      onClose();
    },
  });
  const submit = () => {
    if (!companyId || !month) {
      notify.warning(t('delivery.chooseCompanyMonth'));
      return;
    }
    publish.mutate({ body: { companyId, month, confirmDays: days, siteUrl: window.location.origin, ...(at ? { publishAt: at.toISOString() } : {}) } });
  };
  return (
    <Modal
      open={open}
      title={t('delivery.publishTitle')}
      onCancel={onClose}
      onOk={submit}
      okText={t('ok')}
      cancelText={t('cancel')}
      confirmLoading={publish.isPending}
      okButtonProps={{ 'data-testid': 'publish-ok' } as never}
      destroyOnHidden
      width={520}
    >
      <Form layout="vertical">
        <Form.Item label={t('delivery.company')} required>
          <CompanySelect value={companyId} onChange={setCompanyId} companies={companies} loading={loading} testId="publish-company" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label={t('delivery.month')} required>
          <DatePicker picker="month" format="YYYY-MM" allowClear={false} value={dayjs(`${month}-01`)} onChange={(d) => d && setMonth(d.format('YYYY-MM'))} data-testid="publish-month" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label={t('delivery.confirmDays')} extra={t('delivery.confirmDaysHelp')}>
          <InputNumber min={1} max={60} precision={0} value={days} onChange={(v) => setDays(Number(v ?? 7))} data-testid="publish-days" />
        </Form.Item>
        <Form.Item label={t('delivery.publishAt')} extra={t('delivery.publishAtHelp')}>
          <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" value={at} onChange={setAt} disabledDate={(d) => d.isBefore(dayjs(), 'day')} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
