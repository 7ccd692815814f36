import type { FastifyInstance } from 'fastify';
import {
  acknowledgeIitDiff,
  exportIitBonus,
  exportIitChanges,
  exportIitPersons,
  exportIitWage,
  getIitChanges,
  getIitReconcile,
  importIitPersons,
  importIitResult,
  listIitDiffs,
} from '@app/shared/contracts/iit';
import { ITS_BONUS_COLUMNS, ITS_BONUS_SHEET, ITS_PERSON_COLUMNS, ITS_PERSON_SHEET, ITS_WAGE_COLUMNS, ITS_WAGE_SHEET } from '@app/shared/iit/itsLayouts';
import { nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { sendXlsx } from '../../core/excel/writeXlsx.ts';
import { readUpload } from '../../crud/excel.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { resolveAgent } from './agent.ts';
import { CHANGE_COLUMNS, computeChanges, importPersonList } from './changes.ts';
import { bonusSheetRows, personSheetRows, textColumns, wageSheetRows } from './declaration.ts';
import { diffOut, importResult, latestReconcile, reconcileOut } from './reconcile.ts';
import { countOf } from '../../crud/pagedQuery.ts';

/**
 * 薪资管理 › 个税申报 (issue 23 items 4-6): the ITS import workbooks of a withholding agent, the reconciliation of
 * ITS's calculated result and 增减员. The payout gate (an open reconciliation holds the bank file) is in
 * modules/payout, reading `openDifferences`.
 */
export function registerIit(app: FastifyInstance): void {
  const db = () => app.ctx.db;
  const fileName = (what: string, agent: string, period: string) => `${what}_${agent}_${period}`;

  routeContract(app, exportIitWage, async (req, reply) => {
    const scope = await resolveAgent(req, db(), req.query.dispatchCompany);
    const rows = await wageSheetRows(db(), scope, req.query.month);
    if (!rows.length) throw new AppError('IIT_NOTHING_CONFIRMED', { agent: scope.agent, period: req.query.month });
    return sendXlsx(reply, { fileName: fileName('正常工资薪金所得', scope.agent, req.query.month), sheetName: ITS_WAGE_SHEET, columns: textColumns(ITS_WAGE_COLUMNS), rows });
  });

  routeContract(app, exportIitBonus, async (req, reply) => {
    const scope = await resolveAgent(req, db(), req.query.dispatchCompany);
    const rows = await bonusSheetRows(db(), scope, req.query.year);
    return sendXlsx(reply, { fileName: fileName('全年一次性奖金', scope.agent, req.query.year), sheetName: ITS_BONUS_SHEET, columns: textColumns(ITS_BONUS_COLUMNS), rows });
  });

  routeContract(app, exportIitPersons, async (req, reply) => {
    const scope = await resolveAgent(req, db(), req.query.dispatchCompany);
    const rows = await personSheetRows(db(), scope, req.query.month);
    if (!rows.length) throw new AppError('IIT_NOTHING_CONFIRMED', { agent: scope.agent, period: req.query.month });
    return sendXlsx(reply, { fileName: fileName('人员信息采集', scope.agent, req.query.month), sheetName: ITS_PERSON_SHEET, columns: textColumns(ITS_PERSON_COLUMNS), rows });
  });

  routeContract(app, importIitResult, async (req) => {
    const scope = await resolveAgent(req, db(), req.query.dispatchCompany);
    const upload = await readUpload(req);
    return importResult(db(), app.ctx.dialect, scope, req.query.month, upload, req.user?.username ?? null);
  });

  routeContract(app, getIitReconcile, async (req) => {
    const scope = await resolveAgent(req, db(), req.query.dispatchCompany);
    const latest = await latestReconcile(db(), scope.agent, req.query.month);
    return { reconcile: latest ? await reconcileOut(db(), latest.id) : null };
  });

  /** A reconciliation (or one of its differences) checked against the caller's agents. */
  async function visibleReconcile(req: Parameters<typeof resolveAgent>[0], id: number) {
    const r = await db().selectFrom('accounts_iit_reconcile').select(['id', 'dispatch_company', 'month']).where('id', '=', id).executeTakeFirst();
    if (!r) throw new AppError('IIT_DIFF_NOT_FOUND');
    await resolveAgent(req, db(), r.dispatch_company);
    return { id: Number(r.id), agent: r.dispatch_company, month: r.month };
  }

  routeContract(app, listIitDiffs, async (req) => {
    const r = await visibleReconcile(req, req.params.id);
    const { page = 0, size = 10, open } = req.query;
    let qb = db().selectFrom('accounts_iit_diff').where('reconcile_id', '=', r.id);
    if (open === 'true') qb = qb.where('ack_time', 'is', null);
    const total = await countOf(qb);
    const rows = await qb
      .select(['id', 'kind', 'id_card', 'staff_name', 'ours', 'its', 'ack_reason', 'ack_by', 'ack_time'])
      .orderBy('id')
      .limit(size)
      .offset(page * size)
      .execute();
    return { content: rows.map((d) => diffOut({ ...d, id: Number(d.id) })), totalElements: total };
  });

  routeContract(app, acknowledgeIitDiff, async (req) => {
    const d = await db().selectFrom('accounts_iit_diff').select(['id', 'reconcile_id']).where('id', '=', req.params.id).executeTakeFirst();
    if (!d) throw new AppError('IIT_DIFF_NOT_FOUND');
    const r = await visibleReconcile(req, Number(d.reconcile_id));
    const latest = await latestReconcile(db(), r.agent, r.month);
    if (latest?.id !== r.id) throw new AppError('IIT_DIFF_SUPERSEDED');
    const now = nowIso();
    await db()
      .updateTable('accounts_iit_diff')
      .set({ ack_reason: req.body.reason, ack_by: req.user?.username ?? null, ack_time: now, update_time: now })
      .where('id', '=', Number(d.id))
      .execute();
    const stored = await db().selectFrom('accounts_iit_diff').select(['id', 'kind', 'id_card', 'staff_name', 'ours', 'its', 'ack_reason', 'ack_by', 'ack_time']).where('id', '=', Number(d.id)).executeTakeFirstOrThrow();
    return { diff: diffOut({ ...stored, id: Number(stored.id) }), reconcile: await reconcileOut(db(), r.id) };
  });

  const changeCounts = async (scope: Awaited<ReturnType<typeof resolveAgent>>, month: string) => {
    const c = await computeChanges(db(), scope, month);
    return { imported: c.imported, addCount: c.add.length, leaveCount: c.leave.length };
  };

  routeContract(app, importIitPersons, async (req) => {
    const scope = await resolveAgent(req, db(), req.query.dispatchCompany);
    const upload = await readUpload(req);
    await importPersonList(db(), scope, req.query.month, upload.data);
    return changeCounts(scope, req.query.month);
  });

  routeContract(app, getIitChanges, async (req) => changeCounts(await resolveAgent(req, db(), req.query.dispatchCompany), req.query.month));

  routeContract(app, exportIitChanges, async (req, reply) => {
    const scope = await resolveAgent(req, db(), req.query.dispatchCompany);
    const c = await computeChanges(db(), scope, req.query.month);
    if (!c.imported) throw new AppError('IIT_NO_PERSON_LIST', { agent: scope.agent, month: req.query.month });
    return sendXlsx(reply, { fileName: fileName('增减员', scope.agent, req.query.month), sheetName: ITS_PERSON_SHEET, columns: textColumns(CHANGE_COLUMNS), rows: [...c.add, ...c.leave] });
  });
}
