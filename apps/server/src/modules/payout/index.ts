import type { FastifyInstance } from 'fastify';
import { deletePayout, exportPayout, generatePayout, getPayoutBatch, listPayoutBatches, repayPayout } from '@app/shared/contracts/payout';
import { bankTemplateResource } from '@app/shared/resources/bankTemplate';
import { type Db, insertReturningId, nowIso } from '../../core/db.ts';
import type { Insertable } from 'kysely';
import type { DB } from '../../core/dbTypes.ts';
import { AppError } from '../../core/errors.ts';
import { attachmentDisposition } from '../../core/excel/writeXlsx.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { registerResource } from '../../crud/registerResource.ts';
import { chinaToday } from '../dispatch/lookups.ts';
import { loadVisibleCompany, whereCompanyVisible } from '../payroll/companies.ts';
import { openDifferences } from '../iit/reconcile.ts';
import { isConfirmed } from '../payroll/salaryStore.ts';
import { payoutFileName, writePayoutFile } from './bankFile.ts';
import { type Candidate, checkCandidates } from './precheck.ts';
import { registerPayoutReturns } from './returns.ts';
import { batchOut, batchToApi, visibleBatch, insertChunked, layoutOrRefuse, loadBatch, loadRows, loadTemplate, num, resultCounts, rowOut, type StoredBatch } from './store.ts';
import { countOf } from '../../crud/pagedQuery.ts';

/**
 * 代发工资 (issue 23 items 1-3): the bank templates (a plain resource whose layout is checked on save), payout
 * batches from a confirmed month, the bank file, the return file and re-pay batches. Every route checks the
 * company against the caller's data scope.
 */
