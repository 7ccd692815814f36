import { calculateMonthExplained } from './calculateMonth.ts';
import { PayrollInputError } from './errors.ts';
import type { ConfirmedMonth } from './incomeTax.ts';
import type { Fen } from './money.ts';
import type { RateBook } from './rateBook.ts';
import type { LedgerRow, SalaryRowData } from './salaryRows.ts';
import type { ContributionBases, PayrollRates } from './socialInsurance.ts';
import { assertFen, assertMonthIndex, optionalFen } from './validate.ts';

/**
 * One staff member's month with typed arguments, calculated by the engine the salary flow uses (calculateMonth):
 * the input becomes a salary row keeping its own ratios (使用个人比例), the rates a one-version rate book, the
 * earlier months confirmed rows of the same withholding agent and year, and the month index the months from a
 * January hire. So the tests written against this entry point test what users are paid.
 *
 * The arguments are checked first (the row form cannot say which typed field was wrong); what the engine itself
 * refuses is rethrown as its {@link PayrollInputError}.
 */

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
  /** 上月应扣未扣: what the previous month could not deduct, taken first from this month's pay. */
  readonly owedFromEarlier?: Fen;
  /** 单位垫付: the company advances what the pay cannot cover (default: 应扣未扣, carried to the next month). */
  readonly companyAdvances?: boolean;
  /** 补发 / 补扣 with the earlier month (YYYY-MM) each refers to: wages of this month. */
  readonly backPay?: Fen;
  readonly backPayMonth?: string;
  readonly backDeduct?: Fen;
  readonly backDeductMonth?: string;
  /** 经济补偿金, and 当地上年职工平均工资 (fen per year) for its exemption. */
  readonly severance?: Fen;
  readonly averageWageAnnual?: Fen;
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
  /** 实发 = gross − fiveOne − tax − carriedIn, never below zero. */
  readonly realSalary: Fen;
  /** 上月应扣未扣 deducted this month (or owed, when the pay did not cover it). */
  readonly carriedIn: Fen;
  /** 应扣未扣: what the pay could not cover, carried to the next month (0 when the company advances it). */
  readonly unpaid: Fen;
  /** 单位垫付: what the pay could not cover, advanced by the company. */
  readonly advanced: Fen;
  /** 经济补偿金's exempt part and its separate tax. */
  readonly severanceExempt: Fen;
  readonly severanceTax: Fen;
}

/** The tax year the typed months are placed in; any year before the separate-bonus deadline would do. */
const YEAR = '2026';
const monthOf = (n: number) => `${YEAR}-${String(n).padStart(2, '0')}`;
const ENTITY = '扣缴义务人';
const ID_CARD = 'engine';
const CENSUS = 'engine';
const SHARED_ITEMS = ['yanglao', 'yiliao', 'shiye', 'gongjijin'] as const;

/** The checks the typed arguments need before they become a row (the engine would report them by row field). */
function checkArguments(input: MonthlySalaryInput): void {
  assertFen(input?.salary, 'salary');
  const jiaban = optionalFen(input.jiaban, 'jiaban');
  const koukuan = optionalFen(input.koukuan, 'koukuan');
  const gross = input.salary + jiaban - koukuan;
  if (gross < 0) throw new PayrollInputError('koukuan', 'PAYROLL_KOUKUAN_OVER_PAY');
  assertFen(gross, 'salary');
  optionalFen(input.deduct, 'deduct');
  optionalFen(input.otherDeduct, 'otherDeduct');
  optionalFen(input.owedFromEarlier, 'owedFromEarlier');
  optionalFen(input.backPay, 'backPay');
  optionalFen(input.backDeduct, 'backDeduct');
  optionalFen(input.severance, 'severance');
  optionalFen(input.averageWageAnnual, 'averageWageAnnual');
  for (const key of ['yanglao', 'yiliao', 'shiye', 'gongjijin'] as const) assertFen(input.bases?.[key], `bases.${key}`);
  for (const key of SHARED_ITEMS) {
    const rate = input.rates?.[key];
    if (typeof rate !== 'object' || rate === null) throw new PayrollInputError(`rates.${key}`, 'PAYROLL_INPUT_RATE_MISSING', { key });
  }
  assertMonthIndex(input.monthIndex);
  const previous = input.previousMonths ?? [];
  if (!Array.isArray(previous) || previous.length > input.monthIndex - 1) {
    const n = input.monthIndex - 1;
    throw new PayrollInputError('previousMonths', 'PAYROLL_INPUT_PREVIOUS_MONTHS', { max: n });
  }
  previous.forEach((m, i) => {
    for (const key of ['gross', 'fiveOne', 'deduct', 'tax'] as const) assertFen(m[key], `previousMonths[${i}].${key}`);
    optionalFen(m.otherDeduct, `previousMonths[${i}].otherDeduct`);
  });
}

