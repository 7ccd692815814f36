import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type RawBuilder, sql } from 'kysely';
import { monthSpan, type ProrationRule, prorateSalary } from '@app/shared/payroll';
import { SALARY_SNAPSHOT_FIELDS } from '@app/shared/resources/salary';
import { staffExtraResource } from '@app/shared/resources/staffExtra';
import { staffResource } from '@app/shared/resources/staff';
import type { Db } from '../../core/db.ts';
import { dynamicDb, nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { renderFor } from '../../core/errorLanguage.ts';
import type { Language } from '@app/shared/language';
import { loadVisibleCompany } from './companies.ts';
import { inMonthLock } from './salaryFlow.ts';
import { CLERK_AMOUNT_FIELDS, fieldColumn, isConfirmed, SALARY_TABLE, salaryColumn, updateRowsById } from './salaryStore.ts';
import { refAs } from '../../core/selectAs.ts';

/**
 * 生成 of a company's month (P2, P5): snapshots the workers payable in the month (by their join and leave dates)
 * into salary rows, part-month salaries prorated; a regenerate merges, keeping hand-edited amounts and hand-added
 * rows, and takes the month's overtime and deductions from the staff-extra rows. Runs under the month's lock
 * (salaryFlow.ts inMonthLock).
 */

const S = salaryColumn;
const SNAPSHOT_COLUMNS = SALARY_SNAPSHOT_FIELDS.map((f) => [f, salaryColumn(f)] as const);
const ST = (name: string) => fieldColumn(staffResource, name);
const EX = (name: string) => fieldColumn(staffExtraResource, name);

/** What 生成 did to a month that already had rows (P5: a regenerate merges, it does not wipe). */
export interface GenerateOutcome {
  /** Rows of the month afterwards. */
  total: number;
  /** The month had rows before (a regenerate): the message then says what changed. */
  regenerated: boolean;
  /** Workers who had no row and got one. */
  added: number;
  /** Generated rows of workers no longer payable, removed. */
  removed: number;
  /** Rows whose hand-edited 加班费/扣款 were kept. */
  keptEdits: number;
  /** Hand-added rows kept as they were. */
  keptManualRows: number;
}

/** The message 生成 answers with, in `language` (a scheduled job's summary is Chinese): the count, and what a regenerate changed. */
export function generateMessage(o: GenerateOutcome, language: Language = 'zh'): string {
  if (!o.regenerated) return renderFor('SALARY_GENERATE_DONE', language, { total: o.total });
  const params = { total: o.total, added: o.added, removed: o.removed, keptEdits: o.keptEdits, keptManualRows: o.keptManualRows };
  return renderFor(o.keptManualRows ? 'SALARY_REGENERATE_MANUAL_DONE' : 'SALARY_REGENERATE_DONE', language, params);
}

type ExistingRow = {
  id: number;
  idCard: string;
  origin: string;
  adjustEdited: number | boolean;
  jiaban: number | null;
  koukuan: number | null;
  bonus: number | null;
  bonusMerged: number | boolean | null;
  backPay: number | null;
  backDeduct: number | null;
  severance: number | null;
  backPayMonth: string | null;
  backDeductMonth: string | null;
};

/**
 * 生成: snapshots the company's active staff (jobState 在职) and their overtime/deductions of the month
 * (staff-extra rows of the same ID card added up) into the month's rows, in one INSERT ... SELECT. Generating
 * a month again merges (P5): bases, ratios and names are refreshed from the staff records, new workers are
 * added, generated rows of workers no longer payable are removed, and what a clerk did by hand stays: rows
 * added by hand are kept as they are, hand-edited 加班费/扣款 are written back over the staff-extra sums.
 */
export async function generateSalary(app: FastifyInstance, req: FastifyRequest, companyId: number, month: string): Promise<GenerateOutcome> {
  const company = await loadVisibleCompany(app, req, app.ctx.db, companyId);
  return inMonthLock(app, company, month, async (trx) => {
    if (await isConfirmed(trx, company.id, month)) throw new AppError('SALARY_LOCKED');
    if (!company.dispatchCompany) throw new AppError('SALARY_NO_AGENT_GENERATE');
    const payable = await payableStaff(trx, company.id, month, company.prorationRule);
    if (payable.length === 0) throw new AppError('SALARY_NO_PAYABLE_STAFF');
    const existing = (await trx
      .selectFrom(SALARY_TABLE)
      .select(
        [
          refAs(S('id'), 'id'),
          refAs(S('idCard'), 'idCard'),
          refAs(S('origin'), 'origin'),
          refAs(S('adjustEdited'), 'adjustEdited'),
          ...CLERK_AMOUNT_FIELDS.map((f) => refAs(S(f), f)),
          ...REFERRED_MONTH_FIELDS.map((f) => refAs(S(f), f)),
        ],
      )
      .where(S('companyId'), '=', company.id)
      .where(S('month'), '=', month)
      .execute()) as ExistingRow[];
    const key = personKey;
    const payableKeys = new Set(payable.map((p) => key(p.idCard)));
    const manual = existing.filter((r) => r.origin === 'manual');
    const manualKeys = new Set(manual.map((r) => key(r.idCard)));
    const generated = existing.filter((r) => r.origin !== 'manual');
    const generatedKeys = new Set(generated.map((r) => key(r.idCard)));
    // Hand edits of workers still payable (and not covered by a hand-added row) are written back below.
    const edits = generated.filter((r) => isTrue(r.adjustEdited) && payableKeys.has(key(r.idCard)) && !manualKeys.has(key(r.idCard)));
    const removed = generated.filter((r) => !payableKeys.has(key(r.idCard))).length;
    const added = [...payableKeys].filter((k) => !generatedKeys.has(k) && !manualKeys.has(k)).length;

    if (generated.length) {
      await trx
        .deleteFrom(SALARY_TABLE)
        .where(S('companyId'), '=', company.id)
        .where(S('month'), '=', month)
        .where(S('origin'), '!=', 'manual')
        .execute();
    }
    const now = nowIso();
    const constants: [ReturnType<typeof S>, RawBuilder<unknown>][] = [
      [S('companyId'), sql.lit(company.id)],
      [S('companyName'), sql`${company.companyName}`],
      [S('dispatchCompany'), sql`${company.dispatchCompany}`],
      [S('month'), sql`${month}`],
      [S('tag'), sql.lit(0)],
      [S('calculated'), sql.lit(0)],
      [S('jiaban'), sql.lit(0)],
      [S('koukuan'), sql.lit(0)],
      [S('bonus'), sql.lit(0)],
      [S('bonusMerged'), sql.lit(0)],
      [S('origin'), sql.lit('generated')],
      [S('adjustEdited'), sql.lit(0)],
      [S('prorationRule'), sql`${company.prorationRule}`],
      [S('createTime'), sql`${now}`],
      [S('updateTime'), sql`${now}`],
    ];
    // A worker with a hand-added row keeps that row and gets no generated one beside it.
    const toInsert = payable.filter((p) => !manualKeys.has(key(p.idCard)));
    const columns = [...constants.map(([c]) => c), ...SNAPSHOT_COLUMNS.map(([, c]) => c), S('fullSalary')];
    for (let i = 0; i < toInsert.length; i += INSERT_CHUNK) {
      const select = trx
        .selectFrom(staffResource.table)
        .select([...constants.map(([c, v]) => v.as(c)), ...SNAPSHOT_COLUMNS.map(([f, c]) => sql.ref(ST(f)).as(c)), sql.ref(ST('salary')).as(S('fullSalary'))])
        .where(ST('id'), 'in', toInsert.slice(i, i + INSERT_CHUNK).map((p) => p.id))
        .orderBy(ST('id'));
      await trx.insertInto(SALARY_TABLE).columns(columns).expression(select).execute();
    }
    await applyProration(app, trx, company.id, month, toInsert);
    await applyStaffExtras(app, trx, company.id, month);
    if (edits.length) await restoreHandEdits(app, trx, company.id, month, edits);
    const total = (await trx
      .selectFrom(SALARY_TABLE)
      .select((eb) => eb.fn.countAll().as('n'))
      .where(S('companyId'), '=', company.id)
      .where(S('month'), '=', month)
      .executeTakeFirst()) as { n: unknown };
    return { total: Number(total.n), regenerated: existing.length > 0, added, removed, keptEdits: edits.length, keptManualRows: manual.length };
  });
}

// Staff ids per INSERT ... SELECT: keeps the statement's parameter list well within every driver's limit.
const INSERT_CHUNK = 1000;

/** A worker payable in the month (P2), with the salary the month earns. */
interface PayableWorker {
  id: number;
  idCard: string;
  /** Fen; null when the staff record has no salary (the calculation then refuses the row). */
  salary: number | null;
  paidDays: number | null;
}

/**
 * The company's workers employed on at least one day of the month, by their dates and not their state label
 * (`isPayable` in the shared payroll rules), with a joiner's or leaver's part month prorated by `rule`.
 */
async function payableStaff(trx: Db, companyId: number, month: string, rule: ProrationRule): Promise<PayableWorker[]> {
  const { last } = monthSpan(month);
  const candidates = (await trx
    .selectFrom(staffResource.table)
    .select([
      refAs(ST('id'), 'id'),
      refAs(ST('idCard'), 'idCard'),
      refAs(ST('salary'), 'salary'),
      refAs(ST('inductionDate'), 'inductionDate'),
      refAs(ST('leaveDate'), 'leaveDate'),
      refAs(ST('jobState'), 'jobState'),
    ])
    .where(ST('companyId'), '=', companyId)
    .where(ST('inductionDate'), '<=', last)
    .orderBy(ST('id'))
    .execute()) as { id: number; idCard: string; salary: number | string | null; inductionDate: string | null; leaveDate: string | null; jobState: string | null }[];
  const payable: PayableWorker[] = [];
  for (const c of candidates) {
    const monthly = c.salary === null ? null : Number(c.salary);
    const pay = prorateSalary(monthly ?? 0, c, month, rule);
    if (pay) payable.push({ id: Number(c.id), idCard: c.idCard, salary: monthly === null ? null : pay.salary, paidDays: pay.paidDays });
  }
  return payable;
}

const personKey = (idCard: string) => idCard.trim().toUpperCase();

/** The id and ID card of the month's generated rows (not the hand-added ones). */
async function generatedRows(trx: Db, companyId: number, month: string): Promise<{ id: number; idCard: string }[]> {
  return (await trx
    .selectFrom(SALARY_TABLE)
    .select([refAs(S('id'), 'id'), refAs(S('idCard'), 'idCard')])
    .where(S('companyId'), '=', companyId)
    .where(S('month'), '=', month)
    .where(S('origin'), '=', 'generated')
    .execute()) as { id: number; idCard: string }[];
}

/**
 * Sets `columns` on the month's generated rows of the workers in `valuesByPerson` (keyed by normalised ID card),
 * in the batched statements of {@link updateRowsById}.
 */
async function updateGeneratedRows(
  app: FastifyInstance,
  trx: Db,
  companyId: number,
  month: string,
  columns: string[],
  valuesByPerson: ReadonlyMap<string, (number | null)[]>,
): Promise<void> {
  if (!valuesByPerson.size) return;
  const rows = await generatedRows(trx, companyId, month);
  const updates: { id: number; values: (number | null)[] }[] = [];
  for (const r of rows) {
    const values = valuesByPerson.get(personKey(r.idCard));
    if (values) updates.push({ id: Number(r.id), values });
  }
  await updateRowsById(trx, app.ctx.dialect, columns, updates, {});
}

/** Writes the part-month salary and days paid of joiners and leavers onto their new rows. */
function applyProration(app: FastifyInstance, trx: Db, companyId: number, month: string, workers: PayableWorker[]): Promise<void> {
  const partial = new Map(workers.filter((w) => w.paidDays !== null).map((w) => [personKey(w.idCard), [w.salary, w.paidDays]]));
  return updateGeneratedRows(app, trx, companyId, month, [S('salary'), S('paidDays')], partial);
}

const isTrue = (v: unknown) => v === true || v === 1 || v === '1';

// The months 补发/补扣 refer to: kept with their amounts, or the next 计算 refuses the row (month required).
const REFERRED_MONTH_FIELDS = ['backPayMonth', 'backDeductMonth'] as const;

/**
 * Writes the kept hand-edited amounts (加班费, 扣款, the bonus and its tax choice, 补发/补扣 with the months they
 * refer to, 经济补偿金) over the regenerated rows, still marked as edited.
 */
async function restoreHandEdits(app: FastifyInstance, trx: Db, companyId: number, month: string, edits: ExistingRow[]): Promise<void> {
  const kept = new Map(edits.map((e) => [personKey(e.idCard), [...CLERK_AMOUNT_FIELDS.map((f) => Number(e[f] ?? 0)), 1]]));
  await updateGeneratedRows(app, trx, companyId, month, [...CLERK_AMOUNT_FIELDS.map(S), S('adjustEdited')], kept);
  // The months are text (updateRowsById writes numbers): one UPDATE per distinct pair of months, which a month
  // has few of, for the rows of the people who had them.
  const byMonths = new Map<string, { months: (string | null)[]; people: Set<string> }>();
  for (const e of edits) {
    const months = REFERRED_MONTH_FIELDS.map((f) => e[f] || null);
    if (months.every((m) => m === null)) continue;
    const k = JSON.stringify(months);
    const group = byMonths.get(k) ?? { months, people: new Set<string>() };
    group.people.add(personKey(e.idCard));
    byMonths.set(k, group);
  }
  if (!byMonths.size) return;
  const rows = await generatedRows(trx, companyId, month);
  for (const { months, people } of byMonths.values()) {
    const ids = rows.filter((r) => people.has(personKey(r.idCard))).map((r) => Number(r.id));
    if (!ids.length) continue;
    const values = Object.fromEntries(REFERRED_MONTH_FIELDS.map((f, i) => [S(f), months[i]]));
    await trx.updateTable(SALARY_TABLE).set(values).where(S('id'), 'in', ids).execute();
  }
}

/** Overtime and deductions of the month from the staff-extra rows (rows of the same ID card added up). */
async function applyStaffExtras(app: FastifyInstance, trx: Db, companyId: number, month: string): Promise<void> {
  // The extra rows' ID card is free text: compared trimmed and upper-cased (staff ID cards are normalised).
  const key = sql<string>`upper(trim(${sql.ref(EX('staffIdCard'))}))`;
  // the staff-extra columns are named through their definition (EX): the generic view of the table
  const sums = (await dynamicDb(trx)
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
    .select([refAs(S('id'), 'id'), refAs(S('idCard'), 'idCard')])
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
