import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type RawBuilder, sql } from 'kysely';
import { SALARY_SNAPSHOT_FIELDS } from '@app/shared/resources/salary';
import { staffExtraResource } from '@app/shared/resources/staffExtra';
import { staffResource } from '@app/shared/resources/staff';
import type { Db } from '../../core/db.ts';
import { isUniqueViolation, nowIso } from '../../core/db.ts';
import { AppError, badRequest, conflict } from '../../core/errors.ts';
import { calculateMonth, type RowFigures, type RowProblem, VERIFIED_FIGURES } from './calculation.ts';
import { type CompanyRef, loadVisibleCompany } from './companies.ts';
import { loadRateBook } from './rates.ts';
import {
  ensureCompanyMonth,
  fieldColumn,
  isConfirmed,
  loadCompanyMonthRows,
  loadLedgerContext,
  loadPersonMonthRows,
  lockCompanyMonth,
  type PersonFilter,
  SALARY_TABLE,
  salaryColumn,
  type StoredSalaryRow,
  updateRowsById,
  writeFigures,
} from './salaryStore.ts';

/**
 * The monthly salary flow of one client company: generate (snapshot the active staff) -> calculate ->
 * confirm (lock). Every step runs in one transaction under the lock of the company's month (the
 * accounts_salary_batch row), so steps of the same month never interleave; a failed step writes nothing.
 */

export const LOCKED_MESSAGE = '本月工资已确认，不能修改';
export const ALREADY_CONFIRMED = '本月工资已确认';
const ACTIVE_JOB_STATE = '在职';

const S = salaryColumn;
const SNAPSHOT_COLUMNS = SALARY_SNAPSHOT_FIELDS.map((f) => [f, salaryColumn(f)] as const);
const ST = (name: string) => fieldColumn(staffResource, name);
const EX = (name: string) => fieldColumn(staffExtraResource, name);


/** A 400 listing the rows that cannot be calculated (all of them in fieldErrors, the first ten in the message). */
export function rowProblemsError(problems: RowProblem[], status = 400): AppError {
  const shown = problems.slice(0, 10).map((p) => `${p.staffName ?? ''}（${p.idCard}）：${p.message}`);
  const more = problems.length > 10 ? `；等共${problems.length}条` : '';
  const fieldErrors = Object.fromEntries(problems.map((p) => [`row${p.id}`, `${p.staffName ?? ''}（${p.idCard}）：${p.message}`]));
  return new AppError(status, `以下${problems.length}条工资数据有误，未做任何修改：${shown.join('；')}${more}`, 'SALARY_ROWS', fieldErrors);
}

async function inMonthLock<T>(app: FastifyInstance, company: CompanyRef, month: string, fn: (trx: Db) => Promise<T>): Promise<T> {
  const { db, dialect } = app.ctx;
  await ensureCompanyMonth(db, dialect, company.id, month);
  return db.transaction().execute(async (trx) => {
    await lockCompanyMonth(trx, dialect, company.id, month);
    return fn(trx);
  });
}

/**
 * 生成: replaces the month's rows with a snapshot of the company's active staff (jobState 在职) and their
 * overtime/deductions of the month (staff-extra rows of the same ID card added up), in one INSERT ... SELECT.
 */
