import type { Fen } from '@app/shared/payroll';
import type { Db } from '../../core/db.ts';
import { validationError } from '../../core/errors.ts';
import { yuanText } from './deductionCaps.ts';
import { currentChinaMonth } from './months.ts';
import { YTD_TABLE } from './ytdLedger.ts';

/**
 * The 60,000 rule (finding PB3, 国家税务总局公告2020年第19号): a withholding agent may deduct 60,000 from January of a
 * year for a worker it employed in every month of the previous year and paid at most 60,000 of wage income
 * (工资、薪金收入) in that year. The staff record's 适用6万元减除 is a yearly flag; setting it is accepted only when our
 * records show both for the year before the current one (China time), at the agent of the staff record's company:
 * - the months: those of the opening balance of that year (期初累计数据: its months employed, the latest ones up to
 *   its 截至月份) and the confirmed salary months of the year-to-date ledger after it;
 * - the income: the opening's 累计收入 plus the ledger's cumulative wage income after the opening's month.
 * Otherwise the save is refused with the months missing or the income. The calculation reads the flag as before.
 */

/** 60,000 yuan in fen. */
const INCOME_LIMIT: Fen = 6_000_000;

export interface SimplifiedDeductionEvidence {
  year: number;
  /** Months (YYYY-MM) of the year without an employment record at the agent. */
  missingMonths: string[];
  /** Wage income of the year at the agent, in fen. */
  income: Fen;
}

const monthOf = (year: number, m: number) => `${year}-${String(m).padStart(2, '0')}`;

/** What our records show about `idCard` at `agent` in `year`. */
export async function simplifiedDeductionEvidence(db: Db, agent: string, idCard: string, year: number): Promise<SimplifiedDeductionEvidence> {
  const covered = new Set<string>();
  let income = 0;
  const opening = await db
    .selectFrom('accounts_tax_opening')
    .select(['through_month', 'months', 'cumulative_income'])
    .where('dispatch_company', '=', agent)
    .where('id_card', '=', idCard)
    .where('tax_year', '=', year)
    .executeTakeFirst();
  let openingMonth = '';
  if (opening) {
    openingMonth = String(opening.through_month);
    const last = Number(openingMonth.slice(5, 7));
    // the opening says how many months, not which: the latest ones up to its month
    for (let m = Math.max(1, last - Number(opening.months) + 1); m <= last; m++) covered.add(monthOf(year, m));
    income += Number(opening.cumulative_income ?? 0);
  }
  const ledger = await db
    .selectFrom(YTD_TABLE)
    .select(['month', 'gross'])
    .where('dispatch_company', '=', agent)
    .where('id_card', '=', idCard)
    .where('month', '>=', monthOf(year, 1))
    .where('month', '<=', monthOf(year, 12))
    .orderBy('month')
    .execute();
  // the ledger is cumulative: the year's last row less the last row the opening already counts
  let before = 0;
  let latest = 0;
  for (const r of ledger) {
    covered.add(r.month);
    if (r.month <= openingMonth) before = Number(r.gross);
    latest = Number(r.gross);
  }
  income += latest - before;
  const missingMonths: string[] = [];
  for (let m = 1; m <= 12; m++) if (!covered.has(monthOf(year, m))) missingMonths.push(monthOf(year, m));
  return { year, missingMonths, income };
}

/** Months as short text: runs of consecutive months as "first–last", separated by ", ". */
export function monthRuns(months: readonly string[]): string {
  const runs: string[][] = [];
  for (const m of months) {
    const run = runs[runs.length - 1];
    const prev = run?.[run.length - 1];
    if (prev && prev.slice(0, 4) === m.slice(0, 4) && Number(m.slice(5, 7)) === Number(prev.slice(5, 7)) + 1) run.push(m);
    else runs.push([m]);
  }
  return runs.map((r) => (r.length === 1 ? r[0] : `${r[0]}–${r[r.length - 1]}`)).join(', ');
}

const truthy = (v: unknown) => v === true || v === 1 || v === '1';

/**
 * Staff writes that set 适用6万元减除: refused (on the flag, with the reason) unless the records of the previous year
 * at the agent of the staff record's company qualify. `now` is for tests of another year.
 */
export async function checkSimplifiedDeduction(db: Db, values: Record<string, unknown>, existing?: Record<string, unknown>, now = Date.now()): Promise<void> {
  if (!truthy(values.simplifiedDeduction)) return;
  const merged = { ...existing, ...values };
  const company = await db.selectFrom('accounts_company').select('dispatch_company').where('id', '=', Number(merged.companyId)).executeTakeFirst();
  const agent = String(company?.dispatch_company ?? '');
  const idCard = String(merged.idCard ?? '').trim().toUpperCase();
  const year = Number(currentChinaMonth(now).slice(0, 4)) - 1;
  const evidence = await simplifiedDeductionEvidence(db, agent, idCard, year);
  if (evidence.missingMonths.length) {
    throw validationError({ simplifiedDeduction: { code: 'SIMPLIFIED_DEDUCTION_MONTHS_MISSING', params: { year, agent, months: monthRuns(evidence.missingMonths) } } });
  }
  if (evidence.income > INCOME_LIMIT) {
    throw validationError({ simplifiedDeduction: { code: 'SIMPLIFIED_DEDUCTION_INCOME_OVER', params: { year, agent, income: yuanText(evidence.income) } } });
  }
}
