import { DownloadOutlined, ReloadOutlined, TransactionOutlined, } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, DatePicker, Input, Modal, Popconfirm, Select, Space, Table, Tag, Tooltip, Typography, } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  deletePayout,
  exportPayout,
  generatePayout,
  importPayoutReturn,
  listPayoutBatches,
  PAYOUT_STATES,
  type PayoutBatch,
  type PayoutProblem,
  repayPayout,
} from '@app/shared/contracts/payout';
import { bankTemplateResource } from '@app/shared/resources/bankTemplate';
import { useAuth } from '../../../app/auth';
import { callContract, contractCodes, downloadContract, uploadContract } from '../../../app/contractClient';
import { notify } from '../../../app/feedback';
import { RequestError } from '../../../app/request';
import { formatDateTime, formatMoney } from '../../../crud/format';
import { listRowsOf } from '../../../crud/resourceClient';
import { SearchItem, SearchRow } from '../../../crud/SearchBar';
import { usePagedList } from '../../../crud/usePagedList';
import '../../../crud/crud.css';
import { CompanySelect, useChosenCompany, useCompanies } from '../../accounts/companies';
import { BatchDetail, type ImportResult, ImportResultView } from './BatchDetail';
import { FilePickButton } from '../../../crud/FilePickButton';

/**
 * 薪资管理 › 代发工资 (issue 23): generate a payout batch from a confirmed month in a bank template's layout (the
 * pre-check problems row by row, a Luhn failure confirmable per row), the batches with their states, the bank file
 * (the first export locks the batch), the bank's return file, card corrections and re-pay batches (in BatchDetail).
 */
export const STATE_COLOURS: Record<PayoutBatch['state'], string> = { pending: 'default', exported: 'blue', part_failed: 'orange', done: 'green' };