export async function generateSalary(app: FastifyInstance, req: FastifyRequest, companyId: number, month: string): Promise<number> {
  const company = await loadVisibleCompany(app, req, app.ctx.db, companyId);
  return inMonthLock(app, company, month, async (trx) => {
    if (await isConfirmed(trx, company.id, month)) throw conflict(LOCKED_MESSAGE, 'SALARY_LOCKED');
    const active = await trx
      .selectFrom(staffResource.table)
      .select((eb) => eb.fn.countAll().as('n'))
      .where(ST('companyId'), '=', company.id)
      .where(ST('jobState'), '=', ACTIVE_JOB_STATE)
      .executeTakeFirst();
    const count = Number((active as { n?: unknown } | undefined)?.n ?? 0);
    if (count === 0) throw badRequest('该单位没有在职员工，无法生成工资');
    if (!company.dispatchCompany) throw badRequest('该单位未设置派遣单位（扣缴义务人），无法生成工资');
    await trx.deleteFrom(SALARY_TABLE).where(S('companyId'), '=', company.id).where(S('month'), '=', month).execute();
    const now = nowIso();
    const constants: [string, RawBuilder<unknown>][] = [
      [S('companyId'), sql.lit(company.id)],
      [S('companyName'), sql`${company.companyName}`],
      [S('dispatchCompany'), sql`${company.dispatchCompany}`],
      [S('month'), sql`${month}`],
      [S('tag'), sql.lit(0)],
      [S('calculated'), sql.lit(0)],
      [S('jiaban'), sql.lit(0)],
      [S('koukuan'), sql.lit(0)],
      [S('createTime'), sql`${now}`],
      [S('updateTime'), sql`${now}`],
    ];
    const select = trx
      .selectFrom(staffResource.table)
      .select([...constants.map(([c, v]) => v.as(c)), ...SNAPSHOT_COLUMNS.map(([f, c]) => sql.ref(ST(f)).as(c))])
      .where(ST('companyId'), '=', company.id)
      .where(ST('jobState'), '=', ACTIVE_JOB_STATE)
      .orderBy(ST('id'));
    const columns = [...constants.map(([c]) => c), ...SNAPSHOT_COLUMNS.map(([, c]) => c)];
    const r = await trx.insertInto(SALARY_TABLE).columns(columns as never).expression(select as never).executeTakeFirst();
    await applyStaffExtras(app, trx, company.id, month);
    return Number(r.numInsertedOrUpdatedRows ?? count);
  });
}

/** Overtime and deductions of the month from the staff-extra rows (rows of the same ID card added up). */
async function applyStaffExtras(app: FastifyInstance, trx: Db, companyId: number, month: string): Promise<void> {
  // The extra rows' ID card is free text: compared trimmed and upper-cased (staff ID cards are normalised).
  const key = sql<string>`upper(trim(${sql.ref(EX('staffIdCard'))}))`;
  const sums = (await trx
    .selectFrom(staffExtraResource.table)
    .select([key.as('k'), sql<number>`sum(${sql.ref(EX('jiaban'))})`.as('j'), sql<number>`sum(${sql.ref(EX('koukuan'))})`.as('d')])
    .where(EX('staffCompanyId'), '=', companyId)
    .where(EX('month'), '=', month)
    .groupBy(key)
    .execute()) as { k: string; j: number | string | null; d: number | string | null }[];
  if (!sums.length) return;
  const byIdCard = new Map(sums.map((e) => [e.k, e]));
  const rows = (await trx
    .selectFrom(SALARY_TABLE)
    .select([`${S('id')} as id`, `${S('idCard')} as idCard`] as never)
    .where(S('companyId'), '=', companyId)
    .where(S('month'), '=', month)
    .execute()) as { id: number; idCard: string }[];
  const updates: { id: number; values: (number | null)[] }[] = [];
  for (const r of rows) {
    const e = byIdCard.get(r.idCard);
    if (e) updates.push({ id: Number(r.id), values: [Number(e.j ?? 0), Number(e.d ?? 0)] });
  }
  await updateRowsById(trx, app.ctx.dialect, [S('jiaban'), S('koukuan')], updates, {});
}

/** Runs the ledger calculation for `rows` (already loaded in the transaction) and returns figures or throws. */
async function computeFigures(trx: Db, month: string, rows: StoredSalaryRow[], who: PersonFilter, status = 400): Promise<Map<number, RowFigures>> {
  const ctx = await loadLedgerContext(trx, month, rows, who);
  const census = [...rows, ...ctx.sameMonthOthers].map((r) => r.censusType ?? '');
  const rates = await loadRateBook(trx, month, census);
  const { figures, problems } = calculateMonth({ month, rows, sameMonthOthers: ctx.sameMonthOthers, ledger: ctx.ledger, rates });
  if (problems.length) throw rowProblemsError(problems, status);
  return figures;
}

/** 计算: calculates every row of the month with the ledger rules; all rows or nothing. */
export async function calculateSalary(app: FastifyInstance, req: FastifyRequest, companyId: number, month: string): Promise<number> {
  const company = await loadVisibleCompany(app, req, app.ctx.db, companyId);
  return inMonthLock(app, company, month, async (trx) => {
    if (await isConfirmed(trx, company.id, month)) throw conflict(LOCKED_MESSAGE, 'SALARY_LOCKED');
    const rows = await loadCompanyMonthRows(trx, company.id, month);
    if (rows.length === 0) throw badRequest('本月没有工资数据，请先生成工资');
    const figures = await computeFigures(trx, month, rows, { companyId: company.id, month });
    await writeFigures(
      trx,
      app.ctx.dialect,
      rows.map((r) => ({ id: r.id, figures: figures.get(r.id)! })),
    );
    return rows.length;
  });
}

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/**
 * 确认: needs rows, all calculated and none changed since, and figures that a fresh calculation reproduces
 * (the ledger may have moved: an earlier month or another client company of the same person confirmed);
 * then writes the single confirm log (unique per company and month) and locks the rows.
 */
