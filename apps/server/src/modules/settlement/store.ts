import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { SettlementState, SettlementSummary } from '@app/shared/contracts/settlement';
import { fenToYuan } from '@app/shared/payroll/money';
import { buildSettlementStatement, formatPerHeadItems, SETTLEMENT_LINE_AMOUNTS, SETTLEMENT_LINE_AMOUNTS_V1, type SettlementLine, type SettlementPersonRow, type SettlementStatement } from '@app/shared/payroll/settlement';
import type { SalaryFieldName } from '@app/shared/resources/salary';
import { type Db, type DialectName, insertReturningId, insertRowsRaw, nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { previousMonth } from '../payroll/arrears.ts';
import { type CompanyRef, loadVisibleCompany } from '../payroll/companies.ts';
import { isConfirmed, SALARY_TABLE, salaryColumn } from '../payroll/salaryStore.ts';
import { termsInForce, vatRegimeInForce } from './terms.ts';

/**
 * Statements in the database (issue 22): generation from a confirmed salary month, versions, the arrears brought
 * forward and the rows as the API shows them. A line's amounts are one JSON array in the order of
 * SETTLEMENT_LINE_AMOUNTS followed by the per-head items (10,000 lines are one short INSERT each, not 20 columns).
 */

export const STATEMENTS = 'accounts_settlement';
export const LINES = 'accounts_settlement_line';
export const RECEIPTS = 'accounts_settlement_receipt';
export const EVENTS = 'accounts_settlement_event';
const LINE_PG_TYPES = new Map([
  ['settlement_id', 'integer'],
  ['seq', 'integer'],
]);

/**
 * Lines per INSERT: PostgreSQL takes one array per column (5 parameters, whatever the count); SQLite allows 32,766
 * parameters (5 a line); MariaDB 65,535, kept well under max_allowed_packet (a line is about 200 bytes).
 */
const LINE_CHUNK: Record<DialectName, number> = { postgres: 50_000, sqlite: 6_000, mysql: 5_000 };
const S = salaryColumn;
const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const bool = (v: unknown) => v === 1 || v === true || v === '1';

/**
 * One client company's confirmed salary rows of a month, as the statement reads them. The sums a line shows
 * (personal SI, tax, 医疗 with 生育) are added in the query: 13 columns instead of 18 for each of 10,000 rows.
 */
export async function loadPersonRows(db: Db, companyId: number, month: string): Promise<SettlementPersonRow[]> {
  const c = (f: SalaryFieldName) => sql.ref(S(f));
  const z = (f: SalaryFieldName) => sql`coalesce(${c(f)}, 0)`;
  const rows = (await db
    .selectFrom(SALARY_TABLE)
    .select([
      sql<string>`${c('staffName')}`.as('staffName'),
      sql<string>`${c('idCard')}`.as('idCard'),
      sql<number>`${z('gross')}`.as('gross'),
      sql<number>`${z('yanglao')} + ${z('yiliao')} + ${z('shiye')}`.as('personalSi'),
      sql<number>`${z('gongjijin')}`.as('personalHf'),
      sql<number>`${z('tax')} + ${z('bonusTax')} + ${z('severanceTax')}`.as('tax'),
      sql<number>`${z('realSalary')}`.as('net'),
      sql<number>`${z('employerYanglao')}`.as('employerYanglao'),
      sql<number>`${z('employerYiliao')} + ${z('employerShengyu')}`.as('employerYiliao'),
      sql<number>`${z('employerShiye')}`.as('employerShiye'),
      sql<number>`${z('employerGongshang')}`.as('employerGongshang'),
      sql<number>`${z('employerGongjijin')}`.as('employerGongjijin'),
      sql<number>`${z('siBackCompany')}`.as('employerBackPay'),
    ])
    .where(S('companyId'), '=', companyId)
    .where(S('month'), '=', month)
    .orderBy('id')
    .execute()) as Record<string, unknown>[];
  // PostgreSQL's bigint sums arrive as strings, hence Number()
  return rows.map((r) => ({
    idCard: String(r.idCard ?? ''),
    staffName: String(r.staffName ?? ''),
    gross: Number(r.gross),
    personalSi: Number(r.personalSi),
    personalHf: Number(r.personalHf),
    tax: Number(r.tax),
    net: Number(r.net),
    employerYanglao: Number(r.employerYanglao),
    employerYiliao: Number(r.employerYiliao),
    employerShiye: Number(r.employerShiye),
    employerGongshang: Number(r.employerGongshang),
    employerGongjijin: Number(r.employerGongjijin),
    employerBackPay: Number(r.employerBackPay),
  }));
}

/** 累计欠款 (+) / 挂账 (−) before `month`: what the current statements of earlier months left unpaid or overpaid. */
export async function arrearsBefore(db: Db, companyId: number, month: string): Promise<number> {
  const r = await db
    .selectFrom(STATEMENTS)
    .select((eb) => [eb.fn.sum<number>('current_due').as('due'), eb.fn.sum<number>('received').as('received')])
    .where('company_id', '=', companyId)
    .where('month', '<', month)
    .where('superseded', '=', 0)
    .executeTakeFirst();
  return num(r?.due) - num(r?.received);
}

type Row = Record<string, unknown>;

export function summaryOf(r: Row): SettlementSummary {
  const totalDue = num(r.total_due);
  const received = num(r.received);
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    companyName: (r.company_name as string | null) ?? null,
    dispatchCompany: (r.dispatch_company as string | null) ?? null,
    month: String(r.month),
    version: Number(r.version),
    state: String(r.state) as SettlementState,
    needsReopen: bool(r.needs_reopen),
    superseded: bool(r.superseded),
    heads: Number(r.heads),
    currentDue: fenToYuan(num(r.current_due)),
    arrearsIn: fenToYuan(num(r.arrears_in)),
    totalDue: fenToYuan(totalDue),
    received: fenToYuan(received),
    outstanding: fenToYuan(totalDue - received),
    vatRegime: (r.vat_regime as string | null) ?? null,
    disputeReason: (r.dispute_reason as string | null) ?? null,
    invoiceNo: (r.invoice_no as string | null) ?? null,
    invoiceDate: (r.invoice_date as string | null) ?? null,
    invoiceAmount: r.invoice_amount === null || r.invoice_amount === undefined ? null : fenToYuan(num(r.invoice_amount)),
    generatedBy: (r.generated_by as string | null) ?? null,
    createTime: (r.create_time as string | null) ?? null,
    updateTime: (r.update_time as string | null) ?? null,
  };
}

