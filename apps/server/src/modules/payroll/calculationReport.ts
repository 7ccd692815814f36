import type { CalculationReportItem, ReportItemKind } from '@app/shared/payroll/calculationReport';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorCode, ErrorParams } from '@app/shared/errors/catalogue';
import type { Language } from '@app/shared/language';
import type { Db } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { renderFor, requestLanguage } from '../../core/errorLanguage.ts';
import { refAs } from '../../core/selectAs.ts';
import { type CompanyRef, loadVisibleCompany } from './companies.ts';
import { type UnmatchedReason, type UnmatchedTaxInput, unmatchedTaxInputs } from './inputMatching.ts';
import type { RowProblem } from '@app/shared/payroll';
import { FIELD_LABEL } from '@app/shared/payroll/rowProblem';
import { computeRows } from './monthCalculation.ts';
import { isConfirmed, loadCompanyMonthRows, SALARY_TABLE, salaryColumn } from './salaryStore.ts';

/**
 * What 计算 could not use (findings U1, U2, U7, U15): tax inputs and overtime rows of the month that reach no
 * salary row (专项附加扣除 or 期初累计数据 under a name that is not the withholding agent, an overtime row whose
 * ID card matches nobody), and the workers whose months employed this year include months without a recorded
 * salary (counted as months without income). The calculation answers with this list, the screen shows it until
 * it is resolved, and 确认 refuses while it is open unless the clerk says they checked it. Rows 计算 could not
 * calculate (a missing base, an invalid ratio...) are items too (issue 20 item 5): they stay uncalculated, and
 * 确认 refuses them whatever the tick, since it needs every row calculated.
 *
 * Kept nowhere: the read recomputes it (the tax-input queries and one calculation of the month without
 * writing, what 确认 does anyway), so it always describes the inputs as they are now and needs no table.
 */

export type { CalculationReportItem, ReportItemKind };

export interface CalculationReport {
  items: CalculationReportItem[];
}

/** The calculation's persons with months employed this year but no salary recorded (its `unrecordedMonths`). */
type Unrecorded = readonly { idCard: string; staffName: string | null; months: number }[];

const KIND_ORDER: Record<ReportItemKind, number> = { rowNotCalculated: 0, taxDeduction: 1, taxOpening: 2, staffExtra: 3, unrecordedMonths: 4 };

function item(kind: ReportItemKind, who: { staffName: string | null; idCard: string }, month: string, months: number | null, savedUnder: string | null, code: ErrorCode, params: ErrorParams, language: Language): CalculationReportItem {
  return { kind, staffName: who.staffName, idCard: who.idCard, month, months, savedUnder, field: null, code, reason: renderFor(code, language, params) };
}

/**
 * A row 计算 left uncalculated. The field's label and the engine's reason (a nested code with parameters) are
 * both rendered in the request's language.
 */
function notCalculatedItem(p: RowProblem, month: string, language: Language): CalculationReportItem {
  const who = { staffName: p.staffName, idCard: p.idCard };
  if (!p.field) return item('rowNotCalculated', who, month, null, null, 'PAYROLL_ROW_NOT_CALCULATED', { reason: p.reason }, language);
  const label = FIELD_LABEL[p.field] ?? p.field;
  return { ...item('rowNotCalculated', who, month, null, null, 'PAYROLL_ROW_FIELD_NOT_CALCULATED', { label, reason: p.reason }, language), field: p.field };
}

const KIND_OF_TABLE: Record<UnmatchedTaxInput['table'], ReportItemKind> = { taxDeduction: 'taxDeduction', taxOpening: 'taxOpening', accountsStaffExtra: 'staffExtra' };

const REASON_CODE: Record<UnmatchedReason, ErrorCode> = {
  AGENT_UNKNOWN: 'PAYROLL_INPUT_AGENT_UNKNOWN',
  STAFF_UNKNOWN: 'PAYROLL_INPUT_STAFF_UNKNOWN',
  STAFF_NOT_AT_AGENT: 'PAYROLL_INPUT_STAFF_NOT_AT_AGENT',
  COMPANY_MISSING: 'PAYROLL_INPUT_COMPANY_MISSING',
  STAFF_NOT_AT_COMPANY: 'PAYROLL_INPUT_STAFF_NOT_AT_COMPANY',
};

