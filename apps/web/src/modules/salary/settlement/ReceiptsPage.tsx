import { DatePicker, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listSettlementReceipts, type ReceiptRow } from '@app/shared/contracts/settlement';
import { SearchButtons, SearchItem, SearchRow } from '../../../crud/SearchBar';
import { formatMoney } from '../../../crud/format';
import { usePagedList } from '../../../crud/usePagedList';
import '../../../crud/crud.css';
import { CompanySelect, useCompanies } from '../../accounts/companies';
import { callContract } from './contracts';
import { SettlementDrawer } from './SettlementDrawer';

/** 薪资管理 › 回款登记 (issue 22 item 5): every receipt recorded, by company and month; a receipt is recorded on its statement. */
interface Filters extends Record<string, unknown> {
  companyId: number | null;
  month: string | null;
}

export default function ReceiptsPage() {
  const { t } = useTranslation('settlement');
  const { companies, loading } = useCompanies();
  const [draft, setDraft] = useState<Filters>({ companyId: null, month: null });
  const [open, setOpen] = useState<number | null>(null);
  const list = usePagedList<ReceiptRow, Filters>({
    key: ['settlement', 'receipts'],
    filters: { companyId: null, month: null },
    load: (f, page, size) => callContract(listSettlementReceipts, { query: { page, size, ...(f.companyId ? { companyId: f.companyId } : {}), ...(f.month ? { month: f.month } : {}) } }),
    showTotal: (n) => t('total', { count: n }),
  });
  return (
    <div className="crud-page" data-testid="receipts-page">
      <SearchRow>
        <SearchItem label={t('company')}>
          <CompanySelect companies={companies} loading={loading} value={draft.companyId} onChange={(v) => setDraft({ ...draft, companyId: v })} />
        </SearchItem>
        <SearchItem label={t('month')}>
          <DatePicker picker="month" value={draft.month ? dayjs(draft.month) : null} onChange={(d: Dayjs | null) => setDraft({ ...draft, month: d ? d.format('YYYY-MM') : null })} />
        </SearchItem>
        <SearchButtons
          onSearch={() => list.filter(draft)}
          onReset={() => {
            setDraft({ companyId: null, month: null });
            list.filter({ companyId: null, month: null });
          }}
        />
      </SearchRow>
      <Typography.Paragraph type="secondary">{t('receiptsHint')}</Typography.Paragraph>
      <Table<ReceiptRow>
        {...list.tableProps}
        size="small"
        data-testid="receipts-table"
        columns={[
          { key: 'companyName', dataIndex: 'companyName', title: t('company'), width: 220 },
          { key: 'month', dataIndex: 'month', title: t('month'), width: 90 },
          { key: 'date', dataIndex: 'date', title: t('receiptDate'), width: 110 },
          { key: 'amount', dataIndex: 'amount', title: t('amount'), align: 'right', render: formatMoney },
          { key: 'note', dataIndex: 'note', title: t('note') },
          { key: 'username', dataIndex: 'username', title: t('by'), width: 120 },
          { key: 'open', title: t('actions'), width: 100, render: (_, r) => <a onClick={() => setOpen(r.settlementId)}>{t('statement')}</a> },
        ]}
      />
      <SettlementDrawer id={open} onClose={() => setOpen(null)} onChanged={() => list.refresh()} />
    </div>
  );
}
