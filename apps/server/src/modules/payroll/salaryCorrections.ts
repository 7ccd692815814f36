import type { FastifyInstance, FastifyRequest } from 'fastify';
import { markStatementsForReopen } from '../settlement/store.ts';
import { UNCONFIRM_REASON_MAX, unconfirmSalary as unconfirmSalaryContract } from '@app/shared/contracts/salary';
import { listSalaryCorrections } from '@app/shared/contracts/salaryRecords';
import type { Db } from '../../core/db.ts';
import { nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { renderFor, requestLanguage } from '../../core/errorLanguage.ts';
import { PAYSLIP_SOURCE, payslipResource } from '@app/shared/resources/payslip';
import { routeContract } from '../../crud/registerContract.ts';
import type { AnySelect } from '../../crud/registerResource.ts';
import { nextMonthCarryingFrom } from './arrears.ts';
import { loadVisibleCompany, whereCompanyVisible } from './companies.ts';
import { parseCompanyMonth } from './months.ts';
import { ensureCompanyMonth, isConfirmed, loadCompanyMonthRows, lockCompanyMonth, SALARY_TABLE, salaryColumn, type StoredSalaryRow } from './salaryStore.ts';
import { refreshLedgerMonth } from './ytdLedger.ts';
import { refAs } from '../../core/selectAs.ts';

/**
 * Corrections after confirm (issue 10 item 8). 反确认 reopens a confirmed company month, with a reason, under its
 * own permission (ACCOUNTSSALARY_UNCONFIRM): the confirm log row goes, the rows are unlocked, payslips generated
 * from the month are withdrawn (employees must not read figures that may change), and an audit row keeps who,
 * why and the figures that had been confirmed. Confirming the month again completes that row with the figures
 * then confirmed. A month on which a later confirmed month of the same workers and withholding agent builds (the
 * cumulative tax) cannot be reopened: the later months are reopened first, newest first.
 */

const S = salaryColumn;
const CORRECTIONS = 'accounts_salary_correction';
const REASON_MAX = UNCONFIRM_REASON_MAX;

/** The figures an audit row keeps per salary row (money in fen). */
function figuresOf(rows: readonly StoredSalaryRow[]): string {
  return JSON.stringify(
    rows.map((r) => ({
      id: r.id,
      staffName: r.staffName,
      idCard: r.idCard,
      salary: r.salary,
      jiaban: r.jiaban,
      koukuan: r.koukuan,
      bonus: r.bonus ?? null,
      bonusMerged: r.bonusMerged ? 1 : 0,
      gross: r.gross,
      fiveOne: r.fiveOne,
      tax: r.tax,
      bonusTax: r.bonusTax,
      realSalary: r.realSalary,
      carriedIn: r.carriedIn ?? 0,
      unpaid: r.unpaid ?? 0,
      advanced: r.advanced ?? 0,
      employerTotal: r.employerTotal,
    })),
  );
}

function readReason(body: unknown): string {
  const raw = body && typeof body === 'object' && !Array.isArray(body) ? (body as { reason?: unknown }).reason : undefined;
  const reason = typeof raw === 'string' ? raw.trim() : '';
  if (!reason) throw new AppError('UNCONFIRM_REASON_REQUIRED', {}, { reason: { code: 'UNCONFIRM_REASON_REQUIRED' } });
  if (reason.length > REASON_MAX || reason.includes('\u0000')) throw new AppError('UNCONFIRM_REASON_TOO_LONG', { max: REASON_MAX }, { reason: { code: 'UNCONFIRM_REASON_TOO_LONG', params: { max: REASON_MAX } } });
  return reason;
}

/** 反确认 of a company's month; returns how many rows were reopened and payslips withdrawn. */
export async function unconfirmSalary(
  app: FastifyInstance,
  req: FastifyRequest,
  companyId: number,
  month: string,
  reason: string,
): Promise<{ rows: number; payslipsWithdrawn: number }> {
  const { db, dialect } = app.ctx;
  const company = await loadVisibleCompany(app, req, db, companyId);
  await ensureCompanyMonth(db, dialect, company.id, month);
  return db.transaction().execute(async (trx) => {
    await lockCompanyMonth(trx, dialect, company.id, month);
    if (!(await isConfirmed(trx, company.id, month))) throw new AppError('SALARY_NOT_CONFIRMED');
    const rows = await loadCompanyMonthRows(trx, company.id, month);
    const later = await laterConfirmedMonths(trx, company.id, month);
    if (later.length) throw new AppError('SALARY_LATER_CONFIRMED', { months: later.join('、') });
    const carrying = await nextMonthCarryingFrom(trx, company.id, month);
    if (carrying) throw new AppError('SALARY_LATER_CARRIES', { month: carrying });
    // 调基 补差 that correct this month sit in a later open month; regenerated, this month would take the new bases
    // from the staff records itself and the difference would be paid twice (issue 24): refused with the reason
    const backPay = await trx
      .selectFrom('accounts_si_back_item')
      .select('target_month')
      .where('company_id', '=', company.id)
      .where('refer_month', '=', month)
      .where('source', '=', 'adjust')
      .limit(1)
      .executeTakeFirst();
    if (backPay) throw new AppError('SALARY_HAS_SI_BACK_ITEMS', { target: String(backPay.target_month) });
    const withdrawn = await trx
      .deleteFrom(payslipResource.table)
      .where('company_id', '=', company.id)
      .where('month', '=', month)
      .where('source', '=', PAYSLIP_SOURCE.generated)
      .executeTakeFirst();
    const payslipsWithdrawn = Number(withdrawn.numDeletedRows ?? 0);
    await trx.deleteFrom('accounts_confirm_log').where('company_id', '=', company.id).where('month', '=', month).execute();
    // its client statement (结算单) is marked 需重开, never changed silently (issue 22 item 4)
    await markStatementsForReopen(trx, company.id, month);
    await trx.updateTable(SALARY_TABLE).set({ [S('tag')]: 0 }).where(S('companyId'), '=', company.id).where(S('month'), '=', month).execute();
    // the year-to-date ledger loses this company's figures of the month (later months are not confirmed: checked above)
    await refreshLedgerMonth(trx, dialect, company.id, month);
    await trx
      .insertInto(CORRECTIONS)
      .values({
        company_id: company.id,
        company_name: company.companyName,
        month,
        reason,
        username: req.user?.username ?? null,
        cname: req.user?.cname ?? null,
        row_count: rows.length,
        payslips_withdrawn: payslipsWithdrawn,
        before_figures: figuresOf(rows),
        create_time: nowIso(),
      })
      .execute();
    return { rows: rows.length, payslipsWithdrawn };
  });
}

/** Later months of the same workers and withholding agents confirmed at any client company ("公司YYYY-MM"). */
async function laterConfirmedMonths(trx: Db, companyId: number, month: string): Promise<string[]> {
  const persons = trx.selectFrom(SALARY_TABLE).select(S('idCard')).where(S('companyId'), '=', companyId).where(S('month'), '=', month);
  const entities = trx.selectFrom(SALARY_TABLE).select(S('dispatchCompany')).where(S('companyId'), '=', companyId).where(S('month'), '=', month);
  const rows = (await trx
    .selectFrom(SALARY_TABLE)
    .select([refAs(S('companyName'), 'companyName'), refAs(S('month'), 'month')])
    .distinct()
    .where(S('month'), '>', month)
    .where(S('month'), '<=', `${month.slice(0, 4)}-12`)
    .where(S('tag'), '=', 1)
    .where(S('idCard'), 'in', persons)
    .where(S('dispatchCompany'), 'in', entities)
    .orderBy(S('month'), 'desc')
    .limit(10)
    .execute()) as { companyName: string | null; month: string }[];
  return rows.map((r) => `${r.companyName ?? ''}${r.month}`);
}

/** Completes the open 反确认 row of a month being confirmed again with the figures now confirmed. */
export async function recordReconfirm(trx: Db, companyId: number, month: string, rows: readonly StoredSalaryRow[], who: string | null): Promise<void> {
  const open = await trx
    .selectFrom(CORRECTIONS)
    .select('id')
    .where('company_id', '=', companyId)
    .where('month', '=', month)
    .where('after_figures', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!open) return;
  await trx
    .updateTable(CORRECTIONS)
    .set({ after_figures: figuresOf(rows), reconfirmed_by: who, reconfirm_time: nowIso(), update_time: nowIso() })
    .where('id', '=', open.id)
    .execute();
}

/** POST /api/accountsSalary/unconfirm and GET /api/accountsSalary/corrections. */
export function registerSalaryCorrections(app: FastifyInstance): void {
  routeContract(app, unconfirmSalaryContract, async (req) => {
    const { companyId, month } = parseCompanyMonth(req.body);
    const reason = readReason(req.body);
    const { rows, payslipsWithdrawn } = await unconfirmSalary(app, req, companyId, month, reason);
    const language = requestLanguage(req.headers['accept-language']);
    const message = payslipsWithdrawn
      ? renderFor('SALARY_UNCONFIRM_PAYSLIPS_DONE', language, { rows, payslips: payslipsWithdrawn })
      : renderFor('SALARY_UNCONFIRM_DONE', language, { rows });
    return { message, rows, payslipsWithdrawn };
  });

  // The audit trail of a company's month (or of all visible companies), newest first.
  routeContract(app, listSalaryCorrections, async (req) => {
    const q: Record<string, unknown> = req.query;
    let qb = app.ctx.db.selectFrom(CORRECTIONS).selectAll(CORRECTIONS) as AnySelect;
    if (q.companyId !== undefined || q.month !== undefined) {
      const { companyId, month } = parseCompanyMonth(q);
      qb = qb.where(`${CORRECTIONS}.company_id`, '=', companyId).where(`${CORRECTIONS}.month`, '=', month);
    }
    qb = await whereCompanyVisible(app, req, qb, `${CORRECTIONS}.company_id`);
    const rows = (await qb.orderBy(`${CORRECTIONS}.id`, 'desc').limit(200).execute()) as Record<string, unknown>[];
    const parse = (v: unknown) => (typeof v === 'string' && v ? JSON.parse(v) : null);
    return rows.map((r) => ({
      id: Number(r.id),
      companyId: Number(r.company_id),
      companyName: r.company_name as string | null,
      month: String(r.month),
      reason: r.reason as string | null,
      username: r.username as string | null,
      cname: r.cname as string | null,
      rowCount: Number(r.row_count ?? 0),
      payslipsWithdrawn: Number(r.payslips_withdrawn ?? 0),
      createTime: r.create_time as string | null,
      reconfirmedBy: (r.reconfirmed_by ?? null) as string | null,
      reconfirmTime: (r.reconfirm_time ?? null) as string | null,
      // figures in yuan, as everywhere on the wire
      before: toYuan(parse(r.before_figures)),
      after: toYuan(parse(r.after_figures)),
    }));
  });
}

const MONEY_KEYS = ['salary', 'jiaban', 'koukuan', 'bonus', 'gross', 'fiveOne', 'tax', 'bonusTax', 'realSalary', 'employerTotal'];
function toYuan(rows: Record<string, unknown>[] | null): Record<string, unknown>[] | null {
  if (!rows) return null;
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, MONEY_KEYS.includes(k) && typeof v === 'number' ? v / 100 : v])));
}

