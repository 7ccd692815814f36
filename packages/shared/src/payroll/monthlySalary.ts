import { PayrollInputError } from './errors.ts';
import { type ConfirmedMonth, calculateCumulativeWithholding } from './incomeTax.ts';
import type { Fen } from './money.ts';
import { type ContributionBases, calculatePersonalContributions, type PayrollRates } from './socialInsurance.ts';
import { assertFen, optionalFen } from './validate.ts';

/** Everything needed to calculate one staff member's salary row for one month; money in fen. */
export interface MonthlySalaryInput {
  /** Base salary (基本工资). */
  readonly salary: Fen;
  /** Overtime pay (加班). */
  readonly jiaban?: Fen;
  /** Pre-tax attendance deduction (考勤扣款). */
  readonly koukuan?: Fen;
  readonly bases: ContributionBases;
  readonly rates: PayrollRates;
  /** Special additional deductions (专项附加扣除) declared for this month. */
  readonly deduct?: Fen;
  /** Other deductions (其他扣除: enterprise annuity, commercial health insurance, individual pension). */
  readonly otherDeduct?: Fen;
  /** Months employed by the withholding entity this tax year, up to and including this month (1..12). */
  readonly monthIndex: number;
  /** Earlier confirmed months of this tax year at the same withholding entity. */
  readonly previousMonths?: readonly ConfirmedMonth[];
  /** STA 2020 No.19 flat 60 000 yuan basic deduction. */
  readonly simplifiedBasicDeduction?: boolean;
}

/** One calculated salary row, in fen. */
export interface MonthlySalaryResult {
  /** 应发 = salary + jiaban − koukuan. */
  readonly gross: Fen;
  readonly yanglao: Fen;
  readonly yiliao: Fen;
  readonly shiye: Fen;
  readonly gongjijin: Fen;
  /** yanglao + yiliao + shiye + gongjijin. */
  readonly fiveOne: Fen;
  readonly taxableThisMonth: Fen;
  readonly cumulativeTaxable: Fen;
  readonly cumulativeTax: Fen;
  readonly tax: Fen;
  /** 实发 = gross − fiveOne − tax. */
  readonly realSalary: Fen;
}

/** Calculates a whole monthly salary row: gross, personal contributions, cumulative IIT and net pay. */
export function calculateMonthlySalary(input: MonthlySalaryInput): MonthlySalaryResult {
  assertFen(input?.salary, 'salary');
  const jiaban = optionalFen(input.jiaban, 'jiaban');
  const koukuan = optionalFen(input.koukuan, 'koukuan');
  const gross = input.salary + jiaban - koukuan;
  if (gross < 0) {
    throw new PayrollInputError('koukuan', '扣款不能超过基本工资与加班费之和', 'koukuan must not exceed salary + jiaban');
  }
  assertFen(gross, 'salary');
  const personal = calculatePersonalContributions(input.bases, input.rates);
  const t = calculateCumulativeWithholding({
    monthIndex: input.monthIndex,
    previousMonths: input.previousMonths,
    current: { gross, fiveOne: personal.fiveOne, deduct: input.deduct, otherDeduct: input.otherDeduct },
    simplifiedBasicDeduction: input.simplifiedBasicDeduction,
  });
  return {
    gross,
    yanglao: personal.yanglao,
    yiliao: personal.yiliao,
    shiye: personal.shiye,
    gongjijin: personal.gongjijin,
    fiveOne: personal.fiveOne,
    taxableThisMonth: t.taxableThisMonth,
    cumulativeTaxable: t.cumulativeTaxable,
    cumulativeTax: t.cumulativeTax,
    tax: t.tax,
    realSalary: gross - personal.fiveOne - t.tax,
  };
}
