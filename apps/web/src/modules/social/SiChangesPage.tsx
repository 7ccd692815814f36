import { DownloadOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import { Button, Card, DatePicker, Select, Space, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exportSiChanges, listSiChangeTemplates, previewSiChanges, type SiChangeRow } from '@app/shared/contracts/siChanges';
import { SI_CHANGE_KINDS, type SiChangeKind } from '@app/shared/socialInsurance/siChangeLayout';
import { useAuth } from '../../app/auth';
import { contractCodes, downloadContract, useContractQuery } from '../../app/contractClient';
import { dictLabel, useDicts } from '../../app/dict';
import { useIsMobile } from '../../app/useIsMobile';
import { formatMoney } from '../../crud/format';
import { SearchItem, SearchRow } from '../../crud/SearchBar';
import '../../crud/crud.css';
import { CompanySelect, useChosenCompany, useCompanies } from '../accounts/companies';

/**
 * 社保管理 › 增减员 (issue 24 item 3): a company's month as the bureau's or the fund centre's lists, 增员 / 减员 /
 * 基数变更 in tabs with their counts, paged rows, and the file in the chosen 社保模板's layout. The lists are derived
 * on the server from the staff records and the salary months; nothing here is stored.
 */
const DICTS = ['census_type'] as const;

export default function SiChangesPage() {
  const { t } = useTranslation('social');
  const { hasPermission } = useAuth();
  const { companies, loading, loaded } = useCompanies();
  const { companyId, setCompanyId } = useChosenCompany(companies, loaded);
  const [month, setMonth] = useState(() => dayjs().format('YYYY-MM'));
  const [templateId, setTemplateId] = useState<number | null>(null);
  const [kind, setKind] = useState<SiChangeKind>('add');
  const [page, setPage] = useState({ page: 0, size: 10 });
  const [downloading, setDownloading] = useState(false);
  const dicts = useDicts(DICTS);
  const mobile = useIsMobile();

  const templates = useContractQuery(listSiChangeTemplates, {});
  const choices = templates.data?.content ?? [];
  const template = choices.find((c) => c.id === templateId) ?? choices[0] ?? null;
  const ready = companyId !== null && template !== null;
  const query = { companyId: companyId ?? 0, month, templateId: template?.id ?? 0, kind, page: page.page, size: page.size };
  const preview = useContractQuery(previewSiChanges, { query }, { enabled: ready });
  const counts = preview.data?.counts;
  const kindLabel = (k: SiChangeKind) => t(`siChanges.kinds.${k}`);
  const hasColumns = template?.kinds.includes(kind) ?? false;

  const reset = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage((p) => ({ ...p, page: 0 }));
  };

  const download = async () => {
    if (!ready || !template) return;
    setDownloading(true);
    try {
      await downloadContract(exportSiChanges, { query: { companyId: companyId, month, templateId: template.id, kind } });
    } catch {
      /* the request layer showed the message */
    } finally {
      setDownloading(false);
    }
  };

  // beside the tabs on a wide screen; above the table on a phone, so the three tabs keep their room
  const downloadButton = hasPermission(contractCodes(exportSiChanges)) ? (
    <Tooltip title={ready && !hasColumns ? t('siChanges.noColumns', { kind: kindLabel(kind) }) : undefined}>
      <Button type="primary" icon={<DownloadOutlined />} loading={downloading} disabled={!ready || !hasColumns} onClick={download} data-testid="si-changes-download">
        {t('siChanges.download', { kind: kindLabel(kind) })}
      </Button>
    </Tooltip>
  ) : null;

  const columns = [
    { key: 'seq', title: t('siChanges.seq'), width: 60, render: (_: unknown, __: SiChangeRow, i: number) => page.page * page.size + i + 1 },
    { key: 'staffName', dataIndex: 'staffName', title: t('siChanges.staffName'), width: 100 },
    { key: 'idCard', dataIndex: 'idCard', title: t('siChanges.idCard'), width: 180 },
    { key: 'censusType', dataIndex: 'censusType', title: t('siChanges.censusType'), width: 110, render: (v: string | null) => dictLabel(dicts.census_type, v) },
    { key: 'phone', dataIndex: 'phone', title: t('siChanges.phone'), width: 120 },
    { key: 'startMonth', dataIndex: 'startMonth', title: t(`siChanges.startMonth.${kind}`), width: 100 },
    { key: 'reason', dataIndex: 'reason', title: t('siChanges.reason'), width: 100, render: (v: string) => t(`siChanges.reasons.${v}`, { defaultValue: v }) },
    ...(kind === 'add' ? [] : [{ key: 'oldBase', dataIndex: 'oldBase', title: t('siChanges.oldBase'), width: 120, align: 'right' as const, render: (v: number | null) => (v === null ? '' : formatMoney(v)) }]),
    ...(kind === 'remove' ? [] : [{ key: 'newBase', dataIndex: 'newBase', title: kind === 'add' ? t('siChanges.addBase') : t('siChanges.newBase'), width: 120, align: 'right' as const, render: (v: number | null) => (v === null ? '' : formatMoney(v)) }]),
  ];

  return (
    <Card className="crud-page" variant="borderless" data-testid="si-changes-page">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        <UsergroupAddOutlined /> {t('siChanges.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('siChanges.hint')}</Typography.Paragraph>
      <SearchRow testId="si-changes-filters">
        <SearchItem label={t('siChanges.company')}>
          <CompanySelect value={companyId} onChange={reset(setCompanyId)} companies={companies} loading={loading} testId="si-changes-company" style={{ width: 240 }} />
        </SearchItem>
        <SearchItem label={t('siChanges.month')}>
          <DatePicker picker="month" format="YYYY-MM" allowClear={false} value={dayjs(`${month}-01`)} onChange={(d) => d && reset(setMonth)(d.format('YYYY-MM'))} data-testid="si-changes-month" />
        </SearchItem>
        <SearchItem label={t('siChanges.template')}>
          <Select
            style={{ width: 260 }}
            data-testid="si-changes-template"
            loading={templates.isLoading}
            value={template?.id}
            onChange={reset(setTemplateId)}
            placeholder={t('siChanges.chooseTemplate')}
            options={choices.map((c) => ({ value: c.id, label: c.templateName }))}
            optionRender={(o) => {
              const c = choices.find((x) => x.id === o.value);
              return (
                <Space size={4}>
                  {c && <Tag color={c.target === 'si' ? 'blue' : 'green'}>{t(`siChanges.targets.${c.target}`)}</Tag>}
                  {o.label}
                </Space>
              );
            }}
          />
        </SearchItem>
      </SearchRow>

      <Tabs
        activeKey={kind}
        onChange={(k) => reset(setKind)(k as SiChangeKind)}
        data-testid="si-changes-tabs"
        items={SI_CHANGE_KINDS.map((k) => ({ key: k, label: <span data-testid={`si-changes-tab-${k}`}>{`${kindLabel(k)} (${counts?.[k] ?? 0})`}</span> }))}
        tabBarExtraContent={mobile ? undefined : downloadButton}
      />
      {mobile && downloadButton && <div style={{ marginBottom: 12 }}>{downloadButton}</div>}
      <Table<SiChangeRow>
        size="small"
        rowKey="staffId"
        data-testid="si-changes-rows"
        loading={preview.isFetching}
        dataSource={ready ? (preview.data?.content ?? []) : []}
        columns={columns}
        scroll={{ x: 900 }}
        locale={{ emptyText: ready ? t('siChanges.empty', { kind: kindLabel(kind) }) : t('siChanges.chooseCompany') }}
        pagination={{
          current: page.page + 1,
          pageSize: page.size,
          total: preview.data?.totalElements ?? 0,
          showSizeChanger: true,
          showTotal: (n) => t('siChanges.total', { count: n }),
          onChange: (p, size) => setPage({ page: size === page.size ? p - 1 : 0, size }),
        }}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t('siChanges.manageTemplates')}
      </Typography.Paragraph>
    </Card>
  );
}