/** An input row no salary row reads, as a report item. */
function unmatchedItem(u: UnmatchedTaxInput, company: CompanyRef, month: string, language: Language): CalculationReportItem {
  const kind = KIND_OF_TABLE[u.table];
  const params = { agent: u.agent ?? '', expected: company.dispatchCompany ?? '-', idCard: u.idCard ?? '-', company: u.companyName ?? '' };
  const savedUnder = kind === 'staffExtra' ? (u.companyName ?? null) : u.agent;
  return item(kind, { staffName: u.name, idCard: u.idCard ?? '' }, u.month ?? month, null, savedUnder, REASON_CODE[u.reason], params, language);
}

/** The report of a company's month from the unmatched inputs (inputMatching.ts) and the calculation's unrecorded months. */
async function buildReport(db: Db, company: CompanyRef, month: string, unrecorded: Unrecorded, language: Language, problems: readonly RowProblem[] = []): Promise<CalculationReport> {
  const unmatched = await unmatchedTaxInputs(db, { companyId: company.id, month });
  const items = [
    ...problems.map((p) => notCalculatedItem(p, month, language)),
    ...unmatched.map((u) => unmatchedItem(u, company, month, language)),
    ...unrecorded.map((u) => item('unrecordedMonths', u, month, u.months, company.dispatchCompany, 'PAYROLL_UNRECORDED_MONTHS', { months: u.months }, language)),
  ];
  items.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.idCard.localeCompare(b.idCard));
  return { items };
}

/** What POST /calculate answers beside its message: built right after the calculation from its unrecorded months and the rows it could not calculate. */
export async function calculationReport(app: FastifyInstance, req: FastifyRequest, companyId: number, month: string, unrecorded: Unrecorded, problems: readonly RowProblem[] = []): Promise<CalculationReport> {
  const company = await loadVisibleCompany(app, req, app.ctx.db, companyId);
  return buildReport(app.ctx.db, company, month, unrecorded, requestLanguage(req.headers['accept-language']), problems);
}

/**
 * GET /report: the month's open items as they stand now. Empty for a confirmed month (confirmed over them, or
 * they were resolved) and before the first 计算 (the screen says what is missing only once it calculated).
 */
export async function readCalculationReport(app: FastifyInstance, req: FastifyRequest, companyId: number, month: string): Promise<CalculationReport> {
  const { db } = app.ctx;
  const company = await loadVisibleCompany(app, req, db, companyId);
  if (await isConfirmed(db, company.id, month)) return { items: [] };
  // before the first 计算 (no row has a calculate_time, even one 计算 left uncalculated) there is nothing to report
  const ran = await db
    .selectFrom(SALARY_TABLE)
    .select(refAs(salaryColumn('id'), 'id'))
    .where(salaryColumn('companyId'), '=', company.id)
    .where(salaryColumn('month'), '=', month)
    .where('calculate_time', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  if (!ran) return { items: [] };
  const rows = await loadCompanyMonthRows(db, company.id, month);
  // the rows that cannot be calculated as they are now, whether 计算 left them so or they were edited since
  const { unrecordedMonths, problems } = await computeRows(db, month, rows, { companyId: company.id, month });
  return buildReport(db, company, month, unrecordedMonths, requestLanguage(req.headers['accept-language']), problems);
}

/**
 * 确认's guard, inside its transaction after the fresh calculation: with open items and no acknowledgement the
 * month is not confirmed (409 PAYROLL_REPORT_UNACKNOWLEDGED with the count), so the dialog's tick is not cosmetic.
 */
export async function refuseUnacknowledged(trx: Db, company: CompanyRef, month: string, unrecorded: Unrecorded): Promise<void> {
  const { items } = await buildReport(trx, company, month, unrecorded, 'zh');
  if (items.length) throw new AppError('PAYROLL_REPORT_UNACKNOWLEDGED', { count: items.length });
}
