import type { FastifyInstance } from 'fastify';
import {
  addSettlementReceipt,
  changeSettlementState,
  deleteSettlement,
  exportSettlement,
  generateSettlement,
  getSettlement,
  listReceivables,
  listSettlementReceipts,
  listSettlements,
  SETTLEMENT_STATE_LABELS,
  SETTLEMENT_TRANSITIONS,
  type SettlementState,
} from '@app/shared/contracts/settlement';
import { fenToYuan, yuanToFen } from '@app/shared/payroll/money';
import { nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { countOf } from '../../crud/pagedQuery.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { whereCompanyVisible } from '../payroll/companies.ts';
import { sendSettlementXlsx } from './export.ts';
import { receivablesOf } from './ledger.ts';
import { SETTLEMENT_LINE_PAGE_SIZE, statementDetail } from './detail.ts';
import { EVENTS, generateStatement, LINES, loadVisibleStatement, RECEIPTS, recordEvent, STATEMENTS, summaryOf } from './store.ts';
import { registerSettlementMonthSummary } from './monthSummary.ts';
import { registerSettlementTerms } from './terms.ts';

/** Month close I (issue 22): 结算单, 回款登记, 应收台账, and the 结算条款 / 增值税计税方式 resources. */

/** Positive yuan with at most two decimals, to fen; a 400 naming the field otherwise. */
function positiveFen(value: number, label: string): number {
  let fen: number;
  try {
    fen = yuanToFen(value);
  } catch {
    throw new AppError('SETTLEMENT_AMOUNT_INVALID', { label });
  }
  if (fen <= 0) throw new AppError('SETTLEMENT_AMOUNT_INVALID', { label });
  return fen;
}

export async function registerSettlement(app: FastifyInstance): Promise<void> {
  const db = app.ctx.db;
  registerSettlementTerms(app);
  registerSettlementMonthSummary(app);

  routeContract(app, generateSettlement, async (req) => {
    const { companyId, month } = req.body;
    const r = await generateStatement(app, req, companyId, month);
    const s = summaryOf(r.row);
    const message = r.replaced ? `已重新生成草稿结算单，共${s.heads}人` : r.newVersion ? `已生成第${s.version}版结算单，之前的版本已保留` : `已生成结算单，共${s.heads}人`;
    return { message, statement: s };
  });

  routeContract(app, listSettlements, async (req) => {
    const { page = 0, size = 10, companyId, month, state, allVersions } = req.query;
    let qb = db.selectFrom(STATEMENTS);
    qb = await whereCompanyVisible(app, req, qb, `${STATEMENTS}.company_id`);
    if (companyId) qb = qb.where('company_id', '=', companyId);
    if (month) qb = qb.where('month', '=', month);
    if (state) qb = qb.where('state', '=', state);
    if (allVersions !== 'true') qb = qb.where('superseded', '=', 0);
    const totalElements = await countOf(qb);
    const rows = totalElements ? await qb.selectAll().orderBy('month', 'desc').orderBy('company_id', 'asc').orderBy('version', 'desc').limit(size).offset(page * size).execute() : [];
    return { content: rows.map((r) => summaryOf(r as Record<string, unknown>)), totalElements };
  });

  routeContract(app, listSettlementReceipts, async (req) => {
    const { page = 0, size = 10, companyId, month } = req.query;
    let qb = db.selectFrom(`${RECEIPTS} as r`).innerJoin(`${STATEMENTS} as s`, 's.id', 'r.settlement_id');
    qb = await whereCompanyVisible(app, req, qb, 'r.company_id');
    if (companyId) qb = qb.where('r.company_id', '=', companyId);
    if (month) qb = qb.where('r.month', '=', month);
    const totalElements = await countOf(qb);
    const rows = totalElements
      ? await qb
          .select(['r.id', 'r.settlement_id', 'r.company_id', 's.company_name', 'r.month', 'r.amount', 'r.receipt_date', 'r.note', 'r.username', 'r.create_time'])
          .orderBy('r.id', 'desc')
          .limit(size)
          .offset(page * size)
          .execute()
      : [];
    return {
      content: (rows as Record<string, unknown>[]).map((r) => ({
        id: Number(r.id),
        settlementId: Number(r.settlement_id),
        companyId: Number(r.company_id),
        companyName: (r.company_name as string | null) ?? null,
        month: String(r.month),
        amount: fenToYuan(Number(r.amount)),
        date: String(r.receipt_date),
        note: (r.note as string | null) ?? null,
        username: (r.username as string | null) ?? null,
        createTime: (r.create_time as string | null) ?? null,
      })),
      totalElements,
    };
  });

  routeContract(app, getSettlement, async (req) => {
    const row = await loadVisibleStatement(app, req, req.params.id);
    const { page = 0, size = SETTLEMENT_LINE_PAGE_SIZE, keyword } = req.query;
    return statementDetail(app, row, { page, size, keyword });
  });

  routeContract(app, changeSettlementState, async (req) => {
    const { state: to, note, invoiceNo, invoiceDate, invoiceAmount } = req.body;
    return db.transaction().execute(async (trx) => {
      const row = await loadVisibleStatement(app, req, req.params.id, trx);
      const from = String(row.state) as SettlementState;
      if (row.superseded === 1 || row.superseded === true || row.superseded === '1') throw new AppError('SETTLEMENT_SUPERSEDED', {});
      if (Number(row.needs_reopen) === 1) throw new AppError('SETTLEMENT_NEEDS_REOPEN', {});
      if (!SETTLEMENT_TRANSITIONS[from].includes(to)) throw new AppError('SETTLEMENT_ILLEGAL_TRANSITION', { from: SETTLEMENT_STATE_LABELS[from], to: SETTLEMENT_STATE_LABELS[to] });
      const set: Record<string, unknown> = { state: to, update_time: nowIso() };
      if (to === 'DISPUTED') {
        if (!note?.trim()) throw new AppError('SETTLEMENT_DISPUTE_REASON_REQUIRED', {});
        set.dispute_reason = note.trim();
      }
      if (to === 'INVOICED') {
        if (!invoiceNo || !invoiceDate || invoiceAmount === undefined) throw new AppError('SETTLEMENT_INVOICE_REQUIRED', {});
        set.invoice_no = invoiceNo;
        set.invoice_date = invoiceDate;
        set.invoice_amount = positiveFen(invoiceAmount, '开票金额');
      }
      // the row is updated only while it still has the state read above: two clerks at once cannot both move it
      const res = await trx.updateTable(STATEMENTS).set(set).where('id', '=', Number(row.id)).where('state', '=', from).executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw new AppError('SETTLEMENT_ILLEGAL_TRANSITION', { from: SETTLEMENT_STATE_LABELS[from], to: SETTLEMENT_STATE_LABELS[to] });
      await recordEvent(trx, Number(row.id), from, to, note?.trim() || (to === 'INVOICED' ? `发票${invoiceNo}` : null), req.user?.username ?? null);
      return summaryOf((await trx.selectFrom(STATEMENTS).selectAll().where('id', '=', Number(row.id)).executeTakeFirstOrThrow()) as Record<string, unknown>);
    });
  });

  routeContract(app, deleteSettlement, async (req) => {
    return db.transaction().execute(async (trx) => {
      const row = await loadVisibleStatement(app, req, req.params.id, trx);
      if (row.state !== 'DRAFT') throw new AppError('SETTLEMENT_DELETE_NOT_DRAFT', {});
      const id = Number(row.id);
      await trx.deleteFrom(LINES).where('settlement_id', '=', id).execute();
      await trx.deleteFrom(EVENTS).where('settlement_id', '=', id).execute();
      const res = await trx.deleteFrom(STATEMENTS).where('id', '=', id).where('state', '=', 'DRAFT').executeTakeFirst();
      return { deleted: Number(res.numDeletedRows) };
    });
  });

  routeContract(app, addSettlementReceipt, async (req) => {
    const amount = positiveFen(req.body.amount, '回款金额');
    return db.transaction().execute(async (trx) => {
      const row = await loadVisibleStatement(app, req, req.params.id, trx);
      const from = String(row.state) as SettlementState;
      if (Number(row.superseded) === 1) throw new AppError('SETTLEMENT_SUPERSEDED', {});
      if (!['INVOICED', 'PARTIAL', 'SETTLED'].includes(from)) throw new AppError('SETTLEMENT_RECEIPT_STATE', { state: SETTLEMENT_STATE_LABELS[from] });
      const id = Number(row.id);
      const now = nowIso();
      const username = req.user?.username ?? null;
      await trx.insertInto(RECEIPTS).values({ settlement_id: id, company_id: Number(row.company_id), month: String(row.month), amount, receipt_date: req.body.date, note: req.body.note?.trim() || null, username, create_time: now, update_time: now }).execute();
      const received = Number(row.received) + amount;
      const to: SettlementState = received >= Number(row.total_due) ? 'SETTLED' : 'PARTIAL';
      await trx.updateTable(STATEMENTS).set({ received, state: to, update_time: now }).where('id', '=', id).execute();
      await recordEvent(trx, id, from, to, `回款${fenToYuan(amount).toFixed(2)}元（${req.body.date}）`, username);
      return summaryOf((await trx.selectFrom(STATEMENTS).selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Record<string, unknown>);
    });
  });

  routeContract(app, listReceivables, async (req) => {
    const { companyId, page = 0, size = 10 } = req.query;
    const all = await receivablesOf(app, req, companyId);
    return { content: all.slice(page * size, page * size + size), totalElements: all.length };
  });

  routeContract(app, exportSettlement, async (req, reply) => {
    const row = await loadVisibleStatement(app, req, req.params.id);
    return sendSettlementXlsx(app, reply, row);
  });
}
