import { AuditOutlined, } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Input, Modal, Select, Space, Table, Tabs, Tag, Typography, } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { acceptSiReconLines, importSiRecon, listSiReconLines, listSiRecons, type ReconLine, type ReconSummary, SI_RECON_KINDS, type SiReconKind } from '@app/shared/contracts/siAdjust';
import { useAuth } from '../../app/auth';
import { callContract, contractCodes, contractKey, uploadContract, useContractQuery } from '../../app/contractClient';
import { notify } from '../../app/feedback';
import { useIsMobile } from '../../app/useIsMobile';
import { formatDateTime, formatMoney } from '../../crud/format';
import { SearchItem, SearchRow } from '../../crud/SearchBar';
import '../../crud/crud.css';
import { CompanySelect, useChosenCompany, useCompanies } from '../accounts/companies';
import { FilePickButton } from '../../crud/FilePickButton';

/**
 * 社保管理 › 社保平账 (issue 24 item 4): the bureau's 应缴明细 of a confirmed month is uploaded and compared with our
 * figures (rows plus 补差 already placed for the month); differences and people on one side only are listed in tabs,
 * paged. Ticking open differences and giving a reason turns them into 补差 items of the next open month.
 */
export default function SiReconPage() {
  const { t } = useTranslation('social');
  const { hasPermission } = useAuth();
  const mobile = useIsMobile();
  const qc = useQueryClient();
  const { companies, loading, loaded } = useCompanies();
  const { companyId, setCompanyId } = useChosenCompany(companies, loaded);
  const [month, setMonth] = useState(() => dayjs().subtract(1, 'month').format('YYYY-MM'));
  const [reconId, setReconId] = useState<number | null>(null);
  const [kind, setKind] = useState<SiReconKind>('diff');
  const [page, setPage] = useState({ page: 0, size: 10 });
  const [selected, setSelected] = useState<number[]>([]);
  const [accepting, setAccepting] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const canImport = hasPermission(contractCodes(importSiRecon));
  const canAccept = hasPermission(contractCodes(acceptSiReconLines));

  const recons = useContractQuery(listSiRecons, { query: { companyId: companyId ?? undefined, month, size: 50 } }, { enabled: companyId !== null });
  const choices = recons.data?.content ?? [];
  const recon: ReconSummary | null = choices.find((r) => r.id === reconId) ?? choices[0] ?? null;
  const lines = useContractQuery(listSiReconLines, { params: { id: recon?.id ?? 0 }, query: { kind, page: page.page, size: page.size } }, { enabled: recon !== null });
  const rows = lines.data?.content ?? [];

  const reset = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setReconId(null);
    setSelected([]);
    setPage((p) => ({ ...p, page: 0 }));
  };
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: contractKey(listSiRecons) });
    await qc.invalidateQueries({ queryKey: contractKey(listSiReconLines) });
  };

  const upload = async (file: File) => {
    if (companyId === null) return notify.warning(t('siRecon.chooseCompany'));
    const form = new FormData();
    form.append('companyId', String(companyId));
    form.append('month', month);
    form.append('file', file);
    setBusy(true);
    try {
      const r = await uploadContract(importSiRecon, form);
      notify.success(t('siRecon.imported', { matched: r.matched, diff: r.diff + r.bureauOnly + r.oursOnly }));
      setReconId(r.id);
      setSelected([]);
      setPage((p) => ({ ...p, page: 0 }));
      await refresh();
    } catch {
      /* the request layer showed the message */
    } finally {
      setBusy(false);
    }
  };

  const chosen = rows.filter((r) => selected.includes(r.id));
  const sum = (side: 'diffSelf' | 'diffCompany') => chosen.reduce((a, r) => a + Math.round(r[side] * 100), 0) / 100;
  const accept = async () => {
    if (!recon) return;
    setBusy(true);
    try {
      const r = await callContract(acceptSiReconLines, { params: { id: recon.id }, body: { lineIds: selected, reason } });
      notify.success(t('siRecon.accepted', { count: r.accepted, target: r.targetMonth }));
      setAccepting(false);
      setSelected([]);
      setReason('');
      await refresh();
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  };

  const money = (v: number | null) => (v === null ? '—' : formatMoney(v));
  const diffCell = (v: number) => <Typography.Text type={v === 0 ? 'secondary' : v > 0 ? 'danger' : 'success'}>{formatMoney(v)}</Typography.Text>;
  const count = (k: SiReconKind) => recon?.[k] ?? 0;

  return (
    <Card className="crud-page" variant="borderless" data-testid="si-recon-page">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        <AuditOutlined /> {t('siRecon.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('siRecon.hint')}</Typography.Paragraph>
      <SearchRow testId="si-recon-filters">
        <SearchItem label={t('siRecon.company')}>
          <CompanySelect value={companyId} onChange={reset(setCompanyId)} companies={companies} loading={loading} testId="si-recon-company" style={{ width: 240 }} />
        </SearchItem>
        <SearchItem label={t('siRecon.month')}>
          <DatePicker picker="month" format="YYYY-MM" allowClear={false} value={dayjs(`${month}-01`)} onChange={(d) => d && reset(setMonth)(d.format('YYYY-MM'))} data-testid="si-recon-month" />
        </SearchItem>
        {choices.length > 1 && (
          <SearchItem label={t('siRecon.import')}>
            <Select
              style={{ width: 240 }}
              value={recon?.id}
              onChange={(v) => {
                setReconId(v);
                setSelected([]);
              }}
              options={choices.map((c) => ({ value: c.id, label: `${formatDateTime(c.createTime)} ${c.fileName ?? ''}` }))}
            />
          </SearchItem>
        )}
        {canImport && (
          <FilePickButton accept=".xlsx,.xls" onFile={upload} type="primary" loading={busy} disabled={companyId === null} testId="si-recon-upload">
            {t('siRecon.upload')}
          </FilePickButton>
        )}
      </SearchRow>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('siRecon.columnsHint')}
      </Typography.Paragraph>

      {recon ? (
        <Alert
          type={recon.diff + recon.bureauOnly + recon.oursOnly - recon.accepted > 0 ? 'warning' : 'success'}
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="si-recon-summary"
          title={t('siRecon.summary', { file: recon.fileName ?? '', rows: recon.fileRows, matched: recon.matched, diff: recon.diff, bureauOnly: recon.bureauOnly, oursOnly: recon.oursOnly, accepted: recon.accepted })}
          description={t('siRecon.by', { who: recon.createBy ?? '', time: formatDateTime(recon.createTime) })}
        />
      ) : (
        <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('siRecon.noImport')} />
      )}

      <Tabs
        activeKey={kind}
        onChange={(k) => {
          setKind(k as SiReconKind);
          setSelected([]);
          setPage((p) => ({ ...p, page: 0 }));
        }}
        data-testid="si-recon-tabs"
        items={SI_RECON_KINDS.map((k) => ({ key: k, label: <span data-testid={`si-recon-tab-${k}`}>{`${t(`siRecon.kinds.${k}`)} (${count(k)})`}</span> }))}
        tabBarExtraContent={
          mobile || !canAccept ? undefined : (
            <Button type="primary" disabled={!selected.length} onClick={() => setAccepting(true)} data-testid="si-recon-accept">
              {t('siRecon.acceptButton', { count: selected.length })}
            </Button>
          )
        }
      />
      {mobile && canAccept && (
        <Button type="primary" block style={{ marginBottom: 12 }} disabled={!selected.length} onClick={() => setAccepting(true)} data-testid="si-recon-accept">
          {t('siRecon.acceptButton', { count: selected.length })}
        </Button>
      )}
      <Table<ReconLine>
        size="small"
        rowKey="id"
        data-testid="si-recon-lines"
        loading={lines.isFetching}
        dataSource={recon ? rows : []}
        scroll={{ x: 1000 }}
        rowSelection={canAccept ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)), getCheckboxProps: (r) => ({ disabled: r.state !== 'open' }) } : undefined}
        locale={{ emptyText: recon ? t('siRecon.empty') : t('siRecon.noImport') }}
        pagination={{
          current: page.page + 1,
          pageSize: page.size,
          total: lines.data?.totalElements ?? 0,
          showSizeChanger: true,
          simple: mobile,
          showTotal: (n) => t('siRecon.total', { count: n }),
          onChange: (p, size) => setPage({ page: size === page.size ? p - 1 : 0, size }),
        }}
        columns={[
          { key: 'staffName', dataIndex: 'staffName', title: t('siRecon.staffName'), width: 90, fixed: mobile ? undefined : 'left' },
          { key: 'idCard', dataIndex: 'idCard', title: t('siRecon.idCard'), width: 170 },
          { key: 'insurance', dataIndex: 'insurance', title: t('siRecon.insurance'), width: 90, render: (v: string) => t(`siAdjust.insurance.${v}`) },
          { key: 'bureau', title: t('siRecon.bureau'), width: 150, align: 'right', render: (_: unknown, r) => `${money(r.bureauSelf)} / ${money(r.bureauCompany)}` },
          { key: 'ours', title: t('siRecon.ours'), width: 150, align: 'right', render: (_: unknown, r) => `${money(r.ourSelf)} / ${money(r.ourCompany)}` },
          { key: 'diffSelf', dataIndex: 'diffSelf', title: t('siRecon.diffSelf'), width: 100, align: 'right', render: diffCell },
          { key: 'diffCompany', dataIndex: 'diffCompany', title: t('siRecon.diffCompany'), width: 100, align: 'right', render: diffCell },
          {
            key: 'state',
            title: t('siRecon.state'),
            width: 160,
            render: (_: unknown, r) =>
              r.state === 'accepted' ? (
                <Space size={4} wrap>
                  <Tag color="green">{t('siRecon.states.accepted')}</Tag>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('siRecon.into', { target: r.targetMonth ?? '' })} {r.reason}
                  </Typography.Text>
                </Space>
              ) : (
                <Tag>{t('siRecon.states.open')}</Tag>
              ),
          },
        ]}
      />

      <Modal
        open={accepting}
        title={t('siRecon.confirmTitle')}
        okText={t('siRecon.confirmOk')}
        okButtonProps={{ loading: busy, disabled: reason.trim().length < 2, 'data-testid': 'si-recon-confirm-ok' } as never}
        onOk={accept}
        onCancel={() => setAccepting(false)}
      >
        <p data-testid="si-recon-confirm-text">{t('siRecon.confirmText', { count: selected.length, self: formatMoney(sum('diffSelf')), company: formatMoney(sum('diffCompany')) })}</p>
        <Input.TextArea rows={3} maxLength={200} showCount value={reason} onChange={(e) => setReason(e.target.value)} placeholder={t('siRecon.reasonPlaceholder')} data-testid="si-recon-reason" />
      </Modal>
    </Card>
  );
}
