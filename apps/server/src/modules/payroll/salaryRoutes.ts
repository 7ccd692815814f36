import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { calculateSalary as calculateSalaryContract, confirmSalary as confirmSalaryContract, generateSalary as generateSalaryContract, salaryCalculationReport, salaryMonthSummary } from '@app/shared/contracts/salary';
import { type ConfirmLogRow, exportSalaryReport, listConfirmLog } from '@app/shared/contracts/salaryRecords';
import { type FieldDef, writableFields } from '@app/shared/resource';
import { confirmLogResource, salaryResource } from '@app/shared/resources/salary';
import type { FieldMessage } from '@app/shared/errors/zodIssues';
import { AppError, validationError } from '../../core/errors.ts';
import { renderFor, requestLanguage } from '../../core/errorLanguage.ts';
import { applyFilters, parsePaging, sortableColumns } from '../../crud/listQuery.ts';
import { countOf } from '../../crud/pagedQuery.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { registerResource } from '../../crud/registerResource.ts';
import { rowToApi, yuanToFenExact } from '../../crud/rowMapping.ts';
import { loadVisibleCompany, whereCompanyVisible } from './companies.ts';
import { assertNotFutureMonth, parseCompanyMonth } from './months.ts';
import { assertRowsDeletable, calculateMessage, calculateSalary, confirmSalary, editAdjustments } from './salaryFlow.ts';
import { generateMessage, generateSalary } from './salaryGeneration.ts';
import { type ClerkAmounts, isConfirmed, lockCompanyMonth } from './salaryStore.ts';
import { monthSummary } from './monthSummary.ts';
import { sendSalaryReport } from './salaryReport.ts';
import { calculationReport, readCalculationReport } from './calculationReport.ts';

const ADJUSTABLE = new Set(['jiaban', 'koukuan', 'bonus', 'bonusMerged', 'backPay', 'backPayMonth', 'backDeduct', 'backDeductMonth', 'severance']);
// The months 补发 and 补扣 refer to: text, written by the generic update after the recalculation.
const REFERRED_MONTHS = ['backPayMonth', 'backDeductMonth'] as const;
const writable: FieldDef[] = writableFields(salaryResource);

