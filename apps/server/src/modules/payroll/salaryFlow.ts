import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../core/db.ts';
import { isUniqueViolation, nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { type MonthCalculationResult, type RowFigures, type RowProblem, VERIFIED_FIGURES } from '@app/shared/payroll';
import type { CodedMessage } from '@app/shared/errors/catalogue';
import type { Language } from '@app/shared/language';
import { renderFor } from '../../core/errorLanguage.ts';
import { type CompanyRef, loadVisibleCompany } from './companies.ts';
import { refuseUnacknowledged } from './calculationReport.ts';
import { recordReconfirm } from './salaryCorrections.ts';
import {
  type ClerkAmounts,
  ensureCompanyMonth,
  isConfirmed,
  loadCompanyMonthRows,
  loadPersonMonthRows,
  lockCompanyMonth,
  type PersonFilter,
  SALARY_TABLE,
  salaryColumn,
  type StoredSalaryRow,
  clearFigures,
  writeFigures,
} from './salaryStore.ts';
import { refreshLedgerMonth } from './ytdLedger.ts';
import { computeRows } from './monthCalculation.ts';
import { refAs } from '../../core/selectAs.ts';

/**
 * The monthly salary flow of one client company: generate (salaryGeneration.ts: snapshot the payable staff) -> calculate ->
 * confirm (lock). Every step runs in one transaction under the lock of the company's month (the
 * accounts_salary_batch row), so steps of the same month never interleave; a failed step writes nothing.
 */

const S = salaryColumn;

/** One row's problem as a nested message: the person, and the calculation's reason (a code with parameters). */
const rowProblemMessage = (p: RowProblem): CodedMessage => ({ code: 'SALARY_ROW_PROBLEM', params: { name: p.staffName ?? '', idCard: p.idCard, problem: p.reason } });

/**
 * A 400 (409 when 确认 finds them) listing the rows that cannot be calculated: all of them in fieldErrors, the
 * first ten in the message, each reason rendered in the answer's language.
 */
export function rowProblemsError(problems: RowProblem[], atConfirm = false): AppError {
  const fieldErrors = Object.fromEntries(problems.map((p) => [`row${p.id}`, rowProblemMessage(p)]));
  const more = problems.length > 10;
  const code = atConfirm ? (more ? 'SALARY_ROWS_AT_CONFIRM_MORE' : 'SALARY_ROWS_AT_CONFIRM') : more ? 'SALARY_ROWS_MORE' : 'SALARY_ROWS';
  return new AppError(code, { count: problems.length, rows: { list: problems.slice(0, 10).map(rowProblemMessage), joiner: 'semicolon' } }, fieldErrors);
}

/** The names (or ID cards) of the first ten rows, and whether there are more: the 有N条…（names等） messages. */
function namesOf(rows: StoredSalaryRow[]): { params: { count: number; names: string }; more: boolean } {
  return { params: { count: rows.length, names: rows.slice(0, 10).map((r) => r.staffName ?? r.idCard).join('、') }, more: rows.length > 10 };
}

/** Runs `fn` in one transaction holding the lock of the company's month (created when missing). */
export async function inMonthLock<T>(app: FastifyInstance, company: CompanyRef, month: string, fn: (trx: Db) => Promise<T>): Promise<T> {
  const { db, dialect } = app.ctx;
  await ensureCompanyMonth(db, dialect, company.id, month);
  return db.transaction().execute(async (trx) => {
    await lockCompanyMonth(trx, dialect, company.id, month);
    return fn(trx);
  });
}

/** Runs the ledger calculation for `rows` (already loaded in the transaction) and returns figures or throws. */
export async function computeFigures(
  trx: Db,
  month: string,
  rows: StoredSalaryRow[],
  who: PersonFilter,
  atConfirm = false,
): Promise<{ figures: Map<number, RowFigures>; unrecordedMonths: MonthCalculationResult['unrecordedMonths'] }> {
  const { figures, problems, unrecordedMonths } = await computeRows(trx, month, rows, who);
  if (problems.length) throw rowProblemsError(problems, atConfirm);
  return { figures, unrecordedMonths };
}

/** What 计算 answers, in `language`: the count, and the workers counted with months that have no salary nor opening figures. */
export function calculateMessage(count: number, unrecorded: MonthCalculationResult['unrecordedMonths'], notCalculated: number, language: Language): string {
  if (notCalculated) return renderFor('SALARY_CALCULATE_PARTLY_DONE', language, { count, failed: notCalculated });
  if (!unrecorded.length) return renderFor('SALARY_CALCULATE_DONE', language, { count });
  const names = unrecorded.slice(0, 5).map((u): CodedMessage => ({ code: 'SALARY_UNRECORDED_PERSON', params: { name: u.staffName ?? u.idCard, months: u.months } }));
  const code = unrecorded.length > 5 ? 'SALARY_CALCULATE_UNRECORDED_MORE_DONE' : 'SALARY_CALCULATE_UNRECORDED_DONE';
  return renderFor(code, language, { count, people: unrecorded.length, names: { list: names, joiner: 'enumeration' } });
}

/**
 * 计算: calculates every row of the month it can with the ledger rules and writes their figures; a row it cannot
 * (a missing base, an invalid ratio, a rate error...) is left uncalculated, its old figures cleared, and its
 * problem returned for the report (issue 20 item 5). 确认 stays refused while any row is uncalculated.
 */
export async function calculateSalary(
  app: FastifyInstance,
  req: FastifyRequest,
  companyId: number,
  month: string,
): Promise<{ count: number; problems: RowProblem[]; unrecordedMonths: MonthCalculationResult['unrecordedMonths'] }> {
  const company = await loadVisibleCompany(app, req, app.ctx.db, companyId);
  return inMonthLock(app, company, month, async (trx) => {
    if (await isConfirmed(trx, company.id, month)) throw new AppError('SALARY_LOCKED');
    const rows = await loadCompanyMonthRows(trx, company.id, month);
    if (rows.length === 0) throw new AppError('SALARY_NOTHING_TO_CALCULATE');
    const { figures, problems, unrecordedMonths } = await computeRows(trx, month, rows, { companyId: company.id, month });
    const done = rows.filter((r) => figures.has(r.id));
    await writeFigures(
      trx,
      app.ctx.dialect,
      done.map((r) => ({ id: r.id, figures: figures.get(r.id)! })),
    );
    await clearFigures(trx, app.ctx.dialect, rows.filter((r) => !figures.has(r.id)).map((r) => r.id));
    return { count: done.length, problems, unrecordedMonths };
  });
}

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/**
 * 确认: needs rows, all calculated and none changed since, and figures that a fresh calculation reproduces
 * (the ledger may have moved: an earlier month or another client company of the same person confirmed);
 * then writes the single confirm log (unique per company and month) and locks the rows.
 */
export async function confirmSalary(app: FastifyInstance, req: FastifyRequest, companyId: number, month: string, acknowledgedReport = false): Promise<number> {
  const company = await loadVisibleCompany(app, req, app.ctx.db, companyId);
  try {
    return await inMonthLock(app, company, month, async (trx) => {
      if (await isConfirmed(trx, company.id, month)) throw new AppError('SALARY_CONFIRMED');
      const rows = await loadCompanyMonthRows(trx, company.id, month);
      if (rows.length === 0) throw new AppError('SALARY_NOTHING_TO_CONFIRM');
      const stale = rows.filter((r) => !r.calculated);
      if (stale.length) {
        const { params, more } = namesOf(stale);
        throw new AppError(more ? 'SALARY_NOT_CALCULATED_MORE' : 'SALARY_NOT_CALCULATED', params);
      }
      const { figures, unrecordedMonths } = await computeFigures(trx, month, rows, { companyId: company.id, month }, true);
      const changed = rows.filter((r) => {
        const f = figures.get(r.id)!;
        return VERIFIED_FIGURES.some((k) => !same(r[k], f[k]));
      });
      if (changed.length) {
        const { params, more } = namesOf(changed);
        throw new AppError(more ? 'SALARY_STALE_MORE' : 'SALARY_STALE', params);
      }
      // inputs the calculation could not use, months without pay records: confirmed over only when acknowledged (U2)
      if (!acknowledgedReport) await refuseUnacknowledged(trx, company, month, unrecordedMonths);
      await trx
        .insertInto('accounts_confirm_log')
        .values({
          company_id: company.id,
          company_name: company.companyName,
          month,
          row_count: rows.length,
          username: req.user?.username ?? null,
          cname: req.user?.cname ?? null,
          create_time: nowIso(),
        })
        .execute();
      await trx.updateTable(SALARY_TABLE).set({ [S('tag')]: 1 }).where(S('companyId'), '=', company.id).where(S('month'), '=', month).execute();
      // the year-to-date ledger of these workers gets this month (what the later months' calculations read)
      await refreshLedgerMonth(trx, app.ctx.dialect, company.id, month);
      // a month confirmed again after 反确认: the audit row gets the figures now confirmed
      await recordReconfirm(trx, company.id, month, rows, req.user?.username ?? null);
      return rows.length;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('SALARY_CONFIRMED');
    throw err;
  }
}

/**
 * Inline edit of overtime/deduction (fen): refuses locked months, then recalculates the person's rows of this
 * company and month with the same ledger rules and writes them with the new amounts, in `trx` (the caller's
 * transaction). A row that cannot be calculated with the new amounts is a 400 and nothing is written.
 */
export async function editAdjustments(
  app: FastifyInstance,
  trx: Db,
  existing: { id: number; companyId: number; month: string; idCard: string },
  change: Partial<ClerkAmounts> & { backPayMonth?: string | null; backDeductMonth?: string | null },
): Promise<void> {
  await lockCompanyMonth(trx, app.ctx.dialect, existing.companyId, existing.month);
  if (await isConfirmed(trx, existing.companyId, existing.month)) throw new AppError('SALARY_LOCKED');
  const person = await loadPersonMonthRows(trx, existing.companyId, existing.month, existing.idCard);
  const target = person.find((r) => r.id === existing.id);
  if (!target) throw new AppError('SALARY_ROW_GONE');
  if (target.tag === 1) throw new AppError('SALARY_LOCKED');
  const rows: StoredSalaryRow[] = person.map((r) => (r.id === target.id ? { ...r, ...change } : r));
  const { figures } = await computeFigures(trx, existing.month, rows, { idCards: [target.idCard] });
  const amounts = (r: StoredSalaryRow): ClerkAmounts => ({
    jiaban: r.jiaban ?? 0,
    koukuan: r.koukuan ?? 0,
    bonus: r.bonus ?? 0,
    bonusMerged: r.bonusMerged ? 1 : 0,
    backPay: r.backPay ?? 0,
    backDeduct: r.backDeduct ?? 0,
    severance: r.severance ?? 0,
  });
  await writeFigures(
    trx,
    app.ctx.dialect,
    rows.map((r) => ({ id: r.id, figures: figures.get(r.id)!, adjust: amounts(r) })),
  );
  // Remembered so that generating the month again keeps the clerk's amounts (P5).
  await trx.updateTable(SALARY_TABLE).set({ [S('adjustEdited')]: 1 }).where(S('id'), '=', target.id).execute();
}

/** Refuses deleting rows of a confirmed month (or locked rows); takes the locks of the months involved. */
export async function assertRowsDeletable(app: FastifyInstance, trx: Db, ids: number[]): Promise<void> {
  const rows = (await trx
    .selectFrom(SALARY_TABLE)
    .select([refAs(S('companyId'), 'companyId'), refAs(S('month'), 'month'), refAs(S('tag'), 'tag')])
    .where(S('id'), 'in', ids)
    .execute()) as { companyId: number; month: string; tag: number }[];
  const months = [...new Set(rows.map((r) => `${Number(r.companyId)}|${r.month}`))].sort();
  for (const m of months) {
    const [cid, month] = m.split('|');
    await lockCompanyMonth(trx, app.ctx.dialect, Number(cid), month);
    if (await isConfirmed(trx, Number(cid), month)) throw new AppError('SALARY_LOCKED_DELETE');
  }
  if (rows.some((r) => Number(r.tag) === 1)) throw new AppError('SALARY_LOCKED_DELETE');
}
