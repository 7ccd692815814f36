import type { CodedMessage } from '../errors/catalogue.ts';
import type { Fen } from './money.ts';
import type { RateBook } from './rateBook.ts';

/*
 * The data the month's calculation reads and writes (salary rows, the ledger's other months, the year-to-date
 * carry, opening balances) and what it answers with. The rules are in calculateMonth.ts.
 */

/** The last month separate taxation of the annual bonus is allowed (财政部 税务总局公告2023年第30号). */
export const SEPARATE_BONUS_UNTIL = '2027-12';

/** Labour remuneration (per-payment withholding, not part of the wage ledger). */
export const LABOUR_TAXES_TYPE = '劳务报酬';

/** Salary row as the calculation needs it (money in fen, ratios as stored). */
export interface SalaryRowData {
  id: number;
  companyId: number;
  companyName: string | null;
  dispatchCompany: string | null;
  month: string;
  staffName: string | null;
  idCard: string;
  censusType: string | null;
  taxesType: string | null;
  insureType: string | null;
  salary: Fen | null;
  jiaban: Fen | null;
  koukuan: Fen | null;
  deduct: Fen | null;
  /** 全年一次性奖金 (fen) and whether it is merged into the month's wages (default: taxed separately). */
  bonus?: Fen | null;
  bonusMerged?: boolean | number | null;
  /**
   * 补发 / 补扣 (issue 20 item 7): back pay and a deduction after the fact, wages of this month (in 应发 and the
   * cumulative method), with the earlier month each refers to (YYYY-MM). 经济补偿金: severance, taxed on its own
   * above the exempt part (payItems.ts). Fen.
   */
  backPay?: Fen | null;
  backPayMonth?: string | null;
  backDeduct?: Fen | null;
  backDeductMonth?: string | null;
  severance?: Fen | null;
  /** 其他扣除 of the month (商业健康险, 个人养老金), fen. */
  otherDeduct?: Fen | null;
  /** 国家税务总局公告2020年第19号: 60,000 deducted from January on. */
  simplifiedDeduction?: boolean | number | null;
  yanglaoBase: Fen | null;
  yiliaoBase: Fen | null;
  yiliaoBaseSelf: Fen | null;
  shiyeBase: Fen | null;
  gjjBase: Fen | null;
  yanglaoRatioSelf: number | string | null;
  yiliaoRatioSelf: number | string | null;
  shiyeRatioSelf: number | string | null;
  gjjRatio: number | string | null;
  /** Hire date YYYY-MM-DD (snapshot of the staff record), null when unknown. */
  inductionDate?: string | null;
  /** The worker's own ratios are kept instead of the rate dictionary's (P4). */
  ratioOverride?: boolean | number | null;
  /** The employer's side (bases fen, ratios as stored); absent in rows that only feed the ledger. */
  gongshangBase?: Fen | null;
  shengyuBase?: Fen | null;
  yanglaoRatioCompany?: number | string | null;
  yiliaoRatioCompany?: number | string | null;
  shiyeRatioCompany?: number | string | null;
  gongshangRatioCompany?: number | string | null;
  shengyuRatioCompany?: number | string | null;
  /**
   * 上月应扣未扣 (issue 20 item 5, PB4): what the person's previous month at this client company could not deduct,
   * deducted first from this month's pay (fen; the loader reads it from the confirmed previous month).
   */
  owedFromEarlier?: Fen | null;
  /** The previous month still owes an amount but is not confirmed: its figure is not final (the month, YYYY-MM). */
  owedUnsettledMonth?: string | null;
  /** 欠款处理方式 of the client company: true = 单位垫付 (the company advances what the pay cannot cover). */
  companyAdvances?: boolean | null;
  /**
   * 补缴社保个人 / 补缴社保单位 (issue 24 items 2 and 4): 补差 of earlier, confirmed months placed into this month (the
   * loader adds up the person's items of the month, modules/siAdjust); fen, negative = refund. The personal part is
   * withheld from this month's pay and is part of this month's 专项扣除 (fiveOne); the employer part adds to the
   * employer total and 用工成本.
   */
  siBackSelfDue?: Fen | null;
  siBackCompanyDue?: Fen | null;
  /** 1 = confirmed. */
  tag: number;
  /** Stored figures (those of the last calculation; fixed once confirmed). */
  gross: Fen | null;
  fiveOne: Fen | null;
  tax: Fen | null;
}

/** A confirmed or unconfirmed row of another month of the same person and entity (summary only). */
export interface LedgerRow {
  idCard: string;
  dispatchCompany: string | null;
  month: string;
  companyName: string | null;
  taxesType: string | null;
  tag: number;
  gross: Fen | null;
  fiveOne: Fen | null;
  deduct: Fen | null;
  tax: Fen | null;
  bonus?: Fen | null;
  bonusMerged?: boolean | number | null;
  otherDeduct?: Fen | null;
}

/**
 * A person's confirmed wage months of the tax year with one withholding agent, added up through `throughMonth`
 * (the year-to-date ledger, modules/payroll/ytdLedger.ts): what the cumulative method needs of the earlier
 * months, read as one row instead of every confirmed row of the year (finding P8). Fen.
 */