/** Monthly salary: the generic list/get/create/update/delete with the flow's rules, the three steps, the log. */
export function registerSalaryRoutes(app: FastifyInstance): void {
  registerResource(app, salaryResource, {
    scope: (req, qb) => whereCompanyVisible(app, req, qb, `${salaryResource.table}.company_id`),
    beforeWrite: async (values, { req, db, mode, existing }) => {
      if (mode === 'create') {
        await prepareManualRow(app, req, db, values);
        return;
      }
      // Inline edit: only the clerk's amounts change (加班费, 扣款, the annual bonus and its tax choice); the row
      // is recalculated at once.
      const ex = existing as Record<string, unknown>;
      for (const f of writable) {
        if (ADJUSTABLE.has(f.name) || !(f.name in values)) continue;
        if ((values[f.name] ?? null) !== (ex[f.name] ?? null)) throw new AppError('SALARY_ONLY_ADJUSTABLE', {}, { [f.name]: { code: 'SALARY_ONLY_ADJUSTABLE' } });
      }
      const change: Partial<ClerkAmounts> = {};
      for (const f of ['jiaban', 'koukuan', 'bonus', 'backPay', 'backDeduct', 'severance'] as const) {
        if (values[f] !== undefined) change[f] = values[f] === null ? 0 : yuanToFenExact(values[f] as number);
      }
      if (values.bonusMerged !== undefined) change.bonusMerged = values.bonusMerged === true || values.bonusMerged === 1 ? 1 : 0;
      const months: Partial<Record<(typeof REFERRED_MONTHS)[number], string | null>> = {};
      for (const f of REFERRED_MONTHS) if (values[f] !== undefined) months[f] = values[f] === null || values[f] === '' ? null : String(values[f]);
      if (Object.keys(change).length === 0 && Object.keys(months).length === 0) throw new AppError('SALARY_ADJUSTMENT_EMPTY');
      await editAdjustments(app, db, { id: Number(ex.id), companyId: Number(ex.companyId), month: String(ex.month), idCard: String(ex.idCard) }, { ...change, ...months });
      for (const k of Object.keys(values)) if (k !== 'id' && !(k in months)) delete values[k];
    },
    beforeDelete: (ids, { db }) => assertRowsDeletable(app, db, ids),
  });

  routeContract(app, generateSalaryContract, async (req) => {
    const { companyId, month } = req.body;
    const outcome = await generateSalary(app, req, companyId, month);
    return { message: generateMessage(outcome, requestLanguage(req.headers['accept-language'])), ...outcome };
  });

  routeContract(app, salaryMonthSummary, async (req) => {
    const { companyId, month } = req.query;
    const company = await loadVisibleCompany(app, req, app.ctx.db, companyId);
    return monthSummary(app.ctx.db, company.id, month);
  });

  routeContract(app, calculateSalaryContract, async (req) => {
    const { companyId, month } = req.body;
    const { count, problems, unrecordedMonths } = await calculateSalary(app, req, companyId, month);
    // every row it could not calculate, every input it could not use and every person with unrecorded months
    // (issue 20 item 5, U1, U2): a 200 once the calculation ran, the rows left uncalculated listed in the report
    const { items } = await calculationReport(app, req, companyId, month, unrecordedMonths, problems);
    const language = requestLanguage(req.headers['accept-language']);
    return { message: calculateMessage(count, unrecordedMonths, problems.length, language), count, notCalculated: problems.length, unrecordedMonths, report: items };
  });

  routeContract(app, salaryCalculationReport, async (req) => {
    const { companyId, month } = req.query;
    const { items } = await readCalculationReport(app, req, companyId, month);
    return { items };
  });

  routeContract(app, confirmSalaryContract, async (req) => {
    const { companyId, month, acknowledgeWarnings } = req.body;
    const n = await confirmSalary(app, req, companyId, month, acknowledgeWarnings);
    return { message: renderFor('SALARY_CONFIRM_DONE', requestLanguage(req.headers['accept-language']), { count: n }) };
  });

  const logSortable = sortableColumns(confirmLogResource);
  routeContract(app, listConfirmLog, async (req) => {
    const query = req.query;
    const paging = parsePaging(query, logSortable, [['id', 'desc']]);
    let qb = applyFilters(app.ctx.db.selectFrom(confirmLogResource.table), confirmLogResource, query, app.ctx.dialect, confirmLogResource.table);
    qb = await whereCompanyVisible(app, req, qb, `${confirmLogResource.table}.company_id`);
    const totalElements = await countOf(qb);
    let page = qb.selectAll(confirmLogResource.table);
    for (const [c, d] of paging.sort) page = page.orderBy(sql.ref(`${confirmLogResource.table}.${c}`), d);
    const rows = totalElements ? await page.limit(paging.size).offset(paging.page * paging.size).execute() : [];
    return { content: rows.map((r) => rowToApi(confirmLogResource, r as Record<string, unknown>)) as ConfirmLogRow[], totalElements };
  });

  routeContract(app, exportSalaryReport, async (req, reply) => {
    const body = req.body ?? {};
    const cname = (req.user?.cname ?? '').trim();
    const sent = body.cname;
    if (!cname || (sent !== undefined && (typeof sent !== 'string' || sent.trim() === ''))) throw new AppError('SALARY_REPORT_CNAME_REQUIRED');
    const { companyId, month } = parseCompanyMonth(body);
    const company = await loadVisibleCompany(app, req, app.ctx.db, companyId);
    return sendSalaryReport(app, reply, company, month, cname);
  });
}

/** A row added by hand (POST): company from the database, month not in the future, month not confirmed. */
async function prepareManualRow(app: FastifyInstance, req: FastifyRequest, db: Parameters<typeof isConfirmed>[0], values: Record<string, unknown>) {
  const errors: Record<string, FieldMessage> = {};
  if (values.companyId === undefined || values.companyId === null) errors.companyId = { code: 'SALARY_COMPANY_REQUIRED' };
  if (!values.month) errors.month = { code: 'FIELD_CHOOSE', params: { label: '月份' } };
  if (!values.staffName) errors.staffName = { code: 'FIELD_ENTER', params: { label: '员工姓名' } };
  if (!values.idCard) errors.idCard = { code: 'FIELD_ENTER', params: { label: '身份证号' } };
  if (Object.keys(errors).length) throw validationError(errors);
  const month = String(values.month);
  assertNotFutureMonth(month);
  const company = await loadVisibleCompany(app, req, db, Number(values.companyId));
  if (!company.dispatchCompany) throw new AppError('SALARY_NO_AGENT_ADD');
  await lockCompanyMonth(db, app.ctx.dialect, company.id, month);
  if (await isConfirmed(db, company.id, month)) throw new AppError('SALARY_LOCKED');
  values.companyName = company.companyName;
  values.dispatchCompany = company.dispatchCompany;
  // Kept as it is when the month is generated again (P5).
  values.origin = 'manual';
}
