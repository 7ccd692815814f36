import { taxByAnnualTable } from './incomeTax.ts';
import type { Fen } from './money.ts';
import { RateError, type RateBook } from './rateBook.ts';
import { FIELD_LABEL, RowDataProblem } from './rowProblem.ts';
import type { SalaryRowData } from './salaryRows.ts';

/**
 * Pay items beyond the month's wages (issue 20 item 7, finding PB6).
 *
 * 补发 / 补扣 (back pay and a deduction after the fact) refer to an earlier month but are wages of the month they are
 * paid in (国家税务总局公告2018年第61号: withholding follows the month of payment): they enter 应发 and the cumulative
 * method of the current month, each on its own line with the month it refers to.
 *
 * 经济补偿金 (severance on ending the employment, 财税〔2018〕164号 第五条第（一）项): the part up to 3 × the local average
 * wage of the previous year (当地上年职工平均工资) is exempt; the part above it is not added to the year's comprehensive
 * income and is taxed on its own with the comprehensive-income rate table (综合所得税率表, the annual table): tax =
 * excess × rate − quick deduction, no basic deduction. payroll-rules.md is silent on the detail, so the notice's text is
 * followed (the excess is not spread over months). Like the separately taxed bonus it stays out of 应发 and the ledger,
 * its tax is its own line, and 实发 adds the severance less that tax.
 * The average wage is dated data: the rate dictionary version in force in the month (rates.ts, `averageWageAnnual`,
 * yuan per year), so a new year's figure is a new version of the dictionary, not a release.
 */

/** The exempt part of 经济补偿金 is up to this many times the local average annual wage. */
export const SEVERANCE_EXEMPT_MULTIPLE = 3;

/** The largest severance a row takes, in fen (10 000 000 yuan, as the annual bonus). */
export const SEVERANCE_LIMIT_FEN = 1_000_000_000;

export interface SeveranceFigures {
  severance: Fen;
  /** The exempt part (≤ 3 × the local average annual wage). */
  exempt: Fen;
  /** The separate tax on the part above it (annual table). */
  tax: Fen;
}

const NONE: SeveranceFigures = { severance: 0, exempt: 0, tax: 0 };

/** 经济补偿金 of a row: its exempt part and the separate tax on the rest (throws RowDataProblem). */
export function severanceOf(row: Pick<SalaryRowData, 'severance' | 'censusType'>, rates: RateBook): SeveranceFigures {
  const severance = row.severance ?? 0;
  const named = { label: FIELD_LABEL.severance, field: 'severance' };
  if (!Number.isSafeInteger(severance) || severance < 0) throw new RowDataProblem('PAYROLL_ROW_AMOUNT_INVALID', named);
  if (severance === 0) return NONE;
  if (severance > SEVERANCE_LIMIT_FEN) throw new RowDataProblem('PAYROLL_ROW_AMOUNT_TOO_LARGE', { ...named, limit: SEVERANCE_LIMIT_FEN / 100 });
  const version = row.censusType ? rates.get(row.censusType) : undefined;
  if (version === undefined) throw new RowDataProblem('PAYROLL_SEVERANCE_NO_RATES');
  if (version instanceof RateError) throw RowDataProblem.of(version.reason);
  const average = version.averageWageAnnual ?? null;
  if (average === null) {
    throw new RowDataProblem('PAYROLL_SEVERANCE_NO_AVERAGE_WAGE', { dict: version.dictName });
  }
  const exempt = Math.min(severance, SEVERANCE_EXEMPT_MULTIPLE * average);
  return { severance, exempt, tax: taxByAnnualTable(severance - exempt) };
}