/** Calculates a whole monthly salary row: gross, personal contributions, cumulative IIT and net pay. */
export function calculateMonthlySalary(input: MonthlySalaryInput): MonthlySalaryResult {
  checkArguments(input);
  const { rates, bases } = input;
  const month = monthOf(input.monthIndex);
  const row: SalaryRowData = {
    id: 1,
    companyId: 1,
    companyName: null,
    dispatchCompany: ENTITY,
    month,
    staffName: null,
    idCard: ID_CARD,
    censusType: CENSUS,
    taxesType: null,
    insureType: '五险一金',
    salary: input.salary,
    jiaban: input.jiaban ?? 0,
    koukuan: input.koukuan ?? 0,
    deduct: input.deduct ?? 0,
    otherDeduct: input.otherDeduct ?? 0,
    simplifiedDeduction: input.simplifiedBasicDeduction === true,
    yanglaoBase: bases.yanglao,
    yiliaoBase: bases.yiliao,
    yiliaoBaseSelf: bases.yiliaoSelf ?? null,
    shiyeBase: bases.shiye,
    gjjBase: bases.gongjijin,
    // the row keeps the typed ratios (the version's ratios would otherwise win)
    ratioOverride: true,
    yanglaoRatioSelf: rates.yanglao.ratioSelf,
    yiliaoRatioSelf: rates.yiliao.ratioSelf,
    shiyeRatioSelf: rates.shiye.ratioSelf,
    gjjRatio: rates.gongjijin.ratioSelf,
    yanglaoRatioCompany: rates.yanglao.ratioCompany,
    yiliaoRatioCompany: rates.yiliao.ratioCompany,
    shiyeRatioCompany: rates.shiye.ratioCompany,
    gongshangRatioCompany: rates.gongshang?.ratioCompany ?? 0,
    shengyuRatioCompany: rates.shengyu?.ratioCompany ?? 0,
    gongshangBase: bases.gongshang ?? null,
    shengyuBase: bases.shengyu ?? null,
    // hired in January: the month index is the month's number
    inductionDate: `${YEAR}-01-01`,
    owedFromEarlier: input.owedFromEarlier ?? 0,
    backPay: input.backPay ?? 0,
    backPayMonth: input.backPayMonth ?? null,
    backDeduct: input.backDeduct ?? 0,
    backDeductMonth: input.backDeductMonth ?? null,
    severance: input.severance ?? 0,
    companyAdvances: input.companyAdvances === true,
    tag: 0,
    gross: null,
    fiveOne: null,
    tax: null,
  };
  const ledger: LedgerRow[] = (input.previousMonths ?? []).map((m, i) => ({
    idCard: ID_CARD,
    dispatchCompany: ENTITY,
    month: monthOf(i + 1),
    companyName: null,
    taxesType: null,
    tag: 1,
    gross: m.gross,
    fiveOne: m.fiveOne,
    deduct: m.deduct,
    otherDeduct: m.otherDeduct ?? 0,
    tax: m.tax,
  }));
  const book: RateBook = new Map([[CENSUS, { dictName: CENSUS, effectiveMonth: null, rates, ratios: {}, averageWageAnnual: input.averageWageAnnual ?? null }]]);
  const result = calculateMonthExplained({ month, rows: [row], sameMonthOthers: [], ledger, rates: book });
  const f = result.figures.get(row.id);
  if (!f) {
    const cause = result.inputErrors.get(row.id);
    if (cause) throw cause;
    const reason = result.problems[0]?.reason ?? { code: 'PAYROLL_ROW_CANNOT_CALCULATE' as const };
    throw new PayrollInputError('row', reason.code, reason.params);
  }
  return {
    gross: f.gross,
    yanglao: f.yanglao,
    yiliao: f.yiliao,
    shiye: f.shiye,
    gongjijin: f.gongjijin,
    fiveOne: f.fiveOne,
    taxableThisMonth: f.taxableThisMonth as Fen,
    cumulativeTaxable: f.cumulativeTaxable as Fen,
    cumulativeTax: f.cumulativeTax as Fen,
    tax: f.tax,
    realSalary: f.realSalary,
    carriedIn: f.carriedIn,
    unpaid: f.unpaid,
    advanced: f.advanced,
    severanceExempt: f.severanceExempt,
    severanceTax: f.severanceTax,
  };
}
