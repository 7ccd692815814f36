import type { PayoutBatch, PayoutRow } from '@app/shared/contracts/payout';
import { type BankLayout, BankLayoutError, fenText, parseBankLayout } from '@app/shared/payout/bankLayout';
import { bankTemplateResource } from '@app/shared/resources/bankTemplate';
import { rowToApi } from '../../crud/rowMapping.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Insertable, sql } from 'kysely';
import type { DB } from '../../core/dbTypes.ts';
import type { Db } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { loadVisibleCompany } from '../payroll/companies.ts';

/** Reading and shaping the payout tables (migration 0029). Money is integer fen in the tables, yuan in the API. */

type Num = number | string | bigint | null;
export const num = (v: Num): number => (v === null ? 0 : Number(v));
export const yuan = (fen: Num): number => Number(fenText(num(fen)));

export interface StoredBatch {
  id: number;
  company_id: number;
  company_name: string | null;
  dispatch_company: string | null;
  month: string;
  template_id: number;
  template_name: string | null;
  kind: string;
  parent_id: number | null;
  state: string;
  row_count: number;
  total: Num;
  file_name: string | null;
  export_time: string | null;
  export_by: string | null;
  return_time: string | null;
  create_by: string | null;
  create_time: string | null;
}

export function batchToApi(b: StoredBatch, counts: { ok: number; failed: number } = { ok: 0, failed: 0 }): PayoutBatch {
  return {
    id: num(b.id),
    companyId: num(b.company_id),
    companyName: b.company_name,
    dispatchCompany: b.dispatch_company,
    month: b.month,
    templateId: num(b.template_id),
    templateName: b.template_name,
    kind: b.kind === 'repay' ? 'repay' : 'pay',
    parentId: b.parent_id === null ? null : num(b.parent_id),
    state: (['pending', 'exported', 'part_failed', 'done'] as const).find((s) => s === b.state) ?? 'pending',
    rowCount: num(b.row_count),
    total: yuan(b.total),
    okCount: counts.ok,
    failedCount: counts.failed,
    fileName: b.file_name,
    exportTime: b.export_time,
    exportBy: b.export_by,
    returnTime: b.return_time,
    createBy: b.create_by,
    createTime: b.create_time,
  };
}

export interface StoredRow {
  id: number;
  batch_id: number;
  seq: number;
  salary_id: number | null;
  staff_id: number | null;
  staff_name: string;
  id_card: string | null;
  account: string;
  account_name: string;
  bank_name: string | null;
  phone: string | null;
  amount: Num;
  luhn_override: number | string | null;
  result: string;
  reason: string | null;
  repaid_by: number | null;
}

export function rowOut(r: StoredRow): PayoutRow {
  return {
    id: num(r.id),
    seq: num(r.seq),
    staffName: r.staff_name,
    idCard: r.id_card,
    account: r.account,
    accountName: r.account_name,
    bankName: r.bank_name,
    amount: yuan(r.amount),
    luhnOverride: Number(r.luhn_override) === 1,
    result: r.result === 'ok' || r.result === 'failed' ? r.result : '',
    reason: r.reason,
    repaidBy: r.repaid_by === null ? null : num(r.repaid_by),
  };
}

/** ok / failed counts of batches, by batch id. */
export async function resultCounts(db: Db, batchIds: number[]): Promise<Map<number, { ok: number; failed: number }>> {
  const out = new Map<number, { ok: number; failed: number }>();
  if (!batchIds.length) return out;
  const rows = await db
    .selectFrom('accounts_payout_row')
    .select(['batch_id', 'result', (eb) => eb.fn.countAll().as('n')])
    .where('batch_id', 'in', batchIds)
    .where('result', '!=', '')
    .groupBy(['batch_id', 'result'])
    .execute();
  for (const r of rows) {
    const id = num(r.batch_id);
    const c = out.get(id) ?? { ok: 0, failed: 0 };
    if (r.result === 'ok') c.ok = Number(r.n);
    else c.failed = Number(r.n);
    out.set(id, c);
  }
  return out;
}

export async function loadBatch(db: Db, id: number): Promise<StoredBatch> {
  const b = await db.selectFrom('accounts_payout_batch').selectAll().where('id', '=', id).executeTakeFirst();
  if (!b) throw new AppError('PAYOUT_BATCH_NOT_FOUND');
  return b as unknown as StoredBatch;
}

export async function batchOut(db: Db, b: StoredBatch): Promise<PayoutBatch> {
  return batchToApi(b, (await resultCounts(db, [num(b.id)])).get(num(b.id)));
}

export async function loadRows(db: Db, batchId: number): Promise<StoredRow[]> {
  return (await db.selectFrom('accounts_payout_row').selectAll().where('batch_id', '=', batchId).orderBy('seq').execute()) as unknown as StoredRow[];
}

/** A template as a layout, or the refusal naming the template and what is wrong in it. */
export async function loadTemplate(db: Db, id: number): Promise<{ id: number; name: string; layout: BankLayout }> {
  const row = await db.selectFrom('accounts_bank_template').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('PAYOUT_TEMPLATE_NOT_FOUND');
  const api = rowToApi(bankTemplateResource, row as Record<string, unknown>);
  return { id, name: String(api.templateName), layout: layoutOrRefuse(api) };
}

export function layoutOrRefuse(api: Record<string, unknown>): BankLayout {
  try {
    return parseBankLayout(api);
  } catch (err) {
    if (err instanceof BankLayoutError) throw new AppError('BANKTEMPLATE_INVALID', { name: String(api.templateName ?? ''), label: err.part, reason: err.reason });
    throw err;
  }
}

/** Inserts many rows in chunks (every database's limit on bound parameters stays far away). */
export async function insertChunked(db: Db, table: 'accounts_payout_row', rows: Insertable<DB['accounts_payout_row']>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await db.insertInto(table).values(rows.slice(i, i + 500)).execute();
}

/** The sum of `amount` of a batch's rows (fen). */
export async function batchSum(db: Db, batchId: number): Promise<number> {
  const r = await db
    .selectFrom('accounts_payout_row')
    .select(sql<string | number>`coalesce(sum(amount), 0)`.as('s'))
    .where('batch_id', '=', batchId)
    .executeTakeFirst();
  return num(r?.s ?? 0);
}

/** A batch whose company the caller may see (404 otherwise, as for the company itself). */
export async function visibleBatch(app: FastifyInstance, req: FastifyRequest, id: number): Promise<StoredBatch> {
  const b = await loadBatch(app.ctx.db, id);
  await loadVisibleCompany(app, req, app.ctx.db, num(b.company_id));
  return b;
}

