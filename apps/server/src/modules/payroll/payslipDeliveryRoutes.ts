import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  confirmReceipt,
  deliveryDetail,
  listDeliveries,
  myReceipts,
  objectReceipt,
  publishPayslips,
  recallPayslips,
  replyObjection,
  viewReceipt,
} from '@app/shared/contracts/payslipDelivery';
import { nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { countOf } from '../../crud/pagedQuery.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { loadVisibleCompany, whereCompanyVisible } from './companies.ts';
import { assertNotFutureMonth } from './months.ts';
import { isOrdinaryEmployee } from './payslipRoutes.ts';
import {
  addDays,
  countsOf,
  latestPublication,
  loadPublication,
  ownReceiptOut,
  PUBLICATIONS,
  type PublicationRow,
  publicationOut,
  publishMonth,
  RECEIPTS,
  type ReceiptRow,
  recallMonth,
  receiptOut,
} from './payslipDelivery.ts';
import { notifyPublication } from './payslipNotices.ts';

/** The ID cards the caller's username stands for (an employee's login is their ID card). */
function ownIdCards(req: FastifyRequest): string[] {
  const u = (req.user?.username ?? '').trim();
  return [...new Set([u, u.toUpperCase()])].filter(Boolean);
}

/** The delivery screens are the clerk's: an ordinary employee has only their own receipts. */
function refuseEmployee(req: FastifyRequest): void {
  if (isOrdinaryEmployee(req)) throw new AppError('PAYSLIP_DELIVERY_EMPLOYEE');
}

const ipOf = (req: FastifyRequest) => String(req.ip ?? '').slice(0, 64);

/** The caller's own receipt of a current (published) version, or 404 / 409; another person's is never found. */
async function ownReceipt(app: FastifyInstance, req: FastifyRequest, id: number) {
  const row = (await app.ctx.db
    .selectFrom(`${RECEIPTS} as r`)
    .innerJoin(`${PUBLICATIONS} as p`, 'p.id', 'r.publication_id')
    .selectAll('r')
    .select(['p.company_name as company_name', 'p.published_time as published_time', 'p.state as publication_state'])
    .where('r.id', '=', id)
    .executeTakeFirst()) as (ReceiptRow & { company_name: string | null; published_time: string | null; publication_state: string }) | undefined;
  if (!row || !ownIdCards(req).includes(row.id_card)) throw new AppError('PAYSLIP_RECEIPT_NOT_FOUND');
  if (row.publication_state !== 'published') throw new AppError('PAYSLIP_RECEIPT_WITHDRAWN');
  return row;
}

export function registerPayslipDelivery(app: FastifyInstance): void {
  const db = app.ctx.db;

  routeContract(app, publishPayslips, async (req) => {
    refuseEmployee(req);
    const { companyId, month, confirmDays, siteUrl } = req.body;
    assertNotFutureMonth(month);
    const company = await loadVisibleCompany(app, req, db, companyId);
    const at = req.body.publishAt ? new Date(req.body.publishAt) : null;
    const publishAt = at && at.getTime() > Date.now() ? at.toISOString() : null;
    const outcome = await publishMonth(app, { company, month, publishAt, confirmDays, siteUrl, by: req.user?.username ?? null });
    let notified = 0;
    let carriedOver = 0;
    if (!('scheduled' in outcome)) {
      carriedOver = outcome.carriedOver;
      const pub = (await db.selectFrom(PUBLICATIONS).selectAll().where('id', '=', outcome.publicationId).executeTakeFirstOrThrow()) as PublicationRow;
      notified = (await notifyPublication(app, pub, outcome.toNotify)).notified;
    }
    return { publication: await loadPublication(db, outcome.publicationId), notified, carriedOver };
  });

  routeContract(app, recallPayslips, async (req) => {
    refuseEmployee(req);
    const company = await loadVisibleCompany(app, req, db, req.body.companyId);
    const id = await recallMonth(db, company, req.body.month);
    return { publication: await loadPublication(db, id) };
  });

  routeContract(app, listDeliveries, async (req) => {
    refuseEmployee(req);
    const { companyId, month, page = 0, size = 20 } = req.query;
    // the latest version of each company's month
    let qb = db
      .selectFrom(`${PUBLICATIONS} as p`)
      .where('p.version', '=', (eb) =>
        eb
          .selectFrom(`${PUBLICATIONS} as q`)
          .select((e) => e.fn.max('q.version').as('v'))
          .whereRef('q.company_id', '=', 'p.company_id')
          .whereRef('q.month', '=', 'p.month'),
      );
    if (companyId) qb = qb.where('p.company_id', '=', companyId);
    if (month) qb = qb.where('p.month', '=', month);
    qb = await whereCompanyVisible(app, req, qb, 'p.company_id');
    const totalElements = await countOf(qb);
    const rows = totalElements ? ((await qb.selectAll('p').orderBy('p.month', 'desc').orderBy('p.company_name').orderBy('p.id', 'desc').limit(size).offset(page * size).execute()) as PublicationRow[]) : [];
    const counts = await countsOf(
      db,
      rows.map((r) => Number(r.id)),
    );
    return { content: rows.map((r) => publicationOut(r, counts.get(Number(r.id)))), totalElements };
  });

  routeContract(app, deliveryDetail, async (req) => {
    refuseEmployee(req);
    const company = await loadVisibleCompany(app, req, db, req.query.companyId);
    const latest = await latestPublication(db, company.id, req.query.month);
    if (!latest) return { publication: null, receipts: [], objections: [] };
    const now = nowIso();
    const rows = (await db.selectFrom(RECEIPTS).selectAll().where('publication_id', '=', latest.id).orderBy('id').execute()) as ReceiptRow[];
    const receipts = rows.map((r) => receiptOut(r, now));
    return {
      publication: publicationOut(latest, (await countsOf(db, [Number(latest.id)])).get(Number(latest.id))),
      receipts,
      objections: receipts.filter((r) => r.objection !== null && (r.state === 'objected' || r.state === 'answered' || r.state === 'overdue')),
    };
  });

  routeContract(app, replyObjection, async (req) => {
    refuseEmployee(req);
    const row = (await db.selectFrom(RECEIPTS).selectAll().where('id', '=', req.params.id).executeTakeFirst()) as ReceiptRow | undefined;
    if (!row) throw new AppError('PAYSLIP_RECEIPT_NOT_FOUND');
    // the company must be in the clerk's data scope (404 otherwise, as for the company itself)
    await loadVisibleCompany(app, req, db, Number(row.company_id));
    if (row.state !== 'objected') throw new AppError('PAYSLIP_RECEIPT_NO_OBJECTION');
    const pub = await db.selectFrom(PUBLICATIONS).select(['state', 'confirm_days']).where('id', '=', row.publication_id).executeTakeFirstOrThrow();
    if (pub.state !== 'published') throw new AppError('PAYSLIP_RECEIPT_WITHDRAWN');
    const now = nowIso();
    // the employee answers the reply (确认 or a further 有异议) within a fresh period
    await db
      .updateTable(RECEIPTS)
      .set({ state: 'answered', reply: req.body.text, reply_time: now, reply_by: req.user?.username ?? null, deadline: addDays(now, Number(pub.confirm_days)), update_time: now })
      .where('id', '=', row.id)
      .where('state', '=', 'objected')
      .execute();
    const after = (await db.selectFrom(RECEIPTS).selectAll().where('id', '=', row.id).executeTakeFirstOrThrow()) as ReceiptRow;
    return { receipt: receiptOut(after) };
  });

  routeContract(app, myReceipts, async (req) => {
    const cards = ownIdCards(req);
    if (!cards.length) return { content: [] };
    const rows = (await db
      .selectFrom(`${RECEIPTS} as r`)
      .innerJoin(`${PUBLICATIONS} as p`, 'p.id', 'r.publication_id')
      .selectAll('r')
      .select(['p.company_name as company_name', 'p.published_time as published_time'])
      .where('r.id_card', 'in', cards)
      .where('p.state', '=', 'published')
      .orderBy('r.month', 'desc')
      .orderBy('r.id', 'desc')
      .limit(500)
      .execute()) as (ReceiptRow & { company_name: string | null; published_time: string | null })[];
    return { content: rows.map(ownReceiptOut) };
  });

  const reread = async (req: FastifyRequest, id: number) => ownReceiptOut(await ownReceipt(app, req, id));

  routeContract(app, viewReceipt, async (req) => {
    const row = await ownReceipt(app, req, req.params.id);
    if (!row.viewed_time) {
      const now = nowIso();
      // first open only: later opens keep the first time and IP
      await db
        .updateTable(RECEIPTS)
        .set({ viewed_time: now, viewed_ip: ipOf(req), update_time: now })
        .where('id', '=', row.id)
        .where('viewed_time', 'is', null)
        .execute();
      await db.updateTable(RECEIPTS).set({ state: 'viewed' }).where('id', '=', row.id).where('state', '=', 'published').execute();
    }
    return { receipt: await reread(req, row.id) };
  });

  routeContract(app, confirmReceipt, async (req) => {
    const row = await ownReceipt(app, req, req.params.id);
    if (row.state === 'confirmed') return { receipt: ownReceiptOut(row) };
    // the hash the employee's screen showed must be the version on record: a confirmation names what was seen
    if (req.body.slipHash !== row.slip_hash) throw new AppError('PAYSLIP_RECEIPT_VERSION_CHANGED');
    const now = nowIso();
    await db
      .updateTable(RECEIPTS)
      .set({
        state: 'confirmed',
        confirmed_time: now,
        confirmed_ip: ipOf(req),
        confirmed_ua: String(req.headers['user-agent'] ?? '').slice(0, 300),
        confirmed_hash: row.slip_hash,
        viewed_time: row.viewed_time ?? now,
        viewed_ip: row.viewed_ip ?? ipOf(req),
        update_time: now,
      })
      .where('id', '=', row.id)
      .where('state', '<>', 'confirmed')
      .execute();
    return { receipt: await reread(req, row.id) };
  });

  routeContract(app, objectReceipt, async (req) => {
    const row = await ownReceipt(app, req, req.params.id);
    // a confirmed version is read-only (§B5): a later correction comes as a new version
    if (row.state === 'confirmed') throw new AppError('PAYSLIP_RECEIPT_CONFIRMED');
    const now = nowIso();
    await db
      .updateTable(RECEIPTS)
      .set({ state: 'objected', objection: req.body.text, objection_time: now, objection_ip: ipOf(req), viewed_time: row.viewed_time ?? now, viewed_ip: row.viewed_ip ?? ipOf(req), update_time: now })
      .where('id', '=', row.id)
      .where('state', '<>', 'confirmed')
      .execute();
    return { receipt: await reread(req, row.id) };
  });
}