export async function confirmSalary(app: FastifyInstance, req: FastifyRequest, companyId: number, month: string): Promise<number> {
  const company = await loadVisibleCompany(app, req, app.ctx.db, companyId);
  try {
    return await inMonthLock(app, company, month, async (trx) => {
      if (await isConfirmed(trx, company.id, month)) throw conflict(ALREADY_CONFIRMED, 'SALARY_CONFIRMED');
      const rows = await loadCompanyMonthRows(trx, company.id, month);
      if (rows.length === 0) throw badRequest('本月没有工资数据，不能确认');
      const stale = rows.filter((r) => !r.calculated);
      if (stale.length) {
        const names = stale.slice(0, 10).map((r) => r.staffName ?? r.idCard);
        throw conflict(`有${stale.length}条工资数据尚未计算或在计算后被修改（${names.join('、')}${stale.length > 10 ? '等' : ''}），请先计算`, 'SALARY_NOT_CALCULATED');
      }
      const figures = await computeFigures(trx, month, rows, { companyId: company.id, month }, 409);
      const changed = rows.filter((r) => {
        const f = figures.get(r.id)!;
        return VERIFIED_FIGURES.some((k) => !same(r[k], f[k]));
      });
      if (changed.length) {
        const names = changed.slice(0, 10).map((r) => r.staffName ?? r.idCard);
        throw conflict(`${changed.length}条工资数据在计算后发生了变化（${names.join('、')}${changed.length > 10 ? '等' : ''}），请重新计算后再确认`, 'SALARY_STALE');
      }
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
      return rows.length;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(ALREADY_CONFIRMED, 'SALARY_CONFIRMED');
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
  change: { jiaban?: number; koukuan?: number },
): Promise<void> {
  await lockCompanyMonth(trx, app.ctx.dialect, existing.companyId, existing.month);
  if (await isConfirmed(trx, existing.companyId, existing.month)) throw conflict(LOCKED_MESSAGE, 'SALARY_LOCKED');
  const person = await loadPersonMonthRows(trx, existing.companyId, existing.month, existing.idCard);
  const target = person.find((r) => r.id === existing.id);
  if (!target) throw conflict('工资数据已被删除或重新生成，请刷新');
  if (target.tag === 1) throw conflict(LOCKED_MESSAGE, 'SALARY_LOCKED');
  const rows: StoredSalaryRow[] = person.map((r) => (r.id === target.id ? { ...r, jiaban: change.jiaban ?? r.jiaban, koukuan: change.koukuan ?? r.koukuan } : r));
  const figures = await computeFigures(trx, existing.month, rows, { idCards: [target.idCard] });
  await writeFigures(
    trx,
    app.ctx.dialect,
    rows.map((r) => ({ id: r.id, figures: figures.get(r.id)!, ...(r.id === target.id ? { jiaban: r.jiaban ?? 0, koukuan: r.koukuan ?? 0 } : {}) })),
  );
}

/** Refuses deleting rows of a confirmed month (or locked rows); takes the locks of the months involved. */
export async function assertRowsDeletable(app: FastifyInstance, trx: Db, ids: number[]): Promise<void> {
  const rows = (await trx
    .selectFrom(SALARY_TABLE)
    .select([`${S('companyId')} as companyId`, `${S('month')} as month`, `${S('tag')} as tag`] as never)
    .where(S('id'), 'in', ids)
    .execute()) as { companyId: number; month: string; tag: number }[];
  const months = [...new Set(rows.map((r) => `${Number(r.companyId)}|${r.month}`))].sort();
  for (const m of months) {
    const [cid, month] = m.split('|');
    await lockCompanyMonth(trx, app.ctx.dialect, Number(cid), month);
    if (await isConfirmed(trx, Number(cid), month)) throw conflict('本月工资已确认，不能删除', 'SALARY_LOCKED');
  }
  if (rows.some((r) => Number(r.tag) === 1)) throw conflict('本月工资已确认，不能删除', 'SALARY_LOCKED');
}
