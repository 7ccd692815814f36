import { PayrollInputError } from './errors.ts';
import { type Fen, PayrollDecimal, roundFen, TAX_ROUNDING } from './money.ts';
import { assertFen, assertMonthIndex, optionalFen } from './validate.ts';

/** One bracket: applies while the taxable amount is <= `upTo` (lower edge exclusive); amounts in fen. */
export interface TaxBracket {
  readonly upTo: Fen;
  readonly rate: string;
  readonly quickDeduction: Fen;
}

const Y = 100; // fen per yuan, to write the statutory tables in yuan

function table(rows: ReadonlyArray<readonly [number, string, number]>): readonly TaxBracket[] {
  return Object.freeze(rows.map(([upTo, rate, quick]) => Object.freeze({ upTo: upTo * Y, rate, quickDeduction: quick * Y })));
}

/** 预扣率表一 / comprehensive-income annual table, used by the cumulative withholding method. */
export const ANNUAL_TAX_TABLE = table([
  [36_000, '0.03', 0],
  [144_000, '0.10', 2_520],
  [300_000, '0.20', 16_920],
  [420_000, '0.25', 31_920],
  [660_000, '0.30', 52_920],
  [960_000, '0.35', 85_920],
  [Number.POSITIVE_INFINITY, '0.45', 181_920],
]);

/** Monthly table (non-residents; annual one-time bonus looked up at bonus / 12). */
export const MONTHLY_TAX_TABLE = table([
  [3_000, '0.03', 0],
  [12_000, '0.10', 210],
  [25_000, '0.20', 1_410],
  [35_000, '0.25', 2_660],
  [55_000, '0.30', 4_410],
  [80_000, '0.35', 7_160],
  [Number.POSITIVE_INFINITY, '0.45', 15_160],
]);

/** 预扣率表二 for residents' labour remuneration (劳务报酬), applied per payment. */
export const LABOUR_REMUNERATION_TAX_TABLE = table([
  [20_000, '0.20', 0],
  [50_000, '0.30', 2_000],
  [Number.POSITIVE_INFINITY, '0.40', 7_000],
]);

/** Statutory basic deduction (减除费用) per month employed: 5 000 yuan. */
export const BASIC_DEDUCTION_PER_MONTH: Fen = 5_000 * Y;
/** STA 2020 No.19: flat 60 000 yuan basic deduction from January for eligible staff. */
export const SIMPLIFIED_ANNUAL_BASIC_DEDUCTION: Fen = 60_000 * Y;

const LABOUR_FLAT_EXPENSE_LIMIT: Fen = 4_000 * Y; // income up to this: minus 800 yuan; above: minus 20%
const LABOUR_FLAT_EXPENSE: Fen = 800 * Y;
const LABOUR_TAXABLE_SHARE = new PayrollDecimal('0.8');

// Pre-parsed rates so that the hot path allocates only the product.
const compiled = new WeakMap<readonly TaxBracket[], readonly PayrollDecimal[]>();
function ratesOf(t: readonly TaxBracket[]): readonly PayrollDecimal[] {
  let r = compiled.get(t);
  if (r === undefined) {
    r = t.map((b) => new PayrollDecimal(b.rate));
    compiled.set(t, r);
  }
  return r;
}

/** `amount × rate − quick deduction` for the bracket of `amount / lookupScale`, half-up to the fen; 0 when amount <= 0. */
export function taxByTable(t: readonly TaxBracket[], amount: Fen | PayrollDecimal, lookupScale = 1): Fen {
  const dec = typeof amount === 'number' ? null : amount;
  if (dec === null ? (amount as number) <= 0 : dec.lte(0)) return 0;
  const rates = ratesOf(t);
  let i = 0;
  // amount / lookupScale <= upTo  <=>  amount <= upTo × lookupScale (avoids dividing)
  while (i < t.length - 1 && (dec === null ? (amount as number) > t[i].upTo * lookupScale : dec.gt(t[i].upTo * lookupScale))) i++;
  return roundFen(rates[i].times(amount).minus(t[i].quickDeduction), TAX_ROUNDING);
}

/** Tax on a cumulative taxable income by the annual table (the cumulative-method figure C). */
export function taxByAnnualTable(cumulativeTaxable: Fen): Fen {
  assertFen(cumulativeTaxable, 'cumulativeTaxable', true);
  return taxByTable(ANNUAL_TAX_TABLE, cumulativeTaxable);
}

/** Tax on one month's taxable income by the monthly table. */
export function taxByMonthlyTable(taxable: Fen): Fen {
  assertFen(taxable, 'taxable', true);
  return taxByTable(MONTHLY_TAX_TABLE, taxable);
}

/** Separate tax on an annual one-time bonus (财税〔2018〕164号): bonus × rate − quick, bracket found at bonus / 12. */
export function annualBonusTax(bonus: Fen): Fen {
  assertFen(bonus, 'bonus');
  return taxByTable(MONTHLY_TAX_TABLE, bonus, 12);
}

