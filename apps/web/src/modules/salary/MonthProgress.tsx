import { listConfirmLog } from '@app/shared/contracts/salaryRecords';
import { type MonthSummary, salaryMonthSummary } from '@app/shared/contracts/salary';
import { useQuery } from '@tanstack/react-query';
import { Steps } from 'antd';
import { useTranslation } from 'react-i18next';
import { callContract } from '../../app/contractClient';

/**
 * Where a company's salary month stands (月度工资): its confirmation log (the lock) and its summary (the step
 * indicator and the question before a regenerate). The query keys are those the salary writes refresh
 * (crud/mutations.ts DEPENDENTS of accountsSalary).
 */

/** The confirmation log of a company's month, or null (not confirmed). */
export function useConfirmLog(companyId: number | null, month: string | null) {
  const q = useQuery({
    queryKey: ['accountsConfirmLog', companyId, month],
    queryFn: async () => {
      const res = await callContract(listConfirmLog, { query: { companyId: companyId ?? undefined, month: month ?? undefined, page: 0, size: 1 } });
      return res?.content?.[0] ?? null;
    },
    enabled: companyId !== null && !!month,
    staleTime: 0,
  });
  return { log: q.data ?? null, loading: q.isLoading, reload: () => q.refetch() };
}

/** The summary of a company's month, read once (the regenerate question asks it right before generating). */
export function readMonthSummary(companyId: number, month: string): Promise<MonthSummary> {
  return callContract(salaryMonthSummary, { query: { companyId, month } });
}

/** The summary of a company's month as a query (the step indicator, 确认's "every row calculated"). */
export function useMonthSummary(companyId: number | null, month: string) {
  return useQuery({
    queryKey: ['accountsSalarySummary', companyId, month],
    queryFn: () => readMonthSummary(companyId as number, month),
    enabled: companyId !== null && !!month,
    staleTime: 0,
  });
}

/** 已生成 -> 已计算 -> 已确认 with the month's counts (issue 10 item 12). */
export function MonthSteps({ summary }: { summary: MonthSummary | undefined }) {
  const { t } = useTranslation('salary');
  if (!summary) return null;
  const current = summary.confirmed ? 3 : summary.rows > 0 && summary.calculated === summary.rows ? 2 : summary.rows > 0 ? 1 : 0;
  return (
    <Steps
      size="small"
      className="salary-steps"
      data-testid="salary-steps"
      current={current}
      items={[
        { title: t('steps.generated'), description: t('steps.rows', { count: summary.rows }) },
        { title: t('steps.calculated'), description: t('steps.calculatedOf', { calculated: summary.calculated, rows: summary.rows }) },
        { title: t('steps.confirmed'), description: summary.confirmed ? t('locked') : t('unlocked') },
      ]}
    />
  );
}