export default function PayoutPage() {
  const { t } = useTranslation('salary');
  const { hasPermission } = useAuth();
  const { companies, loading, loaded } = useCompanies();
  const { companyId, setCompanyId } = useChosenCompany(companies, loaded);
  const [month, setMonth] = useState(() => dayjs().subtract(1, 'month').format('YYYY-MM'));
  const [templateId, setTemplateId] = useState<number | null>(null);
  const [problems, setProblems] = useState<{ problems: PayoutProblem[]; repayOf?: number } | null>(null);
  const [accepted, setAccepted] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const [detail, setDetail] = useState<number | null>(null);
  const [imported, setImported] = useState<ImportResult | null>(null);
  const [override, setOverride] = useState<{ batch: PayoutBatch; message: string; reason: string } | null>(null);
  const can = (c: Parameters<typeof contractCodes>[0]) => hasPermission(contractCodes(c));

  const templates = useQuery({
    queryKey: ['bankTemplate', 'choices'],
    // the bank templates are a resource (系统工具 › 银行模板); its list is the generic one
    queryFn: () => listRowsOf(bankTemplateResource, { size: 100, sort: 'id,asc' }),
  });
  const templateChoice = templateId ?? templates.data?.content[0]?.id ?? null;

  const list = usePagedList<PayoutBatch, { state?: PayoutBatch['state'] }>({
    key: ['payout', companyId, month],
    filters: {},
    load: (f, page, size) => callContract(listPayoutBatches, { query: { companyId: companyId ?? undefined, month, state: f.state, page, size } }),
    showTotal: (n) => t('payout.total', { count: n }),
  });

  const generate = async (acceptLuhn: number[]) => {
    if (companyId === null || templateChoice === null) {
      notify.warning(t('payout.chooseFirst'));
      return;
    }
    setBusy(true);
    try {
      const r = problems?.repayOf
        ? await callContract(repayPayout, { params: { id: problems.repayOf }, body: { acceptLuhn } })
        : await callContract(generatePayout, { body: { companyId, month, templateId: templateChoice, acceptLuhn } });
      if (r.batch) {
        notify.success(t('payout.generated', { count: r.batch.rowCount }));
        setProblems(null);
        setAccepted([]);
        await list.refresh();
      } else setProblems({ problems: r.problems, repayOf: problems?.repayOf });
    } catch {
      /* the request layer showed the message */
    } finally {
      setBusy(false);
    }
  };

  const repay = async (b: PayoutBatch) => {
    setBusy(true);
    try {
      const r = await callContract(repayPayout, { params: { id: b.id }, body: {} });
      if (r.batch) {
        notify.success(t('payout.generated', { count: r.batch.rowCount }));
        await list.refresh();
      } else setProblems({ problems: r.problems, repayOf: b.id });
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  };

  const download = async (b: PayoutBatch, iitOverrideReason?: string) => {
    try {
      await downloadContract(exportPayout, { params: { batchId: b.id }, query: iitOverrideReason ? { iitOverride: 'true', iitOverrideReason } : {} });
      setOverride(null);
      await list.refresh();
    } catch (err) {
      // the month's IIT reconciliation (个税申报) has open differences: offer the override with a reason
      if (err instanceof RequestError && err.code === 'IIT_RECONCILE_OPEN') setOverride({ batch: b, message: err.message, reason: '' });
    }
  };

  const upload = async (b: PayoutBatch, file: File) => {
    const form = new FormData();
    form.append('file', file);
    try {
      const r = await uploadContract(importPayoutReturn, form, { params: { batchId: b.id } });
      setImported(r);
      await list.refresh();
    } catch {
      /* shown */
    }
  };

  const remove = async (b: PayoutBatch) => {
    try {
      await callContract(deletePayout, { params: { id: b.id } });
      notify.success(t('deleted'));
      await list.afterDelete();
    } catch {
      /* shown */
    }
  };

  const luhnRows = problems?.problems.filter((p) => p.overridable) ?? [];
  return (
    <Card className="crud-page" variant="borderless" data-testid="payout-page">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        <TransactionOutlined /> {t('payout.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('payout.hint')}</Typography.Paragraph>
      <SearchRow testId="payout-filters">
        <SearchItem label={t('company')}>
          <CompanySelect value={companyId} onChange={setCompanyId} companies={companies} loading={loading} testId="payout-company" style={{ width: 240 }} />
        </SearchItem>
        <SearchItem label={t('month')}>
          <DatePicker picker="month" format="YYYY-MM" allowClear={false} value={dayjs(`${month}-01`)} onChange={(d) => d && setMonth(d.format('YYYY-MM'))} data-testid="payout-month" />
        </SearchItem>
        <SearchItem label={t('payout.state')}>
          <Select
            allowClear
            style={{ width: 130 }}
            data-testid="payout-state"
            value={list.filters.state}
            onChange={(v) => list.filter({ state: v })}
            options={PAYOUT_STATES.map((s) => ({ value: s, label: t(`payout.states.${s}`) }))}
          />
        </SearchItem>
      </SearchRow>
      <Space wrap style={{ marginBottom: 12 }}>
        {can(generatePayout) && (
          <>
            <Select
              style={{ width: 240 }}
              data-testid="payout-template"
              loading={templates.isLoading}
              value={templateChoice}
              onChange={setTemplateId}
              options={(templates.data?.content ?? []).map((x) => ({ value: x.id, label: x.templateName }))}
              placeholder={t('payout.template')}
            />
            <Button type="primary" loading={busy} onClick={() => generate([])} data-testid="payout-generate">
              {t('payout.generate')}
            </Button>
          </>
        )}
        <Tooltip title={t('payout.refresh')}>
          <Button icon={<ReloadOutlined />} onClick={() => list.refresh()} />
        </Tooltip>
      </Space>

      {problems && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="payout-problems"
          title={t('payout.refused', { count: problems.problems.length })}
          description={
            <>
              <Table<PayoutProblem>
                size="small"
                rowKey={(p) => `${p.id}-${p.code}-${p.detail ?? ''}`}
                pagination={problems.problems.length > 10 ? { pageSize: 10 } : false}
                dataSource={problems.problems}
                columns={[
                  { key: 'seq', dataIndex: 'seq', title: t('payout.seq'), width: 60 },
                  { key: 'staffName', dataIndex: 'staffName', title: t('staffName'), width: 100 },
                  { key: 'account', dataIndex: 'account', title: t('payout.account'), width: 190 },
                  { key: 'code', title: t('payout.problemTitle'), render: (_: unknown, p) => t(`payout.problem.${p.code}`, { detail: p.detail ?? '' }) },
                  {
                    key: 'accept',
                    title: t('payout.acceptLuhn'),
                    width: 110,
                    render: (_: unknown, p) =>
                      p.overridable ? (
                        <Checkbox
                          data-testid={`payout-accept-${p.id}`}
                          checked={accepted.includes(p.id)}
                          onChange={(e) => setAccepted((a) => (e.target.checked ? [...a, p.id] : a.filter((x) => x !== p.id)))}
                        />
                      ) : null,
                  },
                ]}
              />
              {luhnRows.length > 0 && (
                <Button style={{ marginTop: 8 }} disabled={!accepted.length} loading={busy} onClick={() => generate(accepted)} data-testid="payout-generate-accepted">
                  {t('payout.generateAccepted')}
                </Button>
              )}
            </>
          }
          closable={{ onClose: () => setProblems(null) }}
        />
      )}

      <Table<PayoutBatch>
        {...list.tableProps}
        size="small"
        data-testid="payout-batches"
        scroll={{ x: 1100 }}
        locale={{ emptyText: t('payout.empty') }}
        columns={[
          { key: 'id', dataIndex: 'id', title: t('payout.batch'), width: 70 },
          { key: 'companyName', dataIndex: 'companyName', title: t('company'), width: 180 },
          { key: 'month', dataIndex: 'month', title: t('month'), width: 90 },
          { key: 'kind', dataIndex: 'kind', title: t('payout.kind'), width: 90, render: (k: PayoutBatch['kind']) => t(`payout.kinds.${k}`) },
          { key: 'state', dataIndex: 'state', title: t('payout.state'), width: 100, render: (s: PayoutBatch['state']) => <Tag color={STATE_COLOURS[s]}>{t(`payout.states.${s}`)}</Tag> },
          { key: 'rowCount', dataIndex: 'rowCount', title: t('payout.rows'), width: 70, align: 'right' },
          { key: 'total', dataIndex: 'total', title: t('payout.amount'), width: 120, align: 'right', render: (v: number) => formatMoney(v) },
          { key: 'result', title: t('payout.result'), width: 110, render: (_: unknown, b) => `${b.okCount} / ${b.failedCount}` },
          { key: 'templateName', dataIndex: 'templateName', title: t('payout.template'), width: 170 },
          { key: 'exportTime', dataIndex: 'exportTime', title: t('payout.exportTime'), width: 160, render: (v: string | null) => formatDateTime(v) },
          {
            key: 'actions',
            title: t('actions'),
            fixed: 'right',
            width: 440,
            render: (_: unknown, b) => (
              <Space size={4} wrap>
                <Button size="small" onClick={() => setDetail(b.id)} data-testid={`payout-detail-${b.id}`}>
                  {t('payout.details')}
                </Button>
                {can(exportPayout) &&
                  (b.state === 'pending' ? (
                    <Popconfirm title={t('payout.exportConfirm')} onConfirm={() => download(b)} okText={t('ok')} cancelText={t('cancel')}>
                      <Button size="small" icon={<DownloadOutlined />} data-testid={`payout-export-${b.id}`}>
                        {t('payout.export')}
                      </Button>
                    </Popconfirm>
                  ) : (
                    <Button size="small" icon={<DownloadOutlined />} onClick={() => download(b)} data-testid={`payout-export-${b.id}`}>
                      {t('payout.export')}
                    </Button>
                  ))}
                {can(importPayoutReturn) && b.state !== 'pending' && (
                  <FilePickButton accept=".xls,.xlsx,.txt,.csv" onFile={(f) => upload(b, f)} size="small" testId={`payout-import-${b.id}`}>
                    {t('payout.importReturn')}
                  </FilePickButton>
                )}
                {can(repayPayout) && b.state === 'part_failed' && (
                  <Popconfirm title={t('payout.repayConfirm')} onConfirm={() => repay(b)} okText={t('ok')} cancelText={t('cancel')}>
                    <Button size="small" data-testid={`payout-repay-${b.id}`}>
                      {t('payout.repay')}
                    </Button>
                  </Popconfirm>
                )}
                {can(deletePayout) && b.state === 'pending' && (
                  <Popconfirm title={t('payout.deleteConfirm')} onConfirm={() => remove(b)} okText={t('ok')} cancelText={t('cancel')}>
                    <Button size="small" danger data-testid={`payout-delete-${b.id}`}>
                      {t('delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      {detail !== null && <BatchDetail batchId={detail} onClose={() => setDetail(null)} onChanged={() => list.refresh()} />}
      {imported && <ImportResultView result={imported} onClose={() => setImported(null)} />}
      <Modal
        open={override !== null}
        title={t('iit.overrideTitle')}
        okText={t('iit.overrideOk')}
        cancelText={t('cancel')}
        okButtonProps={{ danger: true, disabled: !override?.reason.trim(), 'data-testid': 'payout-override-ok' } as never}
        onOk={() => override && download(override.batch, override.reason.trim())}
        onCancel={() => setOverride(null)}
        destroyOnHidden
      >
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={override?.message} description={t('iit.overrideHint')} data-testid="payout-override-warning" />
        <Input.TextArea
          rows={3}
          maxLength={200}
          showCount
          placeholder={t('iit.overrideReason')}
          style={{ marginBottom: 16 }}
          value={override?.reason ?? ''}
          onChange={(e) => setOverride((o) => (o ? { ...o, reason: e.target.value } : o))}
          data-testid="payout-override-reason"
        />
      </Modal>
    </Card>
  );
}

