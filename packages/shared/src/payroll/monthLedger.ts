import type { CodedMessage } from '../errors/catalogue.ts';
import type { ConfirmedMonth } from './incomeTax.ts';
import type { Fen } from './money.ts';
import { separateBonusOf } from './rowFigures.ts';
import { RowDataProblem } from './rowProblem.ts';
import { LABOUR_TAXES_TYPE, type LedgerRow, type OpeningBalance, SEPARATE_BONUS_UNTIL, type SalaryRowData, type YtdCarry } from './salaryRows.ts';

/**
 * The earlier months of a person's tax year with a withholding agent, as the cumulative method reads them:
 * confirmed months in order, the carried year-to-date row, opening balances, months employed, and the once-a-year
 * check of the separately taxed annual bonus. See calculateMonth.ts for the rules.
 */

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
export const byCompanyThenId = (a: SalaryRowData, b: SalaryRowData) => a.companyId - b.companyId || a.id - b.id;
/** A row named by its client company and month, as a nested message (a row of no known company is 其他单位's). */
export const who = (row: { companyName: string | null; month: string }): CodedMessage =>
  row.companyName === null ? { code: 'PAYROLL_ROW_WHO_OTHER', params: { month: row.month } } : { code: 'PAYROLL_ROW_WHO', params: { company: row.companyName, month: row.month } };

/**
 * Separate taxation of the annual bonus: until 2027-12, and once per tax year for a person and withholding
 * agent (this month's rows at every client company and the other months' rows of the year, confirmed or not).
 */
export function checkSeparateBonus(
  month: string,
  members: readonly SalaryRowData[],
  history: readonly LedgerRow[],
  carried: { companyName: string | null; month: string } | null,
): void {
  const here = members.filter((m) => separateBonusOf(m) > 0);
  if (here.length === 0) return;
  if (month > SEPARATE_BONUS_UNTIL) throw new RowDataProblem('PAYROLL_SEPARATE_BONUS_ENDED', { month });
  if (here.length > 1) throw new RowDataProblem('PAYROLL_SEPARATE_BONUS_TWICE_IN_MONTH', { count: here.length, rows: { list: here.map(who), joiner: 'enumeration' } });
  const earlier = history.find((l) => separateBonusOf(l) > 0) ?? carried;
  if (earlier) throw new RowDataProblem('PAYROLL_SEPARATE_BONUS_USED', { who: who(earlier) });
}

const monthNumber = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;

/**
 * 任职受雇月份数 of a person with an entity in the tax year up to `month`: from the later of January and the
 * hire month to `month`; with an opening balance, its month count plus the months after it. At least the
 * confirmed earlier months + 1 (a hire date later than confirmed pay is a data error the count must survive).
 */
export function monthsEmployed(month: string, members: readonly SalaryRowData[], opening: OpeningBalance | undefined, confirmedMonths: number): number {
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
export function carriedMonth(c: YtdCarry): ConfirmedMonth {
  return { gross: c.gross, fiveOne: c.fiveOne, deduct: c.deduct, otherDeduct: c.otherDeduct, tax: c.tax };
}

/** An opening balance as one earlier "month" of the cumulative method. */
export function openingMonth(o: OpeningBalance): ConfirmedMonth {
  const gross = o.cumulativeIncome - (o.cumulativeExemptIncome ?? 0);
  if (gross < 0) throw new RowDataProblem('PAYROLL_OPENING_TAX_FREE_OVER');
  return { gross, fiveOne: o.cumulativeSocial ?? 0, deduct: o.cumulativeSpecialAdditional ?? 0, otherDeduct: o.cumulativeOtherDeduct ?? 0, tax: o.cumulativeTaxWithheld };
}

/** Earlier confirmed months of the year (rows of a month added up), after checking the month order. */
export function previousMonthsOf(history: readonly LedgerRow[], month: string): ConfirmedMonth[] {
  const byMonth = new Map<string, LedgerRow[]>();
  for (const l of history) {
    if (l.month > month) {
      if (l.tag === 1) throw new RowDataProblem('PAYROLL_LATER_MONTH_CONFIRMED', { who: who(l) });
      continue;
    }
    if (l.tag !== 1) throw new RowDataProblem('PAYROLL_EARLIER_MONTH_UNCONFIRMED', { who: who(l) });
    if (l.gross === null || l.fiveOne === null || l.tax === null) throw new RowDataProblem('PAYROLL_CONFIRMED_WITHOUT_FIGURES', { who: who(l) });
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

