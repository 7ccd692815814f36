import type { FastifyInstance } from 'fastify';
import { correctPayoutRow, importPayoutReturn } from '@app/shared/contracts/payout';
import { luhnValid } from '@app/shared/payout/bankLayout';
import { type Db, nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { WorkbookFormatError } from '../../core/excel/types.ts';
import { readUpload } from '../../crud/excel.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { CARD_DIGITS, normalizeCard } from './precheck.ts';
import { ReturnFileError, readReturnFile } from './returnFile.ts';
import { batchOut, loadBatch, loadRows, loadTemplate, num, rowOut, type StoredRow, visibleBatch } from './store.ts';

/**
 * The bank's return file (回盘, issue 23 item 3): each line is matched to a row of the batch by 序号, account and
 * amount; the row keeps the bank's result and reason. The first answer for a row is final: a paid row never turns
 * failed (it would be re-paid: paid twice) and a failed row never turns paid (its money may already be in a re-pay
 * batch). Lines that match no row, or contradict it, are listed, never applied silently.
 */
type Unmatched = { line: number; seq: string; account: string; amount: number | null; why: 'noRow' | 'accountDiffers' | 'amountDiffers' | 'alreadyPaid' | 'alreadyFailed' | 'duplicateLine' };

export function registerPayoutReturns(app: FastifyInstance): void {
  const db = () => app.ctx.db;

  routeContract(app, importPayoutReturn, async (req) => {
    const b = await visibleBatch(app, req, req.params.batchId);
    if (b.state === 'pending') throw new AppError('PAYOUT_NOT_EXPORTED');
    const template = await loadTemplate(db(), num(b.template_id));
    const upload = await readUpload(req);
    let lines: Awaited<ReturnType<typeof readReturnFile>>;
    try {
      lines = await readReturnFile(upload.data, template.layout);
    } catch (err) {
      if (err instanceof ReturnFileError || err instanceof WorkbookFormatError) throw new AppError('PAYOUT_RETURN_UNREADABLE', { reason: { code: err.code, params: err.params } });
      throw err;
    }
    const rows = await loadRows(db(), num(b.id));
    const bySeq = new Map(rows.map((r) => [String(num(r.seq)), r]));
    const unmatched: Unmatched[] = [];
    const seen = new Set<string>();
    const okIds: number[] = [];
    // the bank's own words (its reason, else its status); none when it gave neither: the row's result says failed
    const failedByReason = new Map<string | null, number[]>();
    for (const l of lines) {
      const u = (why: Unmatched['why']) => unmatched.push({ line: l.line, seq: l.seq, account: l.account, amount: l.amountFen === null ? null : l.amountFen / 100, why });
      const row = bySeq.get(l.seq);
      if (!row) u('noRow');
      else if (seen.has(l.seq)) u('duplicateLine');
      else if (normalizeCard(l.account) !== row.account) u('accountDiffers');
      else if (l.amountFen !== num(row.amount)) u('amountDiffers');
      else if (row.result === 'ok' && !l.success) u('alreadyPaid');
      else if (row.result === 'failed' && l.success) u('alreadyFailed');
      else {
        seen.add(l.seq);
        if (row.result !== '') continue;
        if (l.success) okIds.push(num(row.id));
        else {
          const reason = (l.reason || l.status).slice(0, 200) || null;
          failedByReason.set(reason, [...(failedByReason.get(reason) ?? []), num(row.id)]);
        }
      }
    }
    const now = nowIso();
    await db().transaction().execute(async (trx) => {
      for (let i = 0; i < okIds.length; i += 500)
        await trx.updateTable('accounts_payout_row').set({ result: 'ok', reason: null, update_time: now }).where('id', 'in', okIds.slice(i, i + 500)).where('result', '=', '').execute();
      for (const [reason, ids] of failedByReason)
        for (let i = 0; i < ids.length; i += 500)
          await trx.updateTable('accounts_payout_row').set({ result: 'failed', reason, update_time: now }).where('id', 'in', ids.slice(i, i + 500)).where('result', '=', '').execute();
      await trx.updateTable('accounts_payout_batch').set({ return_time: now, update_time: now }).where('id', '=', num(b.id)).execute();
      await recomputeStates(trx, num(b.company_id), b.month);
    });
    const after = await loadRows(db(), num(b.id));
    const answered = new Set([...seen]);
    return {
      ok: after.filter((r) => r.result === 'ok').length,
      failed: after.filter((r) => r.result === 'failed').length,
      unmatched,
      missing: rows.filter((r) => !answered.has(String(num(r.seq))) && r.result === '').length,
      batch: await batchOut(db(), await loadBatch(db(), num(b.id))),
    };
  });

  routeContract(app, correctPayoutRow, async (req) => {
    const row = (await db().selectFrom('accounts_payout_row').selectAll().where('id', '=', req.params.id).executeTakeFirst()) as unknown as StoredRow | undefined;
    if (!row) throw new AppError('PAYOUT_ROW_NOT_FOUND');
    const b = await visibleBatch(app, req, num(row.batch_id));
    if (row.result !== 'failed' || row.repaid_by !== null) throw new AppError('PAYOUT_ROW_NOT_FAILED');
    const { accountName, bankName, acceptLuhn } = req.body;
    const account = normalizeCard(req.body.account);
    if (!CARD_DIGITS.test(account)) throw new AppError('PAYOUT_CARD_INVALID');
    const luhnOk = luhnValid(account);
    if (!luhnOk && !acceptLuhn) throw new AppError('PAYOUT_CARD_LUHN');
    if (accountName !== row.staff_name.trim()) throw new AppError('PAYOUT_NAME_MISMATCH', { accountName, staffName: row.staff_name });
    const now = nowIso();
    await db().transaction().execute(async (trx) => {
      await trx
        .updateTable('accounts_payout_row')
        .set({ account, account_name: accountName, ...(bankName !== undefined ? { bank_name: bankName || null } : {}), luhn_override: luhnOk ? 0 : 1, update_time: now })
        .where('id', '=', num(row.id))
        .execute();
      // the staff record keeps the corrected card, so next month's batch has it
      if (row.staff_id !== null)
        await trx.updateTable('accounts_staff').set({ bankcard_number: account, update_time: now }).where('id', '=', num(row.staff_id)).where('company_id', '=', num(b.company_id)).execute();
    });
    const updated = (await db().selectFrom('accounts_payout_row').selectAll().where('id', '=', num(row.id)).executeTakeFirstOrThrow()) as unknown as StoredRow;
    return rowOut(updated);
  });
}

/**
 * The state of every exported batch of a company's month from its rows: 已完成 when every row is paid (itself or
 * through its re-pay row, however many re-pays deep), 部分失败 when a row failed and is not paid yet, 已导出 while
 * rows still wait for the bank's answer.
 */
export async function recomputeStates(db: Db, companyId: number, month: string): Promise<void> {
  const batches = await db.selectFrom('accounts_payout_batch').select(['id', 'state']).where('company_id', '=', companyId).where('month', '=', month).execute();
  const ids = batches.map((b) => num(b.id));
  if (!ids.length) return;
  const rows = (await db.selectFrom('accounts_payout_row').select(['id', 'batch_id', 'result', 'repaid_by']).where('batch_id', 'in', ids).execute()) as unknown as Pick<StoredRow, 'id' | 'batch_id' | 'result' | 'repaid_by'>[];
  const byId = new Map(rows.map((r) => [num(r.id), r]));
  const paid = (r: (typeof rows)[number], depth = 0): boolean =>
    r.result === 'ok' || (r.result === 'failed' && r.repaid_by !== null && depth < 50 && !!byId.get(num(r.repaid_by)) && paid(byId.get(num(r.repaid_by))!, depth + 1));
  for (const b of batches) {
    if (b.state === 'pending') continue;
    const own = rows.filter((r) => num(r.batch_id) === num(b.id));
    const state = own.every((r) => paid(r)) ? 'done' : own.some((r) => r.result === 'failed' && !paid(r)) ? 'part_failed' : 'exported';
    if (state !== b.state) await db.updateTable('accounts_payout_batch').set({ state, update_time: nowIso() }).where('id', '=', num(b.id)).execute();
  }
}
