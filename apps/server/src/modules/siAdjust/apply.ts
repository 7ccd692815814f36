import type { SiInsurance } from '@app/shared/contracts/siAdjust';
import { fenToYuan } from '@app/shared/payroll';
import type { SalaryFieldName } from '@app/shared/resources/salary';
import { staffResource } from '@app/shared/resources/staff';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { insertReturningId, nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { requestLanguage } from '../../core/errorLanguage.ts';
import type { CompanyRef } from '../payroll/companies.ts';
import { fieldColumn, isConfirmed, lockCompanyMonth, SALARY_TABLE, salaryColumn } from '../payroll/salaryStore.ts';
import { type AdjustRequest, planAdjustment } from './adjust.ts';
import { BACK_ITEMS } from './backItems.ts';

/**
 * 应用调基: in one transaction under the lock of the month the 补差 go into, (1) the staff records get the new bases,
 * (2) the unconfirmed salary rows from the adjustment month on get them too and must be calculated again, (3) the
 * 补差 of the confirmed months are written as items of the next open month, and (4) a batch row records it all.
 * Confirmed rows are never touched. The plan is made again inside the transaction, so two clerks applying the same
 * bases at once place the 补差 once (the second sees the first's items).
 */

const ST = (name: string) => fieldColumn(staffResource, name);
const S = salaryColumn;
const STAFF_COLUMN: Record<SiInsurance, SalaryFieldName> = { yanglao: 'yanglaoBase', yiliao: 'yiliaoBase', shiye: 'shiyeBase', gongshang: 'gongshangBase', shengyu: 'shengyuBase', gongjijin: 'gjjBase' };

export async function applyAdjustment(app: FastifyInstance, req: FastifyRequest, company: CompanyRef, input: AdjustRequest) {
  const { db, dialect } = app.ctx;
  const username = req.user?.username ?? null;
  return db.transaction().execute(async (trx) => {
    const language = requestLanguage(req.headers['accept-language']);
    const first = await planAdjustment(trx, company, input, language);
    // the month the 补差 go into is locked against 确认 while they are written
    if (first.preview.targetMonth) {
      await lockCompanyMonth(trx, dialect, company.id, first.preview.targetMonth);
      if (await isConfirmed(trx, company.id, first.preview.targetMonth)) throw new AppError('SIADJUST_TARGET_CONFIRMED', { month: first.preview.targetMonth });
    }
    const plan = first.preview.targetMonth ? await planAdjustment(trx, company, input, language) : first;
    if (!plan.people.length) throw new AppError('SIADJUST_NOBODY', { reason: plan.preview.skipped.length ? { code: 'SIADJUST_SKIPPED_COUNT', params: { count: plan.preview.skipped.length } } : { code: 'SIADJUST_COMPANY_NO_STAFF' } });
    const now = nowIso();
    let rowsReset = 0;
    for (const p of plan.people) {
      const staffSet: Record<string, number> = {};
      const rowSet: Record<string, number> = {};
      for (const [ins, fen] of Object.entries(p.newBases) as [SiInsurance, number][]) {
        staffSet[ST(STAFF_COLUMN[ins])] = fen;
        rowSet[S(STAFF_COLUMN[ins])] = fen;
      }
      // a separate personal medical base follows the medical base
      if (p.newBases.yiliao !== undefined && p.staff.yiliaoBaseSelf !== null) {
        staffSet[ST('yiliaoBaseSelf')] = p.newBases.yiliao;
        rowSet[S('yiliaoBaseSelf')] = p.newBases.yiliao;
      }
      if (!Object.keys(staffSet).length) continue;
      await trx.updateTable(staffResource.table).set(staffSet).where(ST('id'), '=', p.staff.id).execute();
      const r = await trx
        .updateTable(SALARY_TABLE)
        .set({ ...rowSet, [S('calculated')]: 0, [S('updateTime')]: now })
        .where(S('companyId'), '=', company.id)
        .where(S('idCard'), '=', p.staff.idCard)
        .where(S('month'), '>=', input.fromMonth)
        .where(S('tag'), '=', 0)
        .executeTakeFirst();
      rowsReset += Number(r.numUpdatedRows ?? 0);
    }
    const totalSelf = plan.items.reduce((a, i) => a + i.self, 0);
    const totalCompany = plan.items.reduce((a, i) => a + i.company, 0);
    const batchId = await insertReturningId(trx, dialect, 'accounts_si_adjust_batch', {
      company_id: company.id,
      company_name: company.companyName.slice(0, 100),
      from_month: input.fromMonth,
      source: input.source,
      target_month: plan.preview.targetMonth,
      people: plan.people.length,
      item_count: plan.items.length,
      total_self: totalSelf,
      total_company: totalCompany,
      create_by: username,
      create_time: now,
      update_time: now,
    });
    const target = plan.preview.targetMonth;
    if (target && plan.items.length) {
      const values = plan.items.map((i) => ({
        company_id: company.id,
        id_card: i.idCard,
        staff_name: i.staffName?.slice(0, 50) ?? null,
        insurance: i.insurance,
        refer_month: i.referMonth,
        target_month: target,
        amount_self: i.self,
        amount_company: i.company,
        source: 'adjust',
        batch_id: batchId,
        recon_line_id: null,
        reason: `调基（${input.fromMonth}起）`,
        create_by: username,
        create_time: now,
        update_time: now,
      }));
      for (let i = 0; i < values.length; i += 500) await trx.insertInto(BACK_ITEMS).values(values.slice(i, i + 500)).execute();
      // the target month's rows of these people must be calculated again to carry the 补差
      const cards = [...new Set(plan.items.map((i) => i.idCard))];
      for (let i = 0; i < cards.length; i += 1000) {
        await trx
          .updateTable(SALARY_TABLE)
          .set({ [S('calculated')]: 0, [S('updateTime')]: now })
          .where(S('companyId'), '=', company.id)
          .where(S('month'), '=', target)
          .where(S('tag'), '=', 0)
          .where(S('idCard'), 'in', cards.slice(i, i + 1000))
          .execute();
      }
    }
    return {
      batchId,
      targetMonth: target,
      staffUpdated: plan.people.filter((p) => Object.keys(p.newBases).length).length,
      rowsReset,
      backRows: plan.items.length,
      totalSelf: fenToYuan(totalSelf),
      totalCompany: fenToYuan(totalCompany),
    };
  });
}
