import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, DatePicker, Form, Modal, Select, Space, Table, Tooltip } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteSettlement, generateSettlement, listSettlements, SETTLEMENT_STATES, type SettlementState, type SettlementSummary } from '@app/shared/contracts/settlement';
import { useAuth } from '../../../app/auth';
import { callContract, contractCodes, downloadContract, exportSettlement } from './contracts';
import { notify } from '../../../app/feedback';
import { SearchButtons, SearchItem, SearchRow } from '../../../crud/SearchBar';
import { formatMoney } from '../../../crud/format';
import { usePagedList } from '../../../crud/usePagedList';
import '../../../crud/crud.css';
import { CompanySelect, useCompanies } from '../../accounts/companies';
import { SettlementDrawer } from './SettlementDrawer';
import { StateTag } from './StateTag';

interface Filters extends Record<string, unknown> {
  companyId: number | null;
  month: string | null;
  state: SettlementState | null;
}

/**
 * 薪资管理 › 结算单 (issue 22): statements per client company and month, filtered by company, month and state; 生成
 * from a confirmed month; the detail drawer holds the lines and the actions the statement's state allows.
 */
export default function SettlementPage() {
  const { t } = useTranslation('settlement');
  const { hasPermission } = useAuth();
  const queryClient = useQueryClient();
  const { companies, loading } = useCompanies();
  const [draft, setDraft] = useState<Filters>({ companyId: null, month: null, state: null });
  const [open, setOpen] = useState<number | null>(null);
  const [generating, setGenerating] = useState(false);
  const [form] = Form.useForm<{ companyId: number; month: Dayjs }>();
  const list = usePagedList<SettlementSummary, Filters>({
    key: ['settlement'],
    filters: { companyId: null, month: null, state: null },
    load: (f, page, size) => callContract(listSettlements, { query: { page, size, ...(f.companyId ? { companyId: f.companyId } : {}), ...(f.month ? { month: f.month } : {}), ...(f.state ? { state: f.state } : {}) } }),
    showTotal: (n) => t('total', { count: n }),
  });
  const canCreate = hasPermission(contractCodes(generateSettlement));
  const canDelete = hasPermission(contractCodes(deleteSettlement));
  const refreshAll = () => queryClient.invalidateQueries({ queryKey: ['settlement'] });

  const generate = async () => {
    const v = await form.validateFields();
    setGenerating(true);
    try {
      const r = await callContract(generateSettlement, { body: { companyId: v.companyId, month: v.month.format('YYYY-MM') } });
      notify.success(r.message);
      setGenerating(false);
      form.resetFields();
      await refreshAll();
      setOpen(r.statement.id);
    } catch {
      // the request layer shows the server's reason (e.g. the month is not confirmed)
      setGenerating(false);
    }
  };

  const remove = (row: SettlementSummary) =>
    Modal.confirm({
      title: t('deleteConfirm', { company: row.companyName, month: row.month }),
      okType: 'danger',
      onOk: async () => {
        await callContract(deleteSettlement, { params: { id: row.id } });
        notify.success(t('deleted'));
        await list.afterDelete();
      },
    });

  return (
    <div className="crud-page" data-testid="settlement-page">
      <SearchRow>
        <SearchItem label={t('company')}>
          <CompanySelect companies={companies} loading={loading} value={draft.companyId} onChange={(v) => setDraft({ ...draft, companyId: v })} testId="settlement-filter-company" />
        </SearchItem>
        <SearchItem label={t('month')}>
          <DatePicker picker="month" value={draft.month ? dayjs(draft.month) : null} onChange={(d: Dayjs | null) => setDraft({ ...draft, month: d ? d.format('YYYY-MM') : null })} data-testid="settlement-filter-month" />
        </SearchItem>
        <SearchItem label={t('stateLabel')}>
          <Select allowClear style={{ width: 140 }} value={draft.state ?? undefined} onChange={(v) => setDraft({ ...draft, state: v ?? null })} options={SETTLEMENT_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))} data-testid="settlement-filter-state" />
        </SearchItem>
        <SearchButtons
          onSearch={() => list.filter(draft)}
          onReset={() => {
            const none = { companyId: null, month: null, state: null };
            setDraft(none);
            list.filter(none);
          }}
          searchTestId="settlement-search"
        />
      </SearchRow>
      {canCreate ? (
        <Form form={form} layout="inline" className="crud-toolbar" data-testid="settlement-generate-form">
          <Form.Item name="companyId" label={t('company')} rules={[{ required: true, message: t('chooseCompany') }]}>
            <CompanySelect companies={companies} loading={loading} testId="settlement-generate-company" />
          </Form.Item>
          <Form.Item name="month" label={t('month')} rules={[{ required: true, message: t('chooseMonth') }]}>
            <DatePicker picker="month" data-testid="settlement-generate-month" />
          </Form.Item>
          <Button type="primary" loading={generating} onClick={generate} data-testid="settlement-generate">
            {t('generate')}
          </Button>
          <Tooltip title={t('refresh')}>
            <Button icon={<ReloadOutlined />} onClick={() => list.refresh()} aria-label={t('refresh')} />
          </Tooltip>
        </Form>
      ) : null}
      <Table<SettlementSummary>
        {...list.tableProps}
        size="small"
        scroll={{ x: 1200 }}
        data-testid="settlement-table"
        columns={[
          { key: 'companyName', dataIndex: 'companyName', title: t('company'), width: 200, fixed: 'left' },
          { key: 'month', dataIndex: 'month', title: t('month'), width: 90 },
          { key: 'version', dataIndex: 'version', title: t('version'), width: 70, align: 'right' },
          { key: 'state', title: t('stateLabel'), width: 150, render: (_, r) => <StateTag state={r.state} needsReopen={r.needsReopen} /> },
          { key: 'heads', dataIndex: 'heads', title: t('heads'), width: 70, align: 'right' },
          { key: 'currentDue', dataIndex: 'currentDue', title: t('currentDue'), align: 'right', render: formatMoney },
          { key: 'arrearsIn', dataIndex: 'arrearsIn', title: t('arrearsIn'), align: 'right', render: formatMoney },
          { key: 'totalDue', dataIndex: 'totalDue', title: t('totalDue'), align: 'right', render: formatMoney },
          { key: 'received', dataIndex: 'received', title: t('received'), align: 'right', render: formatMoney },
          { key: 'outstanding', dataIndex: 'outstanding', title: t('outstanding'), align: 'right', render: formatMoney },
          {
            key: 'actions',
            title: t('actions'),
            fixed: 'right',
            width: 200,
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setOpen(r.id)} data-testid={`settlement-open-${r.id}`}>
                  {t('detail')}
                </Button>
                <Button type="link" size="small" icon={<DownloadOutlined />} onClick={() => downloadContract(exportSettlement, { params: { id: r.id } })}>
                  {t('export')}
                </Button>
                {canDelete && r.state === 'DRAFT' ? (
                  <Button type="link" size="small" danger onClick={() => remove(r)}>
                    {t('delete')}
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      <SettlementDrawer id={open} onClose={() => setOpen(null)} onChanged={refreshAll} />
    </div>
  );
}
