import {
  annualBonusTax,
  type ConfirmedMonth,
  calculateCumulativeWithholding,
  calculateEmployerContributions,
  calculatePersonalContributions,
  type Fen,
  type ItemLimits,
  labourRemunerationTax,
  PayrollInputError,
  type PayrollRates,
  type SharedItemRate,
} from '@app/shared/payroll';
import { RateError, type RateBook, type RateVersion } from './rates.ts';

/**
 * The salary flow's arithmetic over salary rows, without I/O: personal contributions per row and the
 * cumulative income tax per person and withholding entity, on top of the pure engine in @app/shared/payroll.
 *
 * Ledger (payroll-rules.md §1.1, §5.3): the withholding agent is the dispatch entity (`dispatchCompany`), so
 * year-to-date figures are kept per (dispatch entity, ID card, tax year) across all its client companies.
 * The tax year is the calendar year of the salary month (the work month is used as the pay month).
 * - Earlier months = CONFIRMED rows (tag = 1) of the same entity and ID card in earlier months of the year;
 *   rows of one month (several client companies) are added up, 专项附加扣除 counted once (the largest).
 * - Month index n = months employed by the entity this year (payroll-rules.md §1.1, finding P3): from the
 *   hire month (the earliest 入职日期 of the person's rows under the entity) or January, whichever is later,
 *   to the salary month, continuous employment assumed; rows without a hire date (added by hand, or from
 *   before it was kept) fall back to the earlier confirmed months + 1. Never fewer than those months + 1.
 * - Opening balances (期初累计数据): the year-to-date figures an entity entered for a person up to a month
 *   stand for all months up to it (salary rows of those months are not counted again), and their month count
 *   replaces the count up to it.
 * - An unconfirmed earlier month, or a confirmed later month, of the same person and entity is an error:
 *   months are confirmed in order, and a confirmed month is never rewritten.
 * Several rows in the same month under the same entity (two client companies, §5.3): the tax is computed
 * once on the sum of all of them; rows already confirmed keep the tax they withheld, and the rest of the
 * month's tax is split over the unconfirmed rows in proportion to their (gross − fiveOne), the left-over fen
 * going to the largest row. Only the rows of the company being calculated are written; the confirm step
 * re-checks every figure, so a row whose share moved since (the other company changed or confirmed) must be
 * calculated again before it can be confirmed.
 * Rows of taxesType 劳务报酬 are taxed per payment (预扣率表二) and kept out of the wage ledger.
 *
 * 全年一次性奖金 (bonus, payroll-rules.md §1.5): by default taxed on its own with the monthly table looked up at
 * bonus / 12 (annualBonusTax), kept out of 应发 and the ledger, its tax on its own line (bonusTax); 实发 =
 * 应发 − 五险一金 − 个税 + 奖金 − 奖金个税. Separate taxation is allowed once per tax year per person and
 * withholding agent and until 2027-12 (公告2023年第30号); a row marked 并入当月工资 adds the bonus to 应发 and to
 * the cumulative method instead.
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
  fiveOne: Fen;
  tax: Fen;
  /** The separately taxed annual bonus's tax (0 without one, or when merged). */
  bonusTax: Fen;
  /** The month's 专项附加扣除 and 其他扣除 the tax was computed with (kept on the row for the later months). */
  deduct: Fen;
  otherDeduct: Fen;
  realSalary: Fen;
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

type EmployerFigures = Pick<
  RowFigures,
  'employerYanglao' | 'employerYiliao' | 'employerShiye' | 'employerGongshang' | 'employerShengyu' | 'employerGongjijin' | 'employerTotal' | 'labourCost'
>;

/** What personalFigures works out for one row: gross pay, the personal contributions and the employer's. */
type PersonFigures = Pick<RowFigures, 'gross' | 'yanglao' | 'yiliao' | 'shiye' | 'gongjijin' | 'fiveOne'> & EmployerFigures;

/*
 * Objects made per row are written as plain literals, not `{ ...a, x, y }`: on Node 20's V8 every property
 * written after a spread takes a slow path (~1.2 us each, measured), which made the row figures alone 13 us per
 * row, about a third of 计算 at 10,000 staff. A spread written after the properties, or a literal, is 0.1-0.3 us.
 */

