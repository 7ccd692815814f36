import { type ContractDueRow, homeContractsDue, homeUnconfirmedSalaryMonths, type UnconfirmedMonthRow } from '@app/shared/contracts/home';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAuth } from '../../app/auth';
import { callContract, contractCodes } from '../../app/contractClient';

type ContractDue = ContractDueRow;
type UnconfirmedMonth = UnconfirmedMonthRow;

const STAFF_CODES = contractCodes(homeContractsDue);
const SALARY_CODES = contractCodes(homeUnconfirmedSalaryMonths);
const SALARY_PATH = '/salary/accountsSalary';
const PAGE_SIZE = 10;

/** Whether the caller sees anything in HomeActions (the dashboard shows its own empty state otherwise). */
export function useHomeActionsVisible(): boolean {
  const { hasPermission } = useAuth();
  return hasPermission(STAFF_CODES) || hasPermission(SALARY_CODES);
}

/**
 * What a clerk must act on, across every company they see (W4: not one chosen company): contracts ending
 * soon or already ended without renewal, and salary months generated but not confirmed. Each card shows
 * when the user holds its codes. Kept apart from the dashboard's statistics cards.
 */
export default function HomeActions() {
  const { hasPermission } = useAuth();
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="home-actions">
      {hasPermission(STAFF_CODES) && <ContractsDueCard />}
      {hasPermission(SALARY_CODES) && <UnconfirmedMonthsCard />}
    </Space>
  );
}

function DaysLeft({ days }: { days: number }) {
  const { t } = useTranslation('home');
  if (days < 0) return <Tag color="red">{t('expiredDays', { count: -days })}</Tag>;
  if (days === 0) return <Tag color="red">{t('dueToday')}</Tag>;
  return <Tag color={days <= 7 ? 'orange' : 'blue'}>{t('daysLeftValue', { count: days })}</Tag>;
}

function ContractsDueCard() {
  const { t } = useTranslation('home');
  const [companyId, setCompanyId] = useState<number | null>(null);
  const [page, setPage] = useState(0);
  const q = useQuery({
    queryKey: ['home', 'contractsDue', companyId, page],
    queryFn: () => callContract(homeContractsDue, { query: { companyId: companyId ?? undefined, page, size: PAGE_SIZE } }),
    placeholderData: (previous) => previous,
  });
  // the per-company counts stay those of all companies while one company is chosen
  const all = useQuery({ queryKey: ['home', 'contractsDue', null, 0], queryFn: () => callContract(homeContractsDue, { query: { page: 0, size: PAGE_SIZE } }) });
  const choose = (id: number | null) => {
    setCompanyId(id);
    setPage(0);
  };
  const columns: ColumnsType<ContractDue> = [
    { title: t('staffName'), dataIndex: 'staffName', width: 100, fixed: 'left' },
    { title: t('idCard'), dataIndex: 'idCard', width: 180 },
    { title: t('companyName'), dataIndex: 'companyName', width: 200, ellipsis: true },
    { title: t('phone'), dataIndex: 'phone', width: 130 },
    { title: t('contractType'), dataIndex: 'contractType', width: 120 },
    { title: t('contractWarn'), dataIndex: 'contractWarn', width: 110 },
    { title: t('contractEnd'), dataIndex: 'contractEnd', width: 110 },
    { title: t('daysLeft'), dataIndex: 'daysLeft', width: 140, render: (d: number) => <DaysLeft days={d} /> },
  ];
  const totals = all.data;
  return (
    <Card
      size="small"
      title={t('contractsTitle')}
      extra={
        <Space size={12}>
          <Typography.Text data-testid="dashboard-count">{t('dueCount', { count: totals?.totalElements ?? 0 })}</Typography.Text>
          {totals && totals.expired > 0 ? <Typography.Text type="danger">{t('expiredCount', { count: totals.expired })}</Typography.Text> : null}
        </Space>
      }
      data-testid="home-contracts"
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('contractsHint', { days: totals?.withinDays ?? 30 })}
      </Typography.Paragraph>
      {totals && totals.byCompany.length > 0 && (
        <Space wrap size={[4, 8]} style={{ marginBottom: 8 }} data-testid="home-contracts-companies">
          <Tag.CheckableTag checked={companyId === null} onChange={() => choose(null)}>
            {t('allCompanies')} ({totals.totalElements})
          </Tag.CheckableTag>
          {totals.byCompany.map((c) => (
            <Tag.CheckableTag key={c.companyId} checked={companyId === c.companyId} onChange={() => choose(c.companyId)}>
              {c.companyName ?? c.companyId} ({c.count})
            </Tag.CheckableTag>
          ))}
        </Space>
      )}
      <Table<ContractDue>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={q.data?.content ?? []}
        loading={q.isFetching}
        scroll={{ x: 1000 }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('emptyContracts')} /> }}
        pagination={homePager(page, q.data?.totalElements ?? 0, setPage, t)}
        data-testid="home-contracts-table"
      />
    </Card>
  );
}

/** The pager of both home lists: fixed page size, hidden on a single page, 0-based page state. */
function homePager(page: number, total: number, setPage: (page: number) => void, t: (key: string, opts?: Record<string, unknown>) => string) {
  return {
    current: page + 1,
    pageSize: PAGE_SIZE,
    total,
    showSizeChanger: false,
    hideOnSinglePage: true,
    showTotal: (count: number) => t('total', { count }),
    onChange: (p: number) => setPage(p - 1),
  };
}

function UnconfirmedMonthsCard() {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const [page, setPage] = useState(0);
  const q = useQuery({
    queryKey: ['home', 'unconfirmedSalaryMonths', page],
    queryFn: () => callContract(homeUnconfirmedSalaryMonths, { query: { page, size: PAGE_SIZE } }),
    placeholderData: (previous) => previous,
  });
  const columns: ColumnsType<UnconfirmedMonth> = [
    { title: t('companyName'), dataIndex: 'companyName', width: 220, ellipsis: true },
    { title: t('month'), dataIndex: 'month', width: 100 },
    { title: t('rows'), dataIndex: 'rows', width: 90, align: 'right' },
    { title: t('calculated'), dataIndex: 'calculated', width: 90, align: 'right' },
    {
      title: t('nextStep'),
      dataIndex: 'nextStep',
      width: 180,
      render: (step: UnconfirmedMonth['nextStep']) => (
        <Space size={4}>
          <Tag color={step === 'calculate' ? 'orange' : 'blue'}>{t(step)}</Tag>
          <Button size="small" type="link" onClick={() => navigate(SALARY_PATH)}>
            {t('openSalary')}
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <Card size="small" title={t('monthsTitle')} data-testid="home-months">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('monthsHint')}
      </Typography.Paragraph>
      <Table<UnconfirmedMonth>
        rowKey={(r) => `${r.companyId}/${r.month}`}
        size="small"
        columns={columns}
        dataSource={q.data?.content ?? []}
        loading={q.isFetching}
        scroll={{ x: 680 }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('emptyMonths')} /> }}
        pagination={homePager(page, q.data?.totalElements ?? 0, setPage, t)}
        data-testid="home-months-table"
      />
    </Card>
  );
}