/** The stored JSON of a line's amounts; integers joined by hand (JSON.stringify of 10,000 fresh arrays cost more). */
export function encodeLine(l: SettlementLine): string {
  let out = '[';
  for (const k of SETTLEMENT_LINE_AMOUNTS) out += `${l[k]},`;
  return `${out}[${l.items.join(',')}]]`;
}

/** A stored line's amounts by name (fen) and its items. */
export function decodeLine(json: string): { amounts: Record<(typeof SETTLEMENT_LINE_AMOUNTS)[number], number>; items: number[] } {
  const arr = JSON.parse(json) as (number | number[])[];
  // a line stored before 补缴社保单位 was a column has one amount fewer before its items
  const keys: readonly string[] = Array.isArray(arr[SETTLEMENT_LINE_AMOUNTS_V1.length]) ? SETTLEMENT_LINE_AMOUNTS_V1 : SETTLEMENT_LINE_AMOUNTS;
  const amounts = Object.fromEntries(SETTLEMENT_LINE_AMOUNTS.map((k) => [k, 0])) as Record<(typeof SETTLEMENT_LINE_AMOUNTS)[number], number>;
  keys.forEach((k, i) => {
    amounts[k as (typeof SETTLEMENT_LINE_AMOUNTS)[number]] = Number(arr[i] ?? 0);
  });
  return { amounts, items: (arr[keys.length] as number[] | undefined) ?? [] };
}

export async function recordEvent(db: Db, settlementId: number, from: string | null, to: string, note: string | null, username: string | null): Promise<void> {
  const now = nowIso();
  await db.insertInto(EVENTS).values({ settlement_id: settlementId, from_state: from, to_state: to, note, username, create_time: now, update_time: now }).execute();
}

/** Reads a statement the caller may see (its company in the caller's data scope), or 404. */
export async function loadVisibleStatement(app: FastifyInstance, req: FastifyRequest, id: number, db: Db = app.ctx.db): Promise<Row> {
  const row = (await db.selectFrom(STATEMENTS).selectAll().where('id', '=', id).executeTakeFirst()) as Row | undefined;
  if (!row) throw new AppError('SETTLEMENT_NOT_FOUND', {});
  try {
    await loadVisibleCompany(app, req, db, Number(row.company_id));
  } catch {
    throw new AppError('SETTLEMENT_NOT_FOUND', {});
  }
  return row;
}

/** The inputs of one statement: company, terms, regime, rows, arrears. Throws the 409 that says what is missing. */
async function statementInputs(db: Db, company: CompanyRef, month: string) {
  if (!(await isConfirmed(db, company.id, month))) throw new AppError('SETTLEMENT_MONTH_NOT_CONFIRMED', { company: company.companyName, month });
  const terms = await termsInForce(db, company.id, month, company.companyName);
  if (!terms) throw new AppError('SETTLEMENT_NO_TERMS', { company: company.companyName, month });
  if (!company.dispatchCompany) throw new AppError('SETTLEMENT_NO_DISPATCH_COMPANY', { company: company.companyName });
  const vat = await vatRegimeInForce(db, company.dispatchCompany, month);
  if (!vat) throw new AppError('SETTLEMENT_NO_VAT_REGIME', { agent: company.dispatchCompany, month });
  const wageRows = await loadPersonRows(db, company.id, month);
  let siMonth = month;
  let siRows = wageRows;
  if (terms.terms.siBillingLag === 1) {
    // 当月收下月: last month's employer SI/HF; a month without rows (the client's first) bills none
    siMonth = previousMonth(month);
    siRows = await loadPersonRows(db, company.id, siMonth);
    if (siRows.length && !(await isConfirmed(db, company.id, siMonth))) throw new AppError('SETTLEMENT_PREVIOUS_NOT_CONFIRMED', { month: siMonth });
  }
  const arrearsIn = await arrearsBefore(db, company.id, month);
  return { terms, vat, wageRows, siRows, siMonth, arrearsIn };
}

