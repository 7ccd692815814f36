import type { ContractResult } from '@app/shared/contracts/contract';
import { homeSalaryMonth, SALARY_MONTH_STATES, type SalaryMonthState } from '@app/shared/contracts/home';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Row, Space, Statistic, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuth } from '../../app/auth';
import { callContract, contractCodes } from '../../app/contractClient';
import { useRowCount } from './rowCount';
import SettlementMonthLine from './SettlementMonthLine';

type MonthState = SalaryMonthState;
export type SalaryMonth = ContractResult<typeof homeSalaryMonth>;
type CompanyMonth = SalaryMonth['companies'][number];

export const SALARY_CODES = contractCodes(homeSalaryMonth);
const SALARY_PATH = '/salary/accountsSalary';
const STATES: readonly MonthState[] = SALARY_MONTH_STATES;
/** Colours by urgency: nothing yet (red) to done (green). */
const COLOR: Record<MonthState, string> = { notGenerated: 'error', generated: 'warning', calculated: 'processing', confirmed: 'success' };

/** GET /api/home/salaryMonth for the current month (China time, the server's default). */
export function useSalaryMonth(enabled: boolean) {
  return useQuery({ queryKey: ['home', 'salaryMonth'], queryFn: () => callContract(homeSalaryMonth, {}), enabled, refetchInterval: 60_000 });
}

/**
 * The first thing a clerk sees (U10): this month's salary state of every company they see, the companies with
 * the most left to do first; each company opens 月度工资 on that company and month.
 */
export default function SalaryMonthCard() {
  const { t } = useTranslation('home');
  const q = useSalaryMonth(true);
  const order = (s: MonthState) => STATES.indexOf(s);
  const companies = [...(q.data?.companies ?? [])].sort((a, b) => order(a.state) - order(b.state) || (a.companyName ?? '').localeCompare(b.companyName ?? '', 'zh'));
  const month = q.data?.month ?? '';
  return (
    <Card
      variant="borderless"
      title={t('monthTitle', { month })}
      data-testid="home-salary-month"
      extra={
        <Space size={4} wrap>
          {STATES.map((s) => (
            <Tag key={s} color={COLOR[s]} data-testid={`home-month-count-${s}`}>
              {t(`monthState.${s}`)} {q.data?.counts[s] ?? 0}
            </Tag>
          ))}
        </Space>
      }
    >
      <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
        {t('monthHint')}
      </Typography.Paragraph>
      {/* the month close after 确认: the month's 结算单 still to make, send or have confirmed, and what is unpaid */}
      {month ? <SettlementMonthLine month={month} /> : null}
      <Table<CompanyMonth>
        size="small"
        rowKey="companyId"
        loading={q.isLoading}
        dataSource={companies}
        pagination={companies.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
        locale={{ emptyText: <Empty description={t('monthEmpty')} /> }}
        columns={[
          {
            key: 'company',
            title: t('companyName'),
            render: (_v, r) => (
              <Link to={`${SALARY_PATH}?companyId=${r.companyId}&month=${month}`} title={t('monthOpen')} data-testid={`home-month-open-${r.companyId}`}>
                {r.companyName ?? r.companyId}
              </Link>
            ),
          },
          {
            key: 'state',
            title: t('monthStateTitle'),
            width: 120,
            render: (_v, r) => (
              <Tag color={COLOR[r.state]} data-testid={`home-month-state-${r.companyId}`}>
                {t(`monthState.${r.state}`)}
              </Tag>
            ),
          },
          {
            key: 'progress',
            title: t('calculated'),
            render: (_v, r) => (r.rows ? t('monthProgress', { calculated: r.calculated, rows: r.rows }) : ''),
          },
        ]}
      />
    </Card>
  );
}

/** 本月工资工作量: rows calculated and confirmed, files exported, in the one row-count unit (beside 模型统计). */
export function PayrollWorkCards() {
  const { t } = useTranslation('home');
  const { hasPermission } = useAuth();
  const rowCount = useRowCount();
  const q = useSalaryMonth(hasPermission(SALARY_CODES));
  if (!hasPermission(SALARY_CODES)) return null;
  const work = q.data?.work;
  return (
    <Card size="small" title={t('workTitle')} loading={q.isLoading} data-testid="home-payroll-work">
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Statistic title={t('workRowsCalculated')} value={rowCount(work?.rowsCalculated ?? 0)} data-testid="home-work-calculated" />
        </Col>
        <Col xs={24} md={8}>
          <Statistic title={t('workRowsConfirmed')} value={rowCount(work?.rowsConfirmed ?? 0)} data-testid="home-work-confirmed" />
        </Col>
        <Col xs={24} md={8}>
          <Statistic title={t('workFilesExported')} value={t('fileCount', { count: work?.filesExported ?? 0 })} data-testid="home-work-exported" />
        </Col>
      </Row>
    </Card>
  );
}
