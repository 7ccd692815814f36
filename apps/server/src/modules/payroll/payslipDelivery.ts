import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { CONFIRM_DAYS_DEFAULT, type OwnReceipt, type Publication, type Receipt, type ReceiptState, type StateCounts } from '@app/shared/contracts/payslipDelivery';
import { payslipResource } from '@app/shared/resources/payslip';
import { type Db, nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { rowToApi } from '../../crud/rowMapping.ts';
import { ensureCompanyMonth, isConfirmed, lockCompanyMonth } from './salaryStore.ts';

/**
 * Payslip delivery (issue 24 item 1, month-close.md §B5): publications of a company's month and one receipt per
 * person and version. The receipt keeps the slip as published and its SHA-256, so a confirmation proves which
 * figures the employee saw even after a 反确认 deleted the generated payslips. Routes: payslipDeliveryRoutes.ts.
 */

export const PUBLICATIONS = 'accounts_payslip_publication';
export const RECEIPTS = 'accounts_payslip_receipt';
const CHUNK = 200;
/** States a person can still answer: silence past the deadline in these is 逾期未反馈. */
const OPEN_STATES = ['published', 'viewed', 'answered'] as const;
const DAY_MS = 24 * 3600 * 1000;

type PublicationRow = {
  id: number;
  company_id: number;
  company_name: string | null;
  month: string;
  version: number;
  state: string;
  publish_at: string | null;
  published_time: string | null;
  recalled_time: string | null;
  confirm_days: number;
  published_by: string | null;
  site_url: string | null;
  notified_time: string | null;
  notice_summary: string | null;
};
export type ReceiptRow = {
  id: number;
  publication_id: number;
  company_id: number;
  month: string;
  version: number;
  id_card: string;
  staff_name: string | null;
  slip: string | null;
  slip_hash: string;
  state: string;
  deadline: string | null;
  viewed_time: string | null;
  viewed_ip: string | null;
  confirmed_time: string | null;
  confirmed_ip: string | null;
  confirmed_ua: string | null;
  confirmed_hash: string | null;
  objection: string | null;
  objection_time: string | null;
  objection_ip: string | null;
  reply: string | null;
  reply_time: string | null;
  reply_by: string | null;
};

export const addDays = (iso: string, days: number): string => new Date(Date.parse(iso) + days * DAY_MS).toISOString();

/** The payslip as the employee sees it (API names), without the row's bookkeeping: what the hash covers. */
export function slipContent(row: Record<string, unknown>): Record<string, unknown> {
  const api = rowToApi(payslipResource, row);
  for (const k of ['id', 'createTime', 'updateTime', 'source', 'companyId']) delete api[k];
  return Object.fromEntries(Object.keys(api).sort().map((k) => [k, api[k] === undefined ? null : api[k]]));
}

/** SHA-256 of the slip's content with sorted keys (the same slip always gives the same hash). */
export function slipHash(content: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

/** A stored state as shown: an open one past its deadline is 逾期未反馈. */
export function viewState(r: Pick<ReceiptRow, 'state' | 'deadline'>, now = nowIso()): ReceiptState {
  if ((OPEN_STATES as readonly string[]).includes(r.state) && r.deadline && r.deadline < now) return 'overdue';
  return r.state as ReceiptState;
}

export function receiptOut(r: ReceiptRow, now = nowIso()): Receipt {
  return {
    id: Number(r.id),
    publicationId: Number(r.publication_id),
    companyId: Number(r.company_id),
    month: r.month,
    version: Number(r.version),
    idCard: r.id_card,
    staffName: r.staff_name,
    state: viewState(r, now),
    slipHash: r.slip_hash,
    deadline: r.deadline,
    viewedTime: r.viewed_time,
    viewedIp: r.viewed_ip,
    confirmedTime: r.confirmed_time,
    confirmedIp: r.confirmed_ip,
    confirmedHash: r.confirmed_hash,
    objection: r.objection,
    objectionTime: r.objection_time,
    reply: r.reply,
    replyTime: r.reply_time,
    replyBy: r.reply_by,
  };
}

export function ownReceiptOut(r: ReceiptRow & { company_name: string | null; published_time: string | null }): OwnReceipt {
  let slip: Record<string, unknown> = {};
  try {
    slip = JSON.parse(r.slip ?? '{}') as Record<string, unknown>;
  } catch {
    // a slip that cannot be read shows empty; its hash still stands for what was published
  }
  return { ...receiptOut(r), companyName: r.company_name, publishedTime: r.published_time, slip };
}

const emptyCounts = (): StateCounts => ({ published: 0, viewed: 0, confirmed: 0, objected: 0, answered: 0, overdue: 0, total: 0 });

/** Counts per shown state for each publication. */
export async function countsOf(db: Db, publicationIds: number[]): Promise<Map<number, StateCounts>> {
  const out = new Map<number, StateCounts>(publicationIds.map((id) => [id, emptyCounts()]));
  if (!publicationIds.length) return out;
  const now = nowIso();
  const rows = await db
    .selectFrom(RECEIPTS)
    .select(['publication_id', 'state', (eb) => eb.fn.countAll<number>().as('n')])
    .where('publication_id', 'in', publicationIds)
    .groupBy(['publication_id', 'state'])
    .execute();
  for (const r of rows) {
    const c = out.get(Number(r.publication_id));
    if (!c || !(r.state in c)) continue;
    c[r.state as keyof StateCounts] += Number(r.n);
    c.total += Number(r.n);
  }
  // 逾期未反馈 is taken out of the state it was silent in
  const late = await db
    .selectFrom(RECEIPTS)
    .select(['publication_id', 'state', (eb) => eb.fn.countAll<number>().as('n')])
    .where('publication_id', 'in', publicationIds)
    .where('state', 'in', [...OPEN_STATES])
    .where('deadline', '<', now)
    .groupBy(['publication_id', 'state'])
    .execute();
  for (const r of late) {
    const c = out.get(Number(r.publication_id));
    if (!c) continue;
    c[r.state as keyof StateCounts] -= Number(r.n);
    c.overdue += Number(r.n);
  }
  return out;
}

export function publicationOut(p: PublicationRow, counts: StateCounts = emptyCounts()): Publication {
  return {
    id: Number(p.id),
    companyId: Number(p.company_id),
    companyName: p.company_name,
    month: p.month,
    version: Number(p.version),
    state: p.state as Publication['state'],
    publishAt: p.publish_at,
    publishedTime: p.published_time,
    recalledTime: p.recalled_time,
    confirmDays: Number(p.confirm_days),
    publishedBy: p.published_by,
    notifiedTime: p.notified_time,
    noticeSummary: p.notice_summary,
    counts,
  };
}

export async function loadPublication(db: Db, id: number): Promise<Publication> {
  const p = (await db.selectFrom(PUBLICATIONS).selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as PublicationRow;
  return publicationOut(p, (await countsOf(db, [id])).get(id));
}

/** The latest publication (any state) of a company's month. */
export async function latestPublication(db: Db, companyId: number, month: string): Promise<PublicationRow | undefined> {
  return (await db.selectFrom(PUBLICATIONS).selectAll().where('company_id', '=', companyId).where('month', '=', month).orderBy('version', 'desc').limit(1).executeTakeFirst()) as PublicationRow | undefined;
}

export interface PublishInput {
  company: { id: number; companyName: string };
  month: string;
  publishAt: string | null;
  confirmDays?: number;
  siteUrl?: string;
  by: string | null;
}

export interface Activation {
  publicationId: number;
  /** People whose slip is new or changed: they get a notice. */
  toNotify: string[];
  carriedOver: number;
}

const who = (company: PublishInput['company'], month: string) => ({ company: company.companyName, month });

/**
 * 发布: now (receipts written, the earlier version superseded) or at `publishAt` (a scheduled row the notice job
 * activates). Refused for a month that is not confirmed, has no payslips, is scheduled already, or is published
 * with exactly these slips.
 */
export async function publishMonth(app: FastifyInstance, input: PublishInput): Promise<Activation | { publicationId: number; scheduled: true }> {
  const { db, dialect } = app.ctx;
  const { company, month } = input;
  await ensureCompanyMonth(db, dialect, company.id, month);
  return db.transaction().execute(async (trx) => {
    // the salary month's own lock: a 反确认 or 确认 of the month waits for the publishing, and the other way round
    await lockCompanyMonth(trx, dialect, company.id, month);
    if (!(await isConfirmed(trx, company.id, month))) throw new AppError('PAYSLIP_DELIVERY_NOT_CONFIRMED', who(company, month));
    const latest = await latestPublication(trx, company.id, month);
    if (latest?.state === 'scheduled') throw new AppError('PAYSLIP_DELIVERY_SCHEDULED', { ...who(company, month), time: latest.publish_at ?? '' });
    const slips = await trx.selectFrom(payslipResource.table).select('id').where('company_id', '=', company.id).where('month', '=', month).limit(1).execute();
    if (!slips.length) throw new AppError('PAYSLIP_DELIVERY_NO_SLIPS', who(company, month));
    const now = nowIso();
    const values = {
      company_id: company.id,
      company_name: company.companyName,
      month,
      version: (latest ? Number(latest.version) : 0) + 1,
      state: input.publishAt ? 'scheduled' : 'published',
      publish_at: input.publishAt,
      confirm_days: input.confirmDays ?? CONFIRM_DAYS_DEFAULT,
      published_by: input.by,
      site_url: input.siteUrl ?? null,
      create_time: now,
      update_time: now,
    };
    await trx.insertInto(PUBLICATIONS).values(values).execute();
    const row = (await latestPublication(trx, company.id, month)) as PublicationRow;
    if (input.publishAt) return { publicationId: Number(row.id), scheduled: true as const };
    return activate(trx, row, { refuseUnchanged: true });
  });
}

/**
 * Writes the receipts of a publication from the payslips now on record and supersedes the previous published
 * version. A person whose slip is unchanged (same hash) keeps what they did with it (viewed, confirmed, objected):
 * the evidence still names that very content; everyone else starts again at 已发布 with a fresh deadline.
 */
export async function activate(trx: Db, pub: PublicationRow, opts: { refuseUnchanged: boolean }): Promise<Activation> {
  const now = nowIso();
  const slips = (await trx.selectFrom(payslipResource.table).selectAll().where('company_id', '=', pub.company_id).where('month', '=', pub.month).orderBy('id').execute()) as Record<string, unknown>[];
  const previous = (await trx
    .selectFrom(PUBLICATIONS)
    .selectAll()
    .where('company_id', '=', pub.company_id)
    .where('month', '=', pub.month)
    .where('state', '=', 'published')
    .where('id', '<>', pub.id)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst()) as PublicationRow | undefined;
  const before = new Map<string, ReceiptRow>();
  if (previous) {
    const rows = (await trx.selectFrom(RECEIPTS).selectAll().where('publication_id', '=', previous.id).execute()) as ReceiptRow[];
    for (const r of rows) before.set(r.id_card.toUpperCase(), r);
  }
  const deadline = addDays(now, Number(pub.confirm_days));
  const toNotify: string[] = [];
  let carriedOver = 0;
  let unchanged = 0;
  const seen = new Set<string>();
  const receipts = [];
  for (const s of slips) {
    const idCard = String(s.id_card ?? '').toUpperCase();
    // one receipt per person (an imported and a generated slip never coexist; the first row wins otherwise)
    if (!idCard || seen.has(idCard)) continue;
    seen.add(idCard);
    const content = slipContent(s);
    const hash = slipHash(content);
    const old = before.get(idCard);
    const same = old?.slip_hash === hash;
    if (same) unchanged++;
    const keep = same && old && old.state !== 'published';
    if (keep) carriedOver++;
    else toNotify.push(idCard);
    receipts.push({
      publication_id: pub.id,
      company_id: pub.company_id,
      month: pub.month,
      version: pub.version,
      id_card: idCard,
      staff_name: typeof s.name === 'string' ? s.name.slice(0, 50) : null,
      slip: JSON.stringify(content),
      slip_hash: hash,
      state: keep ? old.state : 'published',
      deadline: keep ? old.deadline : deadline,
      viewed_time: keep ? old.viewed_time : null,
      viewed_ip: keep ? old.viewed_ip : null,
      confirmed_time: keep ? old.confirmed_time : null,
      confirmed_ip: keep ? old.confirmed_ip : null,
      confirmed_ua: keep ? old.confirmed_ua : null,
      confirmed_hash: keep ? old.confirmed_hash : null,
      objection: keep ? old.objection : null,
      objection_time: keep ? old.objection_time : null,
      objection_ip: keep ? old.objection_ip : null,
      reply: keep ? old.reply : null,
      reply_time: keep ? old.reply_time : null,
      reply_by: keep ? old.reply_by : null,
      create_time: now,
      update_time: now,
    });
  }
  if (opts.refuseUnchanged && previous && unchanged === receipts.length && before.size === receipts.length) {
    throw new AppError('PAYSLIP_DELIVERY_UNCHANGED', { company: pub.company_name ?? '', month: pub.month, version: String(previous.version) });
  }
  if (previous) await trx.updateTable(PUBLICATIONS).set({ state: 'superseded', update_time: now }).where('id', '=', previous.id).execute();
  await trx.updateTable(PUBLICATIONS).set({ state: 'published', published_time: now, update_time: now }).where('id', '=', pub.id).execute();
  for (let i = 0; i < receipts.length; i += CHUNK) await trx.insertInto(RECEIPTS).values(receipts.slice(i, i + CHUNK)).execute();
  return { publicationId: Number(pub.id), toNotify, carriedOver };
}

/** 撤回: the latest scheduled or published version of the month; its receipts stay as the record. */
export async function recallMonth(db: Db, company: { id: number; companyName: string }, month: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const latest = await latestPublication(trx, company.id, month);
    if (!latest || (latest.state !== 'scheduled' && latest.state !== 'published')) throw new AppError('PAYSLIP_DELIVERY_NOTHING_TO_RECALL', who(company, month));
    const now = nowIso();
    await trx.updateTable(PUBLICATIONS).set({ state: 'recalled', recalled_time: now, update_time: now }).where('id', '=', latest.id).execute();
    return Number(latest.id);
  });
}

/** Scheduled publications whose time has come (the notice job activates them). */
export async function duePublications(db: Db, now = nowIso()): Promise<PublicationRow[]> {
  return (await db.selectFrom(PUBLICATIONS).selectAll().where('state', '=', 'scheduled').where('publish_at', '<=', now).orderBy('publish_at').execute()) as PublicationRow[];
}

/** Published versions whose notices have not gone out yet. */
export async function unnotifiedPublications(db: Db): Promise<PublicationRow[]> {
  return (await db.selectFrom(PUBLICATIONS).selectAll().where('state', '=', 'published').where('notified_time', 'is', null).orderBy('published_time').execute()) as PublicationRow[];
}

export type { PublicationRow };
