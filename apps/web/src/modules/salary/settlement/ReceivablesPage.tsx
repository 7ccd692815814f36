import { Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listReceivables, type ReceivableRow } from '@app/shared/contracts/settlement';
import { SearchButtons, SearchItem, SearchRow } from '../../../crud/SearchBar';
import { formatMoney } from '../../../crud/format';
import { usePagedList } from '../../../crud/usePagedList';
import '../../../crud/crud.css';
import { CompanySelect, useCompanies } from '../../accounts/companies';
import { callContract } from './contracts';
import { StateTag } from './StateTag';

/**
 * 薪资管理 › 应收台账 (issue 22 item 5): per client company and month 应收, 实收, 本月欠 (+) / 挂 (−) and 累计欠款 — what the
 * next statement brings forward.
 */
interface Filters extends Record<string, unknown> {
  companyId: number | null;
}

export default function ReceivablesPage() {
  const { t } = useTranslation('settlement');
  const { companies, loading } = useCompanies();
  const [draft, setDraft] = useState<Filters>({ companyId: null });
  const list = usePagedList<ReceivableRow, Filters>({
    key: ['settlement', 'receivables'],
    filters: { companyId: null },
    load: (f, page, size) => callContract(listReceivables, { query: { page, size, ...(f.companyId ? { companyId: f.companyId } : {}) } }),
    showTotal: (n) => t('total', { count: n }),
  });
  const signed = (v: number) => <Typography.Text type={v > 0 ? 'danger' : v < 0 ? 'success' : undefined}>{formatMoney(v)}</Typography.Text>;
  return (
    <div className="crud-page" data-testid="receivables-page">
      <SearchRow>
        <SearchItem label={t('company')}>
          <CompanySelect companies={companies} loading={loading} value={draft.companyId} onChange={(v) => setDraft({ companyId: v })} testId="receivables-company" />
        </SearchItem>
        <SearchButtons
          onSearch={() => list.filter(draft)}
          onReset={() => {
            setDraft({ companyId: null });
            list.filter({ companyId: null });
          }}
        />
      </SearchRow>
      <Typography.Paragraph type="secondary">{t('ledgerHint')}</Typography.Paragraph>
      <Table<ReceivableRow>
        {...list.tableProps}
        rowKey="settlementId"
        size="small"
        data-testid="receivables-table"
        columns={[
          { key: 'companyName', dataIndex: 'companyName', title: t('company'), width: 220 },
          { key: 'month', dataIndex: 'month', title: t('month'), width: 90 },
          { key: 'state', title: t('stateLabel'), width: 120, render: (_, r) => <StateTag state={r.state} /> },
          { key: 'due', dataIndex: 'due', title: t('ledger.due'), align: 'right', render: formatMoney },
          { key: 'received', dataIndex: 'received', title: t('ledger.received'), align: 'right', render: formatMoney },
          { key: 'balance', dataIndex: 'balance', title: t('ledger.balance'), align: 'right', render: signed },
          { key: 'cumulative', dataIndex: 'cumulative', title: t('ledger.cumulative'), align: 'right', render: signed },
        ]}
      />
    </div>
  );
}