export function registerPayout(app: FastifyInstance): void {
  registerResource(app, bankTemplateResource, {
    beforeWrite: (values, { existing }) => {
      layoutOrRefuse({ ...(existing ?? {}), ...values });
    },
    beforeDelete: async (ids, { db }) => {
      const used = await db.selectFrom('accounts_payout_batch').select('id').where('template_id', 'in', ids).executeTakeFirst();
      if (used) throw new AppError('BANKTEMPLATE_IN_USE');
    },
  });

  const db = () => app.ctx.db;

  routeContract(app, listPayoutBatches, async (req) => {
    const { companyId, month, state, page = 0, size = 10 } = req.query;
    let qb = db().selectFrom('accounts_payout_batch');
    if (companyId) qb = qb.where('accounts_payout_batch.company_id', '=', companyId);
    if (month) qb = qb.where('accounts_payout_batch.month', '=', month);
    if (state) qb = qb.where('accounts_payout_batch.state', '=', state);
    qb = await whereCompanyVisible(app, req, qb, 'accounts_payout_batch.company_id');
    const totalElements = await countOf(qb);
    const rows = totalElements
      ? ((await qb.selectAll('accounts_payout_batch').orderBy('accounts_payout_batch.id', 'desc').limit(size).offset(page * size).execute()) as unknown as StoredBatch[])
      : [];
    const counts = await resultCounts(db(), rows.map((r) => num(r.id)));
    return { content: rows.map((r) => batchToApi(r, counts.get(num(r.id)))), totalElements };
  });

  routeContract(app, getPayoutBatch, async (req) => {
    const b = await visibleBatch(app, req, req.params.id);
    const o = await db().selectFrom('accounts_iit_override').select(['reason', 'username', 'create_time', 'open_count']).where('batch_id', '=', num(b.id)).orderBy('id').executeTakeFirst();
    const iitOverride = o ? { reason: o.reason, username: o.username, time: o.create_time, openCount: num(o.open_count) } : null;
    return { batch: await batchOut(db(), b), rows: (await loadRows(db(), num(b.id))).map(rowOut), iitOverride };
  });

  routeContract(app, generatePayout, async (req) => {
    const { companyId, month, templateId, acceptLuhn } = req.body;
    const company = await loadVisibleCompany(app, req, db(), companyId);
    if (!(await isConfirmed(db(), companyId, month))) throw new AppError('PAYOUT_MONTH_NOT_CONFIRMED', { company: company.companyName, month });
    const existing = await db().selectFrom('accounts_payout_batch').select('id').where('company_id', '=', companyId).where('month', '=', month).where('kind', '=', 'pay').executeTakeFirst();
    if (existing) throw new AppError('PAYOUT_BATCH_EXISTS', { company: company.companyName, month, id: num(existing.id) });
    const template = await loadTemplate(db(), templateId);
    const salaries = (await db()
      .selectFrom('accounts_salary as s')
      .leftJoin('accounts_staff as st', (j) => j.onRef('st.company_id', '=', 's.company_id').onRef('st.id_card', '=', 's.id_card'))
      .select(['s.id as id', 's.staff_name as staffName', 's.id_card as idCard', 's.real_salary as realSalary', 's.tag as tag', 'st.id as staffId', 'st.staff_name as cardName', 'st.bankcard_number as card', 'st.salary_bank as bank', 'st.phone as phone'])
      .where('s.company_id', '=', companyId)
      .where('s.month', '=', month)
      .orderBy('s.id')
      .execute()) as unknown as { id: number; staffName: string; idCard: string | null; realSalary: number | string | null; tag: number; staffId: number | null; cardName: string | null; card: string | null; bank: string | null; phone: string | null }[];
    // the month's confirmed 实发 total, which the batch must equal to the fen
    const confirmedTotal = salaries.filter((s) => Number(s.tag) === 1).reduce((t, s) => t + num(s.realSalary), 0);
    const paid = salaries.filter((s) => num(s.realSalary) !== 0);
    if (!paid.length) throw new AppError('PAYOUT_NOTHING_TO_PAY', { company: company.companyName, month });
    const candidates: (Candidate & { staffId: number | null })[] = paid.map((s) => ({
      id: num(s.id),
      staffId: s.staffId === null ? null : num(s.staffId),
      staffName: s.staffName,
      idCard: s.idCard,
      account: s.card,
      accountName: s.cardName,
      amountFen: num(s.realSalary),
      bankName: s.bank,
      phone: s.phone,
    }));
    const { problems, fileRows, luhnAccepted } = checkCandidates(template.layout, candidates, new Set(acceptLuhn ?? []), confirmedTotal);
    if (problems.length) return { batch: null, problems };
    const id = await createBatch(db(), app.ctx.dialect, {
      company_id: companyId,
      company_name: company.companyName,
      dispatch_company: company.dispatchCompany,
      month,
      template_id: template.id,
      template_name: template.name,
      kind: 'pay',
      parent_id: null,
      create_by: req.user?.username ?? null,
      rows: candidates.map((c, i) => ({
        seq: fileRows[i].seq,
        salary_id: c.id,
        staff_id: c.staffId,
        staff_name: c.staffName,
        id_card: c.idCard,
        account: fileRows[i].account,
        account_name: fileRows[i].name,
        bank_name: c.bankName ?? null,
        phone: c.phone ?? null,
        amount: c.amountFen,
        luhn_override: luhnAccepted.has(c.id) ? 1 : 0,
      })),
    });
    return { batch: await batchOut(db(), await loadBatch(db(), id)), problems: [] };
  });

  routeContract(app, repayPayout, async (req) => {
    const parent = await visibleBatch(app, req, req.params.id);
    // failed rows not yet in a re-pay batch: a paid row (ok) is never taken, a row already re-paid neither
    const failed = (await loadRows(db(), num(parent.id))).filter((r) => r.result === 'failed' && r.repaid_by === null);
    if (!failed.length) throw new AppError('PAYOUT_NO_FAILED_ROWS');
    const template = await loadTemplate(db(), num(parent.template_id));
    const candidates: Candidate[] = failed.map((r) => ({ id: num(r.id), staffName: r.staff_name, idCard: r.id_card, account: r.account, accountName: r.account_name, amountFen: num(r.amount), bankName: r.bank_name, phone: r.phone }));
    const expected = candidates.reduce((t, c) => t + c.amountFen, 0);
    const accepted = new Set([...(req.body.acceptLuhn ?? []), ...failed.filter((r) => Number(r.luhn_override) === 1).map((r) => num(r.id))]);
    const { problems, fileRows, luhnAccepted } = checkCandidates(template.layout, candidates, accepted, expected);
    if (problems.length) return { batch: null, problems };
    const id = await createBatch(db(), app.ctx.dialect, {
      company_id: num(parent.company_id),
      company_name: parent.company_name,
      dispatch_company: parent.dispatch_company,
      month: parent.month,
      template_id: template.id,
      template_name: template.name,
      kind: 'repay',
      parent_id: num(parent.id),
      create_by: req.user?.username ?? null,
      rows: failed.map((r, i) => ({
        seq: fileRows[i].seq,
        salary_id: r.salary_id,
        staff_id: r.staff_id,
        staff_name: r.staff_name,
        id_card: r.id_card,
        account: fileRows[i].account,
        account_name: fileRows[i].name,
        bank_name: r.bank_name,
        phone: r.phone,
        amount: num(r.amount),
        luhn_override: luhnAccepted.has(num(r.id)) ? 1 : 0,
      })),
      repaysRows: failed.map((r) => num(r.id)),
    });
    return { batch: await batchOut(db(), await loadBatch(db(), id)), problems: [] };
  });

  routeContract(app, exportPayout, async (req, reply) => {
    const b = await visibleBatch(app, req, req.params.batchId);
    // the first export releases the money: an IIT reconciliation of the month with open differences holds it unless
    // the clerk overrides with a reason (a later download of the same locked file is not held)
    const open = b.state === 'pending' ? await openDifferences(db(), b.dispatch_company, b.month) : null;
    if (open) {
      const { iitOverride, iitOverrideReason } = req.query;
      if (iitOverride !== 'true') throw new AppError('IIT_RECONCILE_OPEN', { agent: b.dispatch_company ?? '', month: b.month, open: open.open });
      if (!iitOverrideReason) throw new AppError('IIT_OVERRIDE_REASON');
      const now = nowIso();
      await db()
        .insertInto('accounts_iit_override')
        .values({ batch_id: num(b.id), dispatch_company: b.dispatch_company ?? '', month: b.month, reconcile_id: open.reconcileId, open_count: open.open, reason: iitOverrideReason, username: req.user?.username ?? null, create_time: now, update_time: now })
        .execute();
    }
    const template = await loadTemplate(db(), num(b.template_id));
    const rows = await loadRows(db(), num(b.id));
    const exportTime = b.export_time ?? nowIso();
    // the payment date is the first export's (China) day, so a second download gives the same bytes
    const info = { batchNo: batchNo(b), month: b.month, date: chinaToday(Date.parse(exportTime)).replace(/-/g, ''), totalFen: rows.reduce((t, r) => t + num(r.amount), 0), count: rows.length };
    const fileRows = rows.map((r) => ({ seq: num(r.seq), account: r.account, name: r.account_name, amountFen: num(r.amount), idType: '01', idNumber: r.id_card ?? '', bankName: r.bank_name ?? '', phone: r.phone ?? '' }));
    const { bytes, extension } = writePayoutFile(template.layout, info, fileRows);
    const fileName = payoutFileName(template.layout, info, extension);
    if (b.state === 'pending') {
      await db()
        .updateTable('accounts_payout_batch')
        .set({ state: 'exported', export_time: exportTime, export_by: req.user?.username ?? null, file_name: fileName, update_time: nowIso() })
        .where('id', '=', num(b.id))
        .where('state', '=', 'pending')
        .execute();
    }
    const mime = extension === 'xls' ? 'application/vnd.ms-excel' : extension === 'xlsx' ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : extension === 'csv' ? 'text/csv' : 'text/plain';
    reply.header('content-type', mime).header('content-disposition', attachmentDisposition(fileName)).header('cache-control', 'no-store');
    return reply.send(bytes);
  });

  routeContract(app, deletePayout, async (req) => {
    const b = await visibleBatch(app, req, req.params.id);
    if (b.state !== 'pending') throw new AppError('PAYOUT_LOCKED');
    await db().transaction().execute(async (trx) => {
      // the failed rows this re-pay batch would have paid are open again
      await trx.updateTable('accounts_payout_row').set({ repaid_by: null, update_time: nowIso() }).where('repaid_by', 'in', trx.selectFrom('accounts_payout_row').select('id').where('batch_id', '=', num(b.id))).execute();
      await trx.deleteFrom('accounts_payout_row').where('batch_id', '=', num(b.id)).execute();
      await trx.deleteFrom('accounts_payout_batch').where('id', '=', num(b.id)).where('state', '=', 'pending').execute();
    });
    return { deleted: 1 };
  });

  registerPayoutReturns(app);
}

