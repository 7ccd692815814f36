import type { FastifyInstance, FastifyRequest } from 'fastify';
import { acceptSiReconLines, importSiRecon, listSiReconLines, listSiRecons, type SiInsurance } from '@app/shared/contracts/siAdjust';
import { fenToYuan } from '@app/shared/payroll';
import { insertReturningId, nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { readUpload } from '../../crud/excel.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { nextMonth } from '../payroll/arrears.ts';
import { loadVisibleCompany, whereCompanyVisible } from '../payroll/companies.ts';
import { isConfirmed, lockCompanyMonth, SALARY_TABLE, salaryColumn } from '../payroll/salaryStore.ts';
import type { AnySelect } from '../../crud/registerResource.ts';
import { BACK_ITEMS } from './backItems.ts';
import { compareFigures, lineOut, ourFigures, readBureauFile, reconSummaryOf, staffCardsOf } from './recon.ts';
import { SheetError } from './sheet.ts';
import { countOf } from '../../crud/pagedQuery.ts';

/** 社保平账 routes (issue 24 item 4): import a bureau statement, list it and its differences, accept differences. */

const RECONS = 'accounts_si_recon';
const LINES = 'accounts_si_recon_line';
const S = salaryColumn;
const MONTH_RE = /^\d{4}-(0[1-9]|1[0-2])$/;

async function visibleRecon(app: FastifyInstance, req: FastifyRequest, id: number) {
  const r = (await app.ctx.db.selectFrom(RECONS).selectAll().where('id', '=', id).executeTakeFirst()) as Record<string, unknown> | undefined;
  if (!r) throw new AppError('SIADJUST_RECON_NOT_FOUND');
  try {
    return { recon: r, company: await loadVisibleCompany(app, req, app.ctx.db, Number(r.company_id)) };
  } catch {
    throw new AppError('SIADJUST_RECON_NOT_FOUND');
  }
}

export function registerSiRecon(app: FastifyInstance): void {
  const db = () => app.ctx.db;

  routeContract(app, importSiRecon, async (req) => {
    const upload = await readUpload(req);
    const companyId = Number(upload.fields.companyId);
    const month = String(upload.fields.month ?? '');
    if (!Number.isSafeInteger(companyId) || companyId <= 0 || !MONTH_RE.test(month)) throw new AppError('SIADJUST_RECON_PARAMS');
    const company = await loadVisibleCompany(app, req, db(), companyId);
    if (!(await isConfirmed(db(), company.id, month))) throw new AppError('SIADJUST_RECON_MONTH_OPEN', { company: company.companyName, month });
    let bureau: Awaited<ReturnType<typeof readBureauFile>>;
    try {
      bureau = await readBureauFile(upload.data, month);
    } catch (err) {
      if (err instanceof SheetError) throw new AppError('SIADJUST_RECON_UNREADABLE', { reason: { code: err.code, params: err.params } });
      throw err;
    }
    const ours = await ourFigures(db(), company.id, month);
    const { lines, matched } = compareFigures(bureau.figures, ours);
    const now = nowIso();
    const username = req.user?.username ?? null;
    const id = await db()
      .transaction()
      .execute(async (trx) => {
        const reconId = await insertReturningId(trx, app.ctx.dialect, RECONS, {
          company_id: company.id,
          company_name: company.companyName.slice(0, 100),
          month,
          file_name: upload.fileName.slice(0, 200),
          file_rows: bureau.rows,
          matched,
          line_count: lines.length,
          create_by: username,
          create_time: now,
          update_time: now,
        });
        const values = lines.map((l) => ({
          recon_id: reconId,
          id_card: l.idCard.slice(0, 18),
          staff_name: l.staffName?.slice(0, 50) ?? null,
          insurance: l.insurance,
          kind: l.kind,
          bureau_self: l.bureau?.self ?? null,
          bureau_company: l.bureau?.company ?? null,
          our_self: l.ours?.self ?? null,
          our_company: l.ours?.company ?? null,
          state: 'open',
          create_time: now,
          update_time: now,
        }));
        for (let i = 0; i < values.length; i += 500) await trx.insertInto(LINES).values(values.slice(i, i + 500)).execute();
        return reconId;
      });
    const row = (await db().selectFrom(RECONS).selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Record<string, unknown>;
    return reconSummaryOf(db(), row);
  });

  routeContract(app, listSiRecons, async (req) => {
    const page = req.query.page ?? 0;
    const size = req.query.size ?? 20;
    let qb = db().selectFrom(RECONS) as unknown as AnySelect;
    if (req.query.companyId) qb = qb.where('company_id', '=', req.query.companyId);
    if (req.query.month) qb = qb.where('month', '=', req.query.month);
    qb = await whereCompanyVisible(app, req, qb, `${RECONS}.company_id`);
    const totalElements = await countOf(qb);
    const rows = (await qb.selectAll().orderBy('id', 'desc').limit(size).offset(page * size).execute()) as Record<string, unknown>[];
    return { content: await Promise.all(rows.map((r) => reconSummaryOf(db(), r))), totalElements };
  });

  routeContract(app, listSiReconLines, async (req) => {
    const { recon } = await visibleRecon(app, req, req.params.id);
    const page = req.query.page ?? 0;
    const size = req.query.size ?? 20;
    let qb = db().selectFrom(LINES).where('recon_id', '=', Number(recon.id));
    if (req.query.kind) qb = qb.where('kind', '=', req.query.kind);
    if (req.query.state) qb = qb.where('state', '=', req.query.state);
    const totalElements = await countOf(qb);
    const rows = await qb.selectAll().orderBy('id').limit(size).offset(page * size).execute();
    return { content: rows.map((r) => lineOut(r as Record<string, unknown>)), totalElements };
  });

  routeContract(app, acceptSiReconLines, async (req) => {
    const { recon, company } = await visibleRecon(app, req, req.params.id);
    const ids = [...new Set(req.body.lineIds)];
    const username = req.user?.username ?? null;
    return db()
      .transaction()
      .execute(async (trx) => {
        const lines = (await trx.selectFrom(LINES).selectAll().where('recon_id', '=', Number(recon.id)).where('id', 'in', ids).where('state', '=', 'open').execute()) as Record<string, unknown>[];
        if (lines.length !== ids.length) throw new AppError('SIADJUST_RECON_ACCEPTED', { count: ids.length - lines.length });
        const cards = [...new Set(lines.map((l) => String(l.id_card).toUpperCase()))];
        const staff = await staffCardsOf(trx, company.id, cards);
        const strangers = lines.filter((l) => !staff.has(String(l.id_card).toUpperCase()));
        if (strangers.length) {
          const names = [...new Set(strangers.map((l) => String(l.staff_name ?? l.id_card)))];
          const listed = { names: { list: names.slice(0, 5), joiner: 'enumeration' } } as const;
          throw new AppError(names.length > 5 ? 'SIADJUST_RECON_NOT_STAFF_MORE' : 'SIADJUST_RECON_NOT_STAFF', listed);
        }
        const last = await trx.selectFrom('accounts_confirm_log').select((eb) => eb.fn.max('month').as('m')).where('company_id', '=', company.id).executeTakeFirst();
        const target = nextMonth(String(last?.m ?? recon.month));
        await lockCompanyMonth(trx, app.ctx.dialect, company.id, target);
        if (await isConfirmed(trx, company.id, target)) throw new AppError('SIADJUST_TARGET_CONFIRMED', { month: target });
        // the difference is taken against our figures now: a 补差 placed for the month since the import counts
        const month = String(recon.month);
        const ours = await ourFigures(trx, company.id, month, cards);
        const now = nowIso();
        let totalSelf = 0;
        let totalCompany = 0;
        for (const l of lines) {
          // the line's insurance was written by readBureauFile from the same list (SI_INSURANCES)
          const o = ours.get(String(l.id_card).toUpperCase())?.get(l.insurance as SiInsurance);
          const self = Number(l.bureau_self ?? 0) - (o?.self ?? 0);
          const companyPart = Number(l.bureau_company ?? 0) - (o?.company ?? 0);
          if (self !== 0 || companyPart !== 0) {
            await trx
              .insertInto(BACK_ITEMS)
              .values({
                company_id: company.id,
                id_card: String(l.id_card),
                staff_name: (l.staff_name as string | null) ?? null,
                insurance: String(l.insurance),
                refer_month: month,
                target_month: target,
                amount_self: self,
                amount_company: companyPart,
                source: 'recon',
                batch_id: null,
                recon_line_id: Number(l.id),
                reason: req.body.reason,
                create_by: username,
                create_time: now,
                update_time: now,
              })
              .execute();
          }
          totalSelf += self;
          totalCompany += companyPart;
        }
        await trx.updateTable(LINES).set({ state: 'accepted', reason: req.body.reason, accepted_by: username, accepted_time: now, target_month: target, update_time: now }).where('id', 'in', ids).execute();
        await trx
          .updateTable(SALARY_TABLE)
          .set({ [S('calculated')]: 0, [S('updateTime')]: now })
          .where(S('companyId'), '=', company.id)
          .where(S('month'), '=', target)
          .where(S('tag'), '=', 0)
          .where(S('idCard'), 'in', cards)
          .execute();
        return { accepted: lines.length, targetMonth: target, totalSelf: fenToYuan(totalSelf), totalCompany: fenToYuan(totalCompany) };
      });
  });
}