/** A row's figures: its person figures and what the month's tax calculation adds. */
function rowFigures(
  p: PersonFigures,
  tax: Pick<RowFigures, 'tax' | 'bonusTax' | 'deduct' | 'otherDeduct' | 'realSalary' | 'monthIndex' | 'cumulativeIncome' | 'cumulativeTaxable' | 'cumulativeTax' | 'taxableThisMonth'>,
): RowFigures {
  return {
    gross: p.gross,
    yanglao: p.yanglao,
    yiliao: p.yiliao,
    shiye: p.shiye,
    gongjijin: p.gongjijin,
    fiveOne: p.fiveOne,
    tax: tax.tax,
    bonusTax: tax.bonusTax,
    deduct: tax.deduct,
    otherDeduct: tax.otherDeduct,
    realSalary: tax.realSalary,
    monthIndex: tax.monthIndex,
    cumulativeIncome: tax.cumulativeIncome,
    cumulativeTaxable: tax.cumulativeTaxable,
    cumulativeTax: tax.cumulativeTax,
    taxableThisMonth: tax.taxableThisMonth,
    employerYanglao: p.employerYanglao,
    employerYiliao: p.employerYiliao,
    employerShiye: p.employerShiye,
    employerGongshang: p.employerGongshang,
    employerShengyu: p.employerShengyu,
    employerGongjijin: p.employerGongjijin,
    employerTotal: p.employerTotal,
    labourCost: p.labourCost,
  };
}