const batchNo = (b: StoredBatch) => `P${b.month.replace('-', '')}${String(num(b.id)).padStart(6, '0')}`;

interface NewBatch {
  company_id: number;
  company_name: string | null;
  dispatch_company: string | null;
  month: string;
  template_id: number;
  template_name: string;
  kind: 'pay' | 'repay';
  parent_id: number | null;
  create_by: string | null;
  rows: Omit<Insertable<DB['accounts_payout_row']>, 'batch_id' | 'result' | 'create_time' | 'update_time'>[];
  /** re-pay: the failed rows of the parent each new row pays (same order as rows) */
  repaysRows?: number[];
}

async function createBatch(db: Db, dialect: Parameters<typeof insertReturningId>[1], b: NewBatch): Promise<number> {
  const now = nowIso();
  return db.transaction().execute(async (trx) => {
    const total = b.rows.reduce((t, r) => t + Number(r.amount), 0);
    const { rows, repaysRows, ...head } = b;
    const id = await insertReturningId(trx, dialect, 'accounts_payout_batch', { ...head, state: 'pending', row_count: rows.length, total, create_time: now, update_time: now });
    await insertChunked(trx, 'accounts_payout_row', rows.map((r) => ({ ...r, batch_id: id, result: '', create_time: now, update_time: now })));
    if (repaysRows?.length) {
      const created = await trx.selectFrom('accounts_payout_row').select(['id', 'seq']).where('batch_id', '=', id).orderBy('seq').execute();
      for (let i = 0; i < repaysRows.length; i++) {
        // only a row that is still open: two clerks re-paying at once cannot both take it
        const r = await trx.updateTable('accounts_payout_row').set({ repaid_by: num(created[i].id), update_time: now }).where('id', '=', repaysRows[i]).where('repaid_by', 'is', null).where('result', '=', 'failed').executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) throw new AppError('PAYOUT_NO_FAILED_ROWS');
      }
    }
    return id;
  });
}
