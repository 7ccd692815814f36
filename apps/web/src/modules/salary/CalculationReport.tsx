import { WarningOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Checkbox, Modal, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { salaryCalculationReport } from '@app/shared/contracts/salary';
import type { CalculationReportItem } from '@app/shared/payroll/calculationReport';
import { callContract } from '../../app/contractClient';
import type { Row } from '../../crud';

/**
 * What 计算 could not use (findings U1, U2): tax inputs and overtime rows no salary row reads, and persons with
 * months employed but no salary recorded, and rows 计算 left uncalculated (a missing base...). The report (contracts/salary.ts salaryCalculationReport) recomputes the list on every read, so
 * the alert above the table stays (a reload too) until the inputs are fixed and the month calculated again, or
 * the month is confirmed; the rows concerned carry a tag, and 确认 needs an explicit tick while it is open.
 */

export type { ReportItemKind } from '@app/shared/payroll/calculationReport';
/** One open item of the report, as the server declares it (packages/shared/src/payroll/calculationReport.ts). */
export type ReportItem = CalculationReportItem;

export const reportQueryKey = (companyId: number | null, month: string) => ['accountsSalaryReport', companyId, month] as const;

/** The open items of a company's month (empty before the first 计算 and once confirmed). */
export function useCalculationReport(companyId: number | null, month: string) {
  const q = useQuery({
    queryKey: reportQueryKey(companyId, month),
    queryFn: async (): Promise<ReportItem[]> => (await callContract(salaryCalculationReport, { query: { companyId: companyId as number, month } }))?.items ?? [],
    enabled: companyId !== null && !!month,
    staleTime: 0,
  });
  return q.data ?? [];
}

const personKey = (idCard: unknown) => String(idCard ?? '').trim().toUpperCase();

/** The items about one salary row's person. */
export function itemsOfRow(items: readonly ReportItem[], row: Row): ReportItem[] {
  const key = personKey(row.idCard);
  return items.filter((i) => personKey(i.idCard) === key);
}

function ItemLine({ item }: { item: ReportItem }) {
  const { t } = useTranslation('salary');
  const who = item.staffName ? `${item.staffName}（${item.idCard || '-'}）` : item.idCard || '-';
  return (
    <li data-testid="salary-open-item" data-kind={item.kind}>
      <Tag color={item.kind === 'unrecordedMonths' ? 'orange' : 'red'}>{t(`openItems.kind.${item.kind}`)}</Tag>
      <Typography.Text strong>{who}</Typography.Text>
      <Typography.Text type="secondary">
        {' '}
        {item.kind === 'unrecordedMonths' ? t('openItems.monthsCount', { count: item.months ?? 0 }) : t('openItems.forMonth', { month: item.month })}
        {item.savedUnder && item.kind !== 'unrecordedMonths' ? ` · ${t('openItems.savedUnder', { name: item.savedUnder })}` : ''}
      </Typography.Text>
      <div className="salary-open-reason">{item.reason}</div>
    </li>
  );
}

/** The list of items, scrolling when long. */
export function OpenItemList({ items }: { items: readonly ReportItem[] }) {
  return (
    <ul className="salary-open-items">
      {items.map((i) => (
        <ItemLine key={`${i.kind}|${i.idCard}|${i.month}|${i.savedUnder ?? ''}`} item={i} />
      ))}
    </ul>
  );
}

/** The lasting warning above the salary table. */
export function OpenItemsAlert({ items }: { items: readonly ReportItem[] }) {
  const { t } = useTranslation('salary');
  if (!items.length) return null;
  return (
    <Alert
      className="salary-open-alert"
      type="warning"
      showIcon
      data-testid="salary-open-alert"
      title={t('openItems.title', { count: items.length })}
      description={
        <>
          <Typography.Paragraph className="salary-open-hint">{t('openItems.hint')}</Typography.Paragraph>
          <OpenItemList items={items} />
        </>
      }
    />
  );
}

/** The tag beside a worker's name when an item concerns them. */
export function OpenItemTag({ items }: { items: readonly ReportItem[] }) {
  const { t } = useTranslation('salary');
  if (!items.length) return null;
  return (
    <Tag color="warning" icon={<WarningOutlined />} className="salary-open-tag" data-testid="salary-row-open-tag" title={items.map((i) => i.reason).join('\n')}>
      {t('openItems.rowTag')}
    </Tag>
  );
}

/** The items of one row inside its expanded details. */
export function RowOpenItems({ items }: { items: readonly ReportItem[] }) {
  const { t } = useTranslation('salary');
  if (!items.length) return null;
  return <Alert type="warning" showIcon className="salary-row-open-items" data-testid="salary-row-open-items" title={t('openItems.rowTitle', { count: items.length })} description={<OpenItemList items={items} />} />;
}

/**
 * 确认's dialog: the plain question without open items; with them, the list, the count and a tick that must be
 * set before 确定 is enabled (the server refuses without it too).
 */
export function ConfirmSalaryDialog(props: { open: boolean; month: string; items: readonly ReportItem[]; busy: boolean; onCancel: () => void; onConfirm: (acknowledged: boolean) => void }) {
  const { t } = useTranslation('salary');
  const [ticked, setTicked] = useState(false);
  const open = props.items.length > 0;
  return (
    <Modal
      open={props.open}
      title={open ? t('openItems.confirmTitle', { month: props.month }) : t('confirmTitle')}
      okText={t('ok')}
      cancelText={t('cancel')}
      onCancel={props.onCancel}
      afterOpenChange={(visible) => {
        if (!visible) setTicked(false);
      }}
      onOk={() => props.onConfirm(open && ticked)}
      okButtonProps={{ disabled: open && !ticked, loading: props.busy, 'data-testid': 'salary-confirm-ok' } as never}
      width={open ? 720 : 420}
      destroyOnHidden
    >
      {open ? (
        <Space orientation="vertical" style={{ width: '100%' }} data-testid="salary-confirm-dialog">
          <Alert type="warning" showIcon title={t('openItems.confirmWarning', { count: props.items.length })} />
          <div className="salary-open-scroll">
            <OpenItemList items={props.items} />
          </div>
          <Checkbox checked={ticked} onChange={(e) => setTicked(e.target.checked)} data-testid="salary-confirm-ack">
            {t('openItems.acknowledge', { count: props.items.length })}
          </Checkbox>
        </Space>
      ) : (
        <div data-testid="salary-confirm-dialog">{t('confirmSalary')}</div>
      )}
    </Modal>
  );
}