export interface YtdCarry {
  dispatchCompany: string;
  idCard: string;
  throughMonth: string;
  /** Confirmed months added up (the months count towards 任职受雇月份数). */
  months: number;
  gross: Fen;
  fiveOne: Fen;
  deduct: Fen;
  otherDeduct: Fen;
  tax: Fen;
  /** Where the year's separately taxed annual bonus was confirmed, if it was. */
  separateBonus: { companyName: string | null; month: string } | null;
}

/** Year-to-date figures of a person and entity entered for the months up to `throughMonth` (fen). */
export interface OpeningBalance {
  dispatchCompany: string;
  idCard: string;
  throughMonth: string;
  months: number;
  cumulativeIncome: Fen;
  cumulativeExemptIncome: Fen | null;
  cumulativeSocial: Fen | null;
  cumulativeSpecialAdditional: Fen | null;
  cumulativeOtherDeduct: Fen | null;
  cumulativeTaxWithheld: Fen;
}

/** The figures the calculation writes to a row. */
export interface RowFigures {
  gross: Fen;
  yanglao: Fen;
  yiliao: Fen;
  shiye: Fen;
  gongjijin: Fen;
  /** 补缴社保个人 of earlier months withheld this month (inside fiveOne), and 补缴社保单位 (inside employerTotal). */
  siBackSelf: Fen;
  siBackCompany: Fen;
  fiveOne: Fen;
  tax: Fen;
  /** The separately taxed annual bonus's tax (0 without one, or when merged). */
  bonusTax: Fen;
  /** 经济补偿金's exempt part (≤ 3 × the local average annual wage) and the separate tax on the rest (0 without one). */
  severanceExempt: Fen;
  severanceTax: Fen;
  /** The month's 专项附加扣除 and 其他扣除 the tax was computed with (kept on the row for the later months). */
  deduct: Fen;
  otherDeduct: Fen;
  realSalary: Fen;
  /**
   * What this month's pay could not cover (PB4): 实发 is never below zero. `carriedIn` = 上月应扣未扣 deducted (or
   * owed) this month; the rest is 应扣未扣 (`unpaid`, carried to the next month) or 单位垫付 (`advanced`), by the
   * client company's 欠款处理方式. The personal contributions stay in 五险一金 and in the tax's 专项扣除.
   */
  carriedIn: Fen;
  unpaid: Fen;
  advanced: Fen;
  /** null for labour-remuneration rows. */
  monthIndex: number | null;
  cumulativeIncome: Fen | null;
  cumulativeTaxable: Fen | null;
  cumulativeTax: Fen | null;
  taxableThisMonth: Fen | null;
  /** The employer's contributions per item and in total, and 应发 + that total (the client's labour cost). */
  employerYanglao: Fen;
  employerYiliao: Fen;
  employerShiye: Fen;
  employerGongshang: Fen;
  employerShengyu: Fen;
  employerGongjijin: Fen;
  employerTotal: Fen;
  labourCost: Fen;
}


/** Why a row cannot be calculated. */
export interface RowProblem {
  id: number;
  staffName: string | null;
  idCard: string;
  /** The reason in Chinese (logs, Chinese-only readers); `reason` is the same as a catalogue message. */
  message: string;
  /** Why, as a catalogue code with parameters: rendered in the answer's language. */
  reason: CodedMessage;
  /** The field at fault (a missing base, an out-of-range ratio...), when the problem is one field's. */
  field?: string;
}

export interface MonthCalculationInput {
  month: string;
  /** The rows to calculate (one company's month, or one edited person's rows). */
  rows: readonly SalaryRowData[];
  /** Other rows of the same month, entities and ID cards at other client companies. */
  sameMonthOthers: readonly SalaryRowData[];
  /**
   * Rows of the other months of the same year, entities and ID cards. With `carried`, only those the ledger rows
   * do not cover are needed: unconfirmed rows, rows of later months, confirmed months after the carried month.
   */
  ledger: readonly LedgerRow[];
  /** The year-to-date ledger rows before the month (net of months an opening balance covers). */
  carried?: readonly YtdCarry[];
  /** Opening balances of the year for the same entities and ID cards. */
  openings?: readonly OpeningBalance[];
  rates: RateBook;
}

export interface MonthCalculationResult {
  figures: Map<number, RowFigures>;
  problems: RowProblem[];
  /**
   * Persons whose months employed this year include months with neither a confirmed salary nor opening
   * figures: the law's count of months is used (those months had no income here), and the clerk is told, since
   * a company that started mid-year must enter its opening figures first.
   */
  unrecordedMonths: { idCard: string; staffName: string | null; months: number }[];
}

/** The amount limit of overtime and deductions, in fen (1 000 000 yuan). */
export const ADJUSTMENT_LIMIT_FEN = 100_000_000;

/** The largest annual bonus a row takes, in fen (10 000 000 yuan). */
export const BONUS_LIMIT_FEN = 1_000_000_000;

/** The figures compared when confirming: a stored row must equal a fresh calculation in all of them. */
export const VERIFIED_FIGURES = ['gross', 'yanglao', 'yiliao', 'shiye', 'gongjijin', 'fiveOne', 'deduct', 'otherDeduct', 'tax', 'bonusTax', 'severanceExempt', 'severanceTax', 'realSalary', 'carriedIn', 'unpaid', 'advanced', 'monthIndex', 'employerTotal'] as const;