/** Withholding on one labour-remuneration payment: minus 800 yuan (income <= 4 000) or 20%, then 预扣率表二. */
export function labourRemunerationTax(income: Fen): Fen {
  assertFen(income, 'income');
  const taxable = income <= LABOUR_FLAT_EXPENSE_LIMIT ? income - LABOUR_FLAT_EXPENSE : LABOUR_TAXABLE_SHARE.times(income);
  return taxByTable(LABOUR_REMUNERATION_TAX_TABLE, taxable);
}

/** One earlier, confirmed pay month of this tax year at this withholding entity (rows of the month summed). */
export interface ConfirmedMonth {
  readonly gross: Fen;
  readonly fiveOne: Fen;
  readonly deduct: Fen;
  readonly otherDeduct?: Fen;
  /** Tax withheld in that month. */
  readonly tax: Fen;
}

/** This month's figures (all client rows of the month summed). */
export interface MonthFigures {
  readonly gross: Fen;
  readonly fiveOne: Fen;
  readonly deduct?: Fen;
  readonly otherDeduct?: Fen;
}

/** Input of the cumulative withholding method (国家税务总局公告2018年第61号 art.6). */
export interface CumulativeWithholdingInput {
  /** Months employed by this withholding entity this tax year, up to and including this month (1..12). */
  readonly monthIndex: number;
  readonly previousMonths?: readonly ConfirmedMonth[];
  readonly current: MonthFigures;
  /** STA 2020 No.19: deduct a flat 60 000 yuan from January instead of 5 000 × monthIndex. */
  readonly simplifiedBasicDeduction?: boolean;
}

/** Result of the cumulative method, in fen. */
export interface CumulativeWithholdingResult {
  /** This month's share of cumulativeTaxable (may be negative); the months' values add up to cumulativeTaxable. */
  readonly taxableThisMonth: Fen;
  readonly cumulativeIncome: Fen;
  readonly cumulativeBasicDeduction: Fen;
  /** May be negative (carried forward, never refunded by the employer). */
  readonly cumulativeTaxable: Fen;
  /** C: annual-table tax on max(0, cumulativeTaxable), half-up to the fen. */
  readonly cumulativeTax: Fen;
  readonly withheldBefore: Fen;
  /** max(0, cumulativeTax − withheldBefore). */
  readonly tax: Fen;
}

function basicDeduction(months: number, simplified: boolean): Fen {
  if (months <= 0) return 0;
  return simplified ? SIMPLIFIED_ANNUAL_BASIC_DEDUCTION : BASIC_DEDUCTION_PER_MONTH * months;
}

function safeSum(value: number, field: string): Fen {
  if (!Number.isSafeInteger(value)) {
    throw new PayrollInputError(field, 'PAYROLL_INPUT_CUMULATIVE_RANGE', { field });
  }
  return value;
}

/** This month's IIT by the cumulative withholding method; never negative (暂不退税). */
export function calculateCumulativeWithholding(input: CumulativeWithholdingInput): CumulativeWithholdingResult {
  const n = input.monthIndex;
  assertMonthIndex(n);
  const previous = input.previousMonths ?? [];
  if (!Array.isArray(previous) || previous.length > n - 1) {
    throw new PayrollInputError('previousMonths', 'PAYROLL_INPUT_PREVIOUS_MONTHS', { max: n - 1 });
  }
  const simplified = input.simplifiedBasicDeduction === true;
  let income = 0;
  let deductions = 0; // 专项扣除 + 专项附加扣除 + 其他扣除
  let withheld = 0;
  for (let i = 0; i < previous.length; i++) {
    const m = previous[i];
    const f = `previousMonths[${i}]`;
    assertFen(m.gross, `${f}.gross`);
    assertFen(m.fiveOne, `${f}.fiveOne`);
    assertFen(m.deduct, `${f}.deduct`);
    assertFen(m.tax, `${f}.tax`);
    income += m.gross;
    deductions += m.fiveOne + m.deduct + optionalFen(m.otherDeduct, `${f}.otherDeduct`);
    withheld += m.tax;
  }
  const c = input.current;
  assertFen(c?.gross, 'gross');
  assertFen(c.fiveOne, 'fiveOne');
  const ownDeductions = c.fiveOne + optionalFen(c.deduct, 'deduct') + optionalFen(c.otherDeduct, 'otherDeduct');
  income = safeSum(income + c.gross, 'gross');
  deductions = safeSum(deductions + ownDeductions, 'deduct');
  withheld = safeSum(withheld, 'tax');

  const cumulativeBasicDeduction = basicDeduction(n, simplified);
  const cumulativeTaxable = income - cumulativeBasicDeduction - deductions;
  const cumulativeTax = taxByTable(ANNUAL_TAX_TABLE, cumulativeTaxable);
  const taxableThisMonth = c.gross - (cumulativeBasicDeduction - basicDeduction(n - 1, simplified)) - ownDeductions;
  const tax = cumulativeTax > withheld ? cumulativeTax - withheld : 0;
  return { taxableThisMonth, cumulativeIncome: income, cumulativeBasicDeduction, cumulativeTaxable, cumulativeTax, withheldBefore: withheld, tax };
}
