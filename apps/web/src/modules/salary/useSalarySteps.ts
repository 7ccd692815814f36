import { type CompanyMonthInput, calculateSalary, confirmSalary, generateSalary, SALARY_CODES, unconfirmSalary } from '@app/shared/contracts/salary';
import { salaryResource } from '@app/shared/resources/salary';
import { useTranslation } from 'react-i18next';
import { callContract, contractCodes } from '../../app/contractClient';
import { feedback, notify } from '../../app/feedback';
import { useResourceMutation } from '../../crud';
import { readMonthSummary } from './MonthProgress';

export type SalaryStep = 'generate' | 'calculate' | 'confirm' | 'confirmAcknowledged';

/** Who may take which step of the month (the contracts' codes). */
export const SALARY_STEP_CODES = {
  generate: contractCodes(generateSalary),
  calculate: contractCodes(calculateSalary),
  confirm: contractCodes(confirmSalary),
  unconfirm: contractCodes(unconfirmSalary),
} as const;
export { SALARY_CODES };

/** What a step answers: its message, and for 计算 what it could not calculate or use. */
type StepAnswer = { message?: string; unrecordedMonths?: unknown[]; notCalculated?: number };

/**
 * The month's steps (生成 -> 计算 -> 确认, and 反确认) of one company's month. Every write refreshes the month's
 * rows, its summary and confirmation log, and the payslips (useResourceMutation: the dependents of
 * accountsSalary). `onStepDone` runs after a step succeeded (the page closes its editor and dialog).
 */
export function useSalarySteps(companyId: number | null, month: string, companyName: string | undefined, onStepDone: (which: SalaryStep) => void) {
  const { t } = useTranslation('salary');
  const step = useResourceMutation<StepAnswer, SalaryStep>(salaryResource, {
    mutationFn: (which) => {
      const body: CompanyMonthInput = { companyId: companyId as number, month, companyName };
      // the tick "我已核对以上 N 项" is sent along: the server refuses open items without it
      if (which === 'confirm' || which === 'confirmAcknowledged') return callContract(confirmSalary, { body: { ...body, acknowledgeWarnings: which === 'confirmAcknowledged' } });
      return which === 'generate' ? callContract(generateSalary, { body }) : callContract(calculateSalary, { body });
    },
    // a refused step may have done part of its work: show what the month holds now
    invalidateOnError: true,
    onSuccess: (res, which) => {
      // a calculation that left rows uncalculated or counted months without pay records says so: more than a green toast
      if (res?.unrecordedMonths?.length || res?.notCalculated) notify.warning(res.message || t(which === 'confirmAcknowledged' ? 'confirm' : which));
      else notify.success(res?.message || t(which === 'confirmAcknowledged' ? 'confirm' : which));
      onStepDone(which);
    },
  });

  const runStep = async (which: SalaryStep) => {
    if (companyId === null) {
      notify.warning(t('chooseCompanyFirst'));
      return;
    }
    // the request layer showed a refusal; the confirmation dialog waiting on this promise closes either way
    await step.mutateAsync(which).catch(() => undefined);
  };

  // Generating again merges (hand edits and hand-added rows stay) but refreshes every other row from the staff
  // records: say so, with the counts, before doing it.
  const generate = async () => {
    if (companyId === null) {
      notify.warning(t('chooseCompanyFirst'));
      return;
    }
    let summary: Awaited<ReturnType<typeof readMonthSummary>>;
    try {
      summary = await readMonthSummary(companyId, month);
    } catch {
      return;
    }
    if (summary.rows === 0) {
      await runStep('generate');
      return;
    }
    const kept = summary.editedRows + summary.manualRows > 0 ? t('regenerateKeeps', { edited: summary.editedRows, manual: summary.manualRows }) : '';
    feedback.modal.confirm({
      title: t('regenerateTitle'),
      content: `${t('regenerateConfirm', { rows: summary.rows, count: summary.rows })}${kept}`,
      okText: t('ok'),
      cancelText: t('cancel'),
      onOk: () => runStep('generate'),
    });
  };

  const unconfirm = useResourceMutation<{ message?: string }, string>(salaryResource, {
    mutationFn: (reason) => callContract(unconfirmSalary, { body: { companyId: companyId as number, month, reason } }),
    onSuccess: (res) => notify.success(res?.message || t('unconfirm.done')),
  });

  return { runStep, generate, running: step.isPending ? step.variables : null, unconfirm: (reason: string) => unconfirm.mutateAsync(reason) };
}