export interface GenerateResult {
  row: Row;
  replaced: boolean;
  newVersion: boolean;
}

/**
 * Generates the statement of a confirmed month: a draft is replaced in place; a statement already sent (or
 * further) is kept and superseded by version n+1, unless receipts were recorded against it (409).
 */
export async function generateStatement(app: FastifyInstance, req: FastifyRequest, companyId: number, month: string): Promise<GenerateResult> {
  const { db, dialect } = app.ctx;
  const company = await loadVisibleCompany(app, req, db, companyId);
  const username = req.user?.username ?? null;
  return db.transaction().execute(async (trx) => {
    const input = await statementInputs(trx, company, month);
    const statement: SettlementStatement = buildSettlementStatement({ wageRows: input.wageRows, siRows: input.siRows, terms: input.terms.terms, vat: input.vat, arrearsIn: input.arrearsIn });
    const h = statement.header;
    const termsJson = JSON.stringify({
      validFrom: input.terms.validFrom,
      feeMode: input.terms.terms.feeMode,
      feeAmount: input.terms.terms.feeAmount,
      feeRate: String(input.terms.terms.feeRate),
      feeTaxMode: input.terms.terms.feeTaxMode,
      siBillingLag: input.terms.terms.siBillingLag,
      disabledShareMode: input.terms.terms.disabledShareMode,
      disabledShareAmount: input.terms.terms.disabledShareAmount,
      disabledShareRate: String(input.terms.terms.disabledShareRate),
      unionFeeRatio: String(input.terms.terms.unionFeeRatio),
      perHeadItems: formatPerHeadItems(input.terms.terms.perHeadItems),
      vatRegime: input.vat.regime,
      vatRate: String(input.vat.rate),
      surtaxRatio: String(input.vat.surtaxRatio),
      vatValidFrom: input.vat.validFrom,
      siMonth: input.siMonth,
    });
    const now = nowIso();
    const values = {
      company_name: company.companyName,
      dispatch_company: company.dispatchCompany,
      state: 'DRAFT',
      needs_reopen: 0,
      heads: h.heads,
      current_due: h.currentDue,
      arrears_in: h.arrearsIn,
      total_due: h.totalDue,
      received: 0,
      vat_regime: input.vat.regime,
      header: JSON.stringify(h),
      terms: termsJson,
      dispute_reason: null,
      invoice_no: null,
      invoice_date: null,
      invoice_amount: null,
      generated_by: username,
      update_time: now,
    };
    const latest = (await trx.selectFrom(STATEMENTS).selectAll().where('company_id', '=', company.id).where('month', '=', month).where('superseded', '=', 0).orderBy('version', 'desc').executeTakeFirst()) as Row | undefined;
    let id: number;
    let replaced = false;
    let newVersion = false;
    if (latest && latest.state === 'DRAFT') {
      id = Number(latest.id);
      await trx.updateTable(STATEMENTS).set(values).where('id', '=', id).execute();
      await trx.deleteFrom(LINES).where('settlement_id', '=', id).execute();
      replaced = true;
      await recordEvent(trx, id, 'DRAFT', 'DRAFT', '重新生成', username);
    } else {
      if (latest && num(latest.received) !== 0) throw new AppError('SETTLEMENT_HAS_RECEIPTS', {});
      if (latest) {
        await trx.updateTable(STATEMENTS).set({ superseded: 1, update_time: now }).where('id', '=', Number(latest.id)).execute();
        newVersion = true;
      }
      const version = latest ? Number(latest.version) + 1 : 1;
      id = await insertReturningId(trx, dialect, STATEMENTS, { ...values, company_id: company.id, month, version, superseded: 0, create_time: now });
      await recordEvent(trx, id, null, 'DRAFT', latest ? `第${version}版，取代第${latest.version}版` : null, username);
    }
    const lineRows = statement.lines.map((l) => ({ settlement_id: id, seq: l.seq, staff_name: l.staffName.slice(0, 50), id_card_masked: l.idCardMasked.slice(0, 30), amounts: encodeLine(l) }));
    // plain SQL: Kysely's query tree for 10,000 lines costs more than the database's work (insertRowsRaw)
    const chunk = LINE_CHUNK[dialect];
    for (let i = 0; i < lineRows.length; i += chunk) await insertRowsRaw(trx, dialect, LINES, lineRows.slice(i, i + chunk), LINE_PG_TYPES);
    const row = (await trx.selectFrom(STATEMENTS).selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Row;
    return { row, replaced, newVersion };
  });
}

/** 反确认 of a salary month: its current statement is marked 需重开 (never changed otherwise). */
export async function markStatementsForReopen(db: Db, companyId: number, month: string): Promise<void> {
  await db.updateTable(STATEMENTS).set({ needs_reopen: 1, update_time: nowIso() }).where('company_id', '=', companyId).where('month', '=', month).where('superseded', '=', 0).execute();
}