/** Why a row cannot be calculated. */
export interface RowProblem {
  id: number;
  staffName: string | null;
  idCard: string;
  message: string;
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

class Problem extends Error {}

const FIELD_LABEL: Record<string, string> = {
  salary: '基本工资',
  jiaban: '加班费',
  koukuan: '扣款',
  deduct: '专项附加扣除',
  yanglaoBase: '养老保险基数',
  yiliaoBase: '医疗保险基数',
  shiyeBase: '失业保险基数',
  gjjBase: '公积金基数',
  yanglaoRatioSelf: '养老保险个人比例',
  yiliaoRatioSelf: '医疗保险个人比例',
  shiyeRatioSelf: '失业保险个人比例',
  gjjRatio: '公积金比例',
  censusType: '户籍类型',
  dispatchCompany: '派遣单位',
  bonus: '全年一次性奖金',
};

const missing = (field: string) => new Problem(`缺少${FIELD_LABEL[field] ?? field}（${field}）`);

/** Which personal items an insurance type (保险种类) includes; unknown types are a problem, empty = all. */
export function insuredItems(insureType: string | null): { si: boolean; hf: boolean } {
  const t = (insureType ?? '').trim();
  switch (t) {
    case '':
    case '五险一金':
    case '三险一金':
      return { si: true, hf: true };
    case '五险':
    case '三险':
      return { si: true, hf: false };
    case '不参保':
      return { si: false, hf: false };
    default:
      throw new Problem(`保险种类“${t}”无法识别（应为五险一金、五险、三险一金、三险或不参保）`);
  }
}

/** The largest annual bonus a row takes, in fen (10 000 000 yuan). */
export const BONUS_LIMIT_FEN = 1_000_000_000;

function money(row: SalaryRowData, field: 'salary' | 'jiaban' | 'koukuan' | 'deduct' | 'bonus', required: boolean): Fen {
  const v = row[field];
  if (v === null || v === undefined) {
    if (required) throw missing(field);
    return 0;
  }
  if (!Number.isSafeInteger(v)) throw new Problem(`${FIELD_LABEL[field]}（${field}）不是有效金额`);
  if (v < 0) throw new Problem(`${FIELD_LABEL[field]}（${field}）不能为负数`);
  if ((field === 'jiaban' || field === 'koukuan') && v > ADJUSTMENT_LIMIT_FEN) {
    throw new Problem(`${FIELD_LABEL[field]}（${field}）金额过大，不能超过1000000元`);
  }
  if (field === 'bonus' && v > BONUS_LIMIT_FEN) throw new Problem(`${FIELD_LABEL[field]}（${field}）金额过大，不能超过10000000元`);
  return v;
}

const isMerged = (row: { bonusMerged?: boolean | number | null }) => row.bonusMerged === true || row.bonusMerged === 1;
/** The bonus of a row taxed on its own (0 when none or merged). */
export const separateBonusOf = (row: { bonus?: Fen | null; bonusMerged?: boolean | number | null }): Fen => (isMerged(row) ? 0 : (row.bonus ?? 0));

function base(row: SalaryRowData, field: 'yanglaoBase' | 'yiliaoBase' | 'shiyeBase' | 'gjjBase'): Fen {
  const v = row[field];
  if (v === null || v === undefined) throw missing(field);
  if (!Number.isSafeInteger(v) || v < 0) throw new Problem(`${FIELD_LABEL[field]}（${field}）无效`);
  return v;
}

type PersonalRatio = 'yanglaoRatioSelf' | 'yiliaoRatioSelf' | 'shiyeRatioSelf' | 'gjjRatio';

function ratio(row: SalaryRowData, field: PersonalRatio): number | string {
  const v = row[field];
  if (v === null || v === undefined || v === '') throw missing(field);
  return v;
}

/**
 * The personal ratio that applies (finding P4): the rate dictionary version in force in the salary month,
 * unless the row keeps the worker's own ratios (使用个人比例) or the dictionary has no such entry.
 */
function ratioInForce(row: SalaryRowData, version: RateVersion, field: PersonalRatio): number | string {
  const own = row.ratioOverride === true || row.ratioOverride === 1;
  const fromDictionary = version.ratios[field];
  return !own && fromDictionary !== undefined && fromDictionary !== '' ? fromDictionary : ratio(row, field);
}

const NOT_INSURED: SharedItemRate = { ratioSelf: 0, ratioCompany: 0 };

/** An item's limits and rounding with the given ratios (a literal: see the note above rowFigures). */
const withRatios = (limits: ItemLimits, ratioSelf: number | string, ratioCompany: number | string): SharedItemRate => ({
  floor: limits.floor,
  ceiling: limits.ceiling,
  rounding: limits.rounding,
  ratioSelf,
  ratioCompany,
});

/** Gross pay and the personal contributions of one row (throws Problem). */
export function personalFigures(row: SalaryRowData, rates: RateBook): PersonFigures {
  const salary = money(row, 'salary', true);
  const jiaban = money(row, 'jiaban', false);
  const koukuan = money(row, 'koukuan', false);
  money(row, 'deduct', false);
  const bonus = money(row, 'bonus', false);
  if (salary + jiaban - koukuan < 0) throw new Problem('扣款不能超过基本工资与加班费之和');
  // a merged bonus is wages of the month (应发, the cumulative method); a separate one stays out of both
  const gross = salary + jiaban - koukuan + (isMerged(row) ? bonus : 0);
  const { si, hf } = insuredItems(row.insureType);
  if (!si && !hf) return { gross, yanglao: 0, yiliao: 0, shiye: 0, gongjijin: 0, fiveOne: 0, ...noEmployerCost(gross) };
  if (!row.censusType) throw missing('censusType');
  const version = rates.get(row.censusType);
  if (version === undefined) throw new Problem(`户籍类型“${row.censusType}”没有费率`);
  if (version instanceof RateError) throw new Problem(version.message);
  const r = version.rates;
  // Only the personal side is calculated here, so the employer ratio is not read (0 is never used).
  const own = (limits: SharedItemRate, ratioSelf: number | string): SharedItemRate => withRatios(limits, ratioSelf, 0);
  const rates2: PayrollRates = {
    yanglao: si ? own(r.yanglao, ratioInForce(row, version, 'yanglaoRatioSelf')) : NOT_INSURED,
    yiliao: si ? own(r.yiliao, ratioInForce(row, version, 'yiliaoRatioSelf')) : NOT_INSURED,
    shiye: si ? own(r.shiye, ratioInForce(row, version, 'shiyeRatioSelf')) : NOT_INSURED,
    gongjijin: hf ? own(r.gongjijin, ratioInForce(row, version, 'gjjRatio')) : NOT_INSURED,
    yiliaoFixedSelf: si ? r.yiliaoFixedSelf : 0,
  };
  const yiliaoBase = si ? base(row, 'yiliaoBase') : 0;
  const bases = {
    yanglao: si ? base(row, 'yanglaoBase') : 0,
    yiliao: yiliaoBase,
    // 医疗保险个人缴费基数 when the staff has one, otherwise the medical base.
    yiliaoSelf: si && row.yiliaoBaseSelf !== null && row.yiliaoBaseSelf !== undefined ? row.yiliaoBaseSelf : yiliaoBase,
    shiye: si ? base(row, 'shiyeBase') : 0,
    gongjijin: hf ? base(row, 'gjjBase') : 0,
  };
  try {
    const p = calculatePersonalContributions(bases, rates2);
    return { gross, yanglao: p.yanglao, yiliao: p.yiliao, shiye: p.shiye, gongjijin: p.gongjijin, fiveOne: p.fiveOne, ...employerFigures(row, version, bases, gross, si, hf) };
  } catch (err) {
    if (err instanceof PayrollInputError) throw new Problem(err.messageZh);
    throw err;
  }
}

const noEmployerCost = (gross: Fen): EmployerFigures => ({
  employerYanglao: 0,
  employerYiliao: 0,
  employerShiye: 0,
  employerGongshang: 0,
  employerShengyu: 0,
  employerGongjijin: 0,
  employerTotal: 0,
  labourCost: gross,
});

type CompanyRatio = 'yanglaoRatioCompany' | 'yiliaoRatioCompany' | 'shiyeRatioCompany' | 'shengyuRatioCompany';

/** An employer ratio: the dictionary version in force unless the row keeps its own (as for the personal side). */
function companyRatio(row: SalaryRowData, version: RateVersion, field: CompanyRatio): number | string {
  const own = row.ratioOverride === true || row.ratioOverride === 1;
  const fromDictionary = version.ratios[field];
  if (!own && fromDictionary !== undefined && fromDictionary !== '') return fromDictionary;
  const v = row[field];
  return v === null || v === undefined || v === '' ? 0 : v;
}

/**
 * The employer's contributions (issue 10 item 9) on the same clamped bases as the personal side: pension,
 * medical, unemployment and housing fund at the employer ratios, work injury at the row's ratio (the dispatch
 * entity's, snapshotted from the staff record) and maternity at the dictionary's, both on the pension base's
 * floor and ceiling. 用工成本 = 应发 + the employer total.
 */
function employerFigures(
  row: SalaryRowData,
  version: RateVersion,
  bases: { yanglao: Fen; yiliao: Fen; shiye: Fen; gongjijin: Fen },
  gross: Fen,
  si: boolean,
  hf: boolean,
): EmployerFigures {
  const r = version.rates;
  const limits = { floor: r.yanglao.floor, ceiling: r.yanglao.ceiling, rounding: r.yanglao.rounding || undefined };
  const shared = (item: SharedItemRate, ratioCompany: number | string, on: boolean): SharedItemRate => (on ? withRatios(item, 0, ratioCompany) : NOT_INSURED);
  const e = calculateEmployerContributions(
    {
      yanglao: bases.yanglao,
      yiliao: bases.yiliao,
      shiye: bases.shiye,
      gongjijin: bases.gongjijin,
      gongshang: si ? (row.gongshangBase ?? bases.yanglao) : 0,
      shengyu: si ? (row.shengyuBase ?? bases.yanglao) : 0,
    },
    {
      yanglao: shared(r.yanglao, companyRatio(row, version, 'yanglaoRatioCompany'), si),
      yiliao: shared(r.yiliao, companyRatio(row, version, 'yiliaoRatioCompany'), si),
      shiye: shared(r.shiye, companyRatio(row, version, 'shiyeRatioCompany'), si),
      // one housing-fund ratio for both sides (payroll-rules.md §2.4)
      gongjijin: shared(r.gongjijin, hf ? ratioInForce(row, version, 'gjjRatio') : 0, hf),
      gongshang: withRatios(limits, 0, si ? (row.gongshangRatioCompany ?? 0) : 0),
      shengyu: withRatios(limits, 0, si ? companyRatio(row, version, 'shengyuRatioCompany') : 0),
      yiliaoFixedSelf: 0,
    },
  );
  return {
    employerYanglao: e.yanglao,
    employerYiliao: e.yiliao,
    employerShiye: e.shiye,
    employerGongshang: e.gongshang,
    employerShengyu: e.shengyu,
    employerGongjijin: e.gongjijin,
    employerTotal: e.total,
    labourCost: gross + e.total,
  };
}

/**
 * Splits `total` fen over rows in proportion to `weights` (negative weights count as 0), rounding down and
 * giving the left-over fen to the largest weight (the first on ties); all of it to the first largest weight
 * when every weight is 0. The shares always add up to `total`.
 */
export function splitTax(total: Fen, weights: readonly number[]): Fen[] {
  const w = weights.map((x) => (x > 0 ? BigInt(x) : 0n));
  const sum = w.reduce((a, b) => a + b, 0n);
  let largest = 0;
  for (let i = 1; i < weights.length; i++) if (weights[i] > weights[largest]) largest = i;
  const shares = weights.map(() => 0);
  if (sum === 0n) {
    shares[largest] = total;
    return shares;
  }
  let given = 0;
  for (let i = 0; i < w.length; i++) {
    shares[i] = Number((BigInt(total) * w[i]) / sum);
    given += shares[i];
  }
  shares[largest] += total - given;
  return shares;
}

/** A person with a withholding agent: the unit of the cumulative method (and of the year-to-date ledger). */
export const keyOf = (entity: string | null, idCard: string) => `${entity ?? ''}\u0000${idCard}`;
export const isLabour = (taxesType: string | null) => (taxesType ?? '').trim() === LABOUR_TAXES_TYPE;
const byCompanyThenId = (a: SalaryRowData, b: SalaryRowData) => a.companyId - b.companyId || a.id - b.id;
const who = (row: { companyName: string | null; month: string }) => `${row.companyName ?? '其他单位'}${row.month}`;

/** Calculates `rows` (see the module comment for the ledger rules); never throws for bad row data. */
export function calculateMonth(input: MonthCalculationInput): MonthCalculationResult {
  const figures = new Map<number, RowFigures>();
  const problems: RowProblem[] = [];
  const unrecordedMonths: MonthCalculationResult['unrecordedMonths'] = [];
  const fail = (row: SalaryRowData, message: string) => problems.push({ id: row.id, staffName: row.staffName, idCard: row.idCard, message });
  const own = new Map<number, PersonFigures>();
  const ownFigures = (row: SalaryRowData) => {
    let p = own.get(row.id);
    if (!p) {
      p = personalFigures(row, input.rates);
      own.set(row.id, p);
    }
    return p;
  };

  // Wage rows grouped by (entity, ID card); labour rows stand alone.
  const groups = new Map<string, SalaryRowData[]>();
  for (const row of input.rows) {
    if (row.month !== input.month) {
      fail(row, `月份与计算月份（${input.month}）不一致`);
      continue;
    }
    if (isLabour(row.taxesType)) {
      try {
        if ((row.bonus ?? 0) > 0) throw new Problem('劳务报酬按次预扣，不适用全年一次性奖金');
        const p = ownFigures(row);
        const tax = labourRemunerationTax(p.gross);
        const realSalary = p.gross - p.fiveOne - tax;
        if (realSalary < 0) throw new Problem('实发工资为负数（应发 − 五险一金 − 个税），请检查扣款');
        figures.set(
          row.id,
          rowFigures(p, {
            tax,
            bonusTax: 0,
            deduct: row.deduct ?? 0,
            otherDeduct: 0,
            realSalary,
            monthIndex: null,
            cumulativeIncome: null,
            cumulativeTaxable: null,
            cumulativeTax: null,
            taxableThisMonth: null,
          }),
        );
      } catch (err) {
        if (!(err instanceof Problem)) throw err;
        fail(row, err.message);
      }
      continue;
    }
    if (!row.dispatchCompany) {
      fail(row, `${FIELD_LABEL.dispatchCompany}为空，无法确定扣缴义务人`);
      continue;
    }
    const k = keyOf(row.dispatchCompany, row.idCard);
    const g = groups.get(k);
    if (g) g.push(row);
    else groups.set(k, [row]);
  }
  if (groups.size === 0) return { figures, problems, unrecordedMonths };

  const targetIds = new Set(input.rows.map((r) => r.id));
  const others = new Map<string, SalaryRowData[]>();
  for (const row of input.sameMonthOthers) {
    if (targetIds.has(row.id) || row.month !== input.month || isLabour(row.taxesType)) continue;
    const k = keyOf(row.dispatchCompany, row.idCard);
    if (!groups.has(k)) continue;
    const list = others.get(k);
    if (list) list.push(row);
    else others.set(k, [row]);
  }
  const history = new Map<string, LedgerRow[]>();
  for (const l of input.ledger) {
    if (isLabour(l.taxesType) || l.month === input.month || l.month.slice(0, 4) !== input.month.slice(0, 4)) continue;
    const k = keyOf(l.dispatchCompany, l.idCard);
    if (!groups.has(k)) continue;
    const list = history.get(k);
    if (list) list.push(l);
    else history.set(k, [l]);
  }

  const openingOf = new Map<string, OpeningBalance>();
  for (const o of input.openings ?? []) if (o.throughMonth.slice(0, 4) === input.month.slice(0, 4)) openingOf.set(keyOf(o.dispatchCompany, o.idCard), o);
  const carryOf = new Map<string, YtdCarry>();
  for (const c of input.carried ?? []) {
    if (c.throughMonth < input.month && c.throughMonth.slice(0, 4) === input.month.slice(0, 4)) carryOf.set(keyOf(c.dispatchCompany, c.idCard), c);
  }

  for (const [k, targets] of groups) {
    try {
      const opening = openingOf.get(k);
      if (opening && opening.throughMonth >= input.month) throw new Problem(`期初累计数据截至${opening.throughMonth}，不能再计算${input.month}的工资`);
      const carry = carryOf.get(k);
      // confirmed rows the carried ledger row already adds up are not counted again
      const uncarried = (history.get(k) ?? []).filter((l) => (!opening || l.month > opening.throughMonth) && !(carry && l.tag === 1 && l.month <= carry.throughMonth));
      const confirmed = previousMonthsOf(uncarried, input.month);
      const confirmedMonths = (carry?.months ?? 0) + confirmed.length;
      const previousMonths = [...(opening ? [openingMonth(opening)] : []), ...(carry && carry.months > 0 ? [carriedMonth(carry)] : []), ...confirmed];
      const members = [...targets, ...(others.get(k) ?? [])].sort(byCompanyThenId);
      checkSeparateBonus(input.month, members, history.get(k) ?? [], carry?.separateBonus ?? null);
      const monthIndex = monthsEmployed(input.month, members, opening, confirmedMonths);
      // months with a record: the opening balance's months and the confirmed ones
      const recorded = (opening?.months ?? 0) + confirmedMonths;
      if (monthIndex > recorded + 1) {
        unrecordedMonths.push({ idCard: targets[0].idCard, staffName: targets[0].staffName, months: monthIndex - recorded - 1 });
      }
      let gross = 0;
      let fiveOne = 0;
      let deduct = 0;
      let otherDeduct = 0;
      let fixedTax = 0;
      const floating: { row: SalaryRowData; p: PersonFigures }[] = [];
      for (const m of members) {
        // one person's deductions count once in the month, whichever client company's rows carry them
        deduct = Math.max(deduct, m.deduct ?? 0);
        otherDeduct = Math.max(otherDeduct, m.otherDeduct ?? 0);
        if (m.tag === 1) {
          // Confirmed elsewhere: its figures and its withheld tax are final.
          if (m.gross === null || m.fiveOne === null || m.tax === null) throw new Problem(`${who(m)}的已确认工资缺少计算结果`);
          gross += m.gross;
          fiveOne += m.fiveOne;
          fixedTax += m.tax;
          continue;
        }
        let p: PersonFigures;
        try {
          p = ownFigures(m);
        } catch (err) {
          if (err instanceof Problem && !targetIds.has(m.id)) throw new Problem(`同月在${who(m)}的工资数据有误：${err.message}`);
          throw err;
        }
        gross += p.gross;
        fiveOne += p.fiveOne;
        floating.push({ row: m, p });
      }
      let result: ReturnType<typeof calculateCumulativeWithholding>;
      try {
        result = calculateCumulativeWithholding({
          monthIndex,
          previousMonths,
          current: { gross, fiveOne, deduct, otherDeduct },
          simplifiedBasicDeduction: members.some((m) => m.simplifiedDeduction === true || m.simplifiedDeduction === 1),
        });
      } catch (err) {
        if (err instanceof PayrollInputError) throw new Problem(err.messageZh);
        throw err;
      }
      const remaining = Math.max(0, result.tax - fixedTax);
      const shares = splitTax(
        remaining,
        floating.map((f) => f.p.gross - f.p.fiveOne),
      );
      floating.forEach((f, i) => {
        if (!targetIds.has(f.row.id)) return;
        const bonus = separateBonusOf(f.row);
        const bonusTax = bonus > 0 ? annualBonusTax(bonus) : 0;
        const realSalary = f.p.gross - f.p.fiveOne - shares[i] + bonus - bonusTax;
        if (realSalary < 0) {
          fail(f.row, '实发工资为负数（应发 − 五险一金 − 个税），请检查扣款');
          return;
        }
        figures.set(
          f.row.id,
          rowFigures(f.p, {
            tax: shares[i],
            bonusTax,
            deduct: f.row.deduct ?? 0,
            otherDeduct: f.row.otherDeduct ?? 0,
            realSalary,
            monthIndex,
            cumulativeIncome: result.cumulativeIncome,
            cumulativeTaxable: result.cumulativeTaxable,
            cumulativeTax: result.cumulativeTax,
            taxableThisMonth: result.taxableThisMonth,
          }),
        );
      });
    } catch (err) {
      if (!(err instanceof Problem)) throw err;
      for (const t of targets) {
        let message = err.message;
        try {
          ownFigures(t);
        } catch (own) {
          if (own instanceof Problem) message = own.message;
        }
        fail(t, message);
      }
    }
  }
  problems.sort((a, b) => a.id - b.id);
  return { figures, problems, unrecordedMonths };
}

/**
 * Separate taxation of the annual bonus: until 2027-12, and once per tax year for a person and withholding
 * agent (this month's rows at every client company and the other months' rows of the year, confirmed or not).
 */
function checkSeparateBonus(
  month: string,
  members: readonly SalaryRowData[],
  history: readonly LedgerRow[],
  carried: { companyName: string | null; month: string } | null,
): void {
  const here = members.filter((m) => separateBonusOf(m) > 0);
  if (here.length === 0) return;
  if (month > SEPARATE_BONUS_UNTIL) throw new Problem(`全年一次性奖金单独计税政策执行至2027年12月31日，${month}的奖金请选择并入当月工资计税`);
  if (here.length > 1) throw new Problem(`同月有${here.length}条单独计税的全年一次性奖金（${here.map(who).join('、')}），一个纳税年度只能单独计税一次`);
  const earlier = history.find((l) => separateBonusOf(l) > 0) ?? carried;
  if (earlier) throw new Problem(`全年一次性奖金单独计税一个纳税年度只能使用一次，${who(earlier)}已使用，本次请选择并入当月工资计税`);
}

const monthNumber = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;

/**
 * 任职受雇月份数 of a person with an entity in the tax year up to `month`: from the later of January and the
 * hire month to `month`; with an opening balance, its month count plus the months after it. At least the
 * confirmed earlier months + 1 (a hire date later than confirmed pay is a data error the count must survive).
 */
function monthsEmployed(month: string, members: readonly SalaryRowData[], opening: OpeningBalance | undefined, confirmedMonths: number): number {
  const january = `${month.slice(0, 4)}-01`;
  const hireMonths = members.map((m) => (m.inductionDate ?? '').slice(0, 7)).filter((d) => /^\d{4}-\d{2}$/.test(d));
  let n: number;
  if (opening) n = opening.months + monthNumber(month) - monthNumber(opening.throughMonth);
  else if (hireMonths.length) {
    // YYYY-MM months order as text: the earliest hire month, then the later of it and January
    const hired = [...hireMonths].sort()[0];
    n = monthNumber(month) - monthNumber([hired, january].sort()[1]) + 1;
  } else n = confirmedMonths + 1;
  return Math.min(12, Math.max(n, confirmedMonths + (opening ? 2 : 1)));
}

/** The carried ledger row as one earlier "month" of the cumulative method (its figures are sums already). */
function carriedMonth(c: YtdCarry): ConfirmedMonth {
  return { gross: c.gross, fiveOne: c.fiveOne, deduct: c.deduct, otherDeduct: c.otherDeduct, tax: c.tax };
}

/** An opening balance as one earlier "month" of the cumulative method. */
function openingMonth(o: OpeningBalance): ConfirmedMonth {
  const gross = o.cumulativeIncome - (o.cumulativeExemptIncome ?? 0);
  if (gross < 0) throw new Problem('期初累计数据有误：累计免税收入大于累计收入');
  return { gross, fiveOne: o.cumulativeSocial ?? 0, deduct: o.cumulativeSpecialAdditional ?? 0, otherDeduct: o.cumulativeOtherDeduct ?? 0, tax: o.cumulativeTaxWithheld };
}

/** Earlier confirmed months of the year (rows of a month added up), after checking the month order. */
function previousMonthsOf(history: readonly LedgerRow[], month: string): ConfirmedMonth[] {
  const byMonth = new Map<string, LedgerRow[]>();
  for (const l of history) {
    if (l.month > month) {
      if (l.tag === 1) throw new Problem(`已有更晚月份的已确认工资（${who(l)}），不能再计算更早的月份`);
      continue;
    }
    if (l.tag !== 1) throw new Problem(`${who(l)}的工资尚未确认，请按月份顺序先确认更早月份的工资`);
    if (l.gross === null || l.fiveOne === null || l.tax === null) throw new Problem(`${who(l)}的已确认工资缺少计算结果`);
    const rows = byMonth.get(l.month);
    if (rows) rows.push(l);
    else byMonth.set(l.month, [l]);
  }
  return [...byMonth.keys()].sort().map((k) => monthTotals(byMonth.get(k)!));
}

/**
 * One confirmed month of a person with a withholding agent from its rows at every client company: income, social
 * insurance and tax added up; 专项附加扣除 and 其他扣除 counted once in the month (the largest row's), as the
 * calculation counts them. Also what the year-to-date ledger adds for a month (ytdLedger.ts).
 */
export function monthTotals(rows: readonly Pick<LedgerRow, 'gross' | 'fiveOne' | 'deduct' | 'otherDeduct' | 'tax'>[]): ConfirmedMonth {
  const m = { gross: 0, fiveOne: 0, deduct: 0, otherDeduct: 0, tax: 0 };
  for (const l of rows) {
    m.gross += l.gross ?? 0;
    m.fiveOne += l.fiveOne ?? 0;
    m.deduct = Math.max(m.deduct, l.deduct ?? 0);
    m.otherDeduct = Math.max(m.otherDeduct, l.otherDeduct ?? 0);
    m.tax += l.tax ?? 0;
  }
  return m;
}

/** The figures compared when confirming: a stored row must equal a fresh calculation in all of them. */
export const VERIFIED_FIGURES = ['gross', 'yanglao', 'yiliao', 'shiye', 'gongjijin', 'fiveOne', 'deduct', 'otherDeduct', 'tax', 'bonusTax', 'realSalary', 'monthIndex', 'employerTotal'] as const;
