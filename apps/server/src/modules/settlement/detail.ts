import type { FastifyInstance } from 'fastify';
import type { SettlementDetail } from '@app/shared/contracts/settlement';
import { maskIdCard } from '@app/shared/idcard';
import { fenToYuan } from '@app/shared/payroll/money';
import { sql } from 'kysely';
import { likeContains } from '../../core/db.ts';
import type { Db } from '../../core/db.ts';
import { decodeLine, EVENTS, LINES, RECEIPTS, summaryOf } from './store.ts';

/**
 * `GET /api/settlement/:id` (issue 22 item 6): the header, terms, receipts and history of a statement with one
 * page of its lines. A 10,000-staff statement is about 2 MB of lines: the drawer pages them, and a keyword finds a
 * person by name or by ID card (the stored number is masked, so a full number is masked the same way first).
 */

export const SETTLEMENT_LINE_PAGE_SIZE = 20;

type Row = Record<string, unknown>;
const linesOf = (db: Db, settlementId: number) => db.selectFrom(LINES).where('settlement_id', '=', settlementId);
type LineQuery = ReturnType<typeof linesOf>;
const y = (fen: unknown) => fenToYuan(Number(fen));

/** The lines matching `keyword`: part of the name or of the masked ID card, or a whole ID card number. */
function whereKeyword(app: FastifyInstance, qb: LineQuery, keyword: string | undefined): LineQuery {
  const k = keyword?.trim();
  if (!k) return qb;
  const { dialect } = app.ctx;
  const wholeIdCard = /^\d{17}[\dXx]$|^\d{15}$/.test(k);
  if (wholeIdCard) return qb.where('id_card_masked', '=', maskIdCard(k.toUpperCase()));
  return qb.where((eb) => eb.or([likeContains(dialect, 'staff_name', k), likeContains(dialect, 'id_card_masked', k.toUpperCase())]));
}

export async function statementDetail(app: FastifyInstance, row: Row, paging: { page: number; size: number; keyword?: string }): Promise<SettlementDetail> {
  const { db } = app.ctx;
  const id = Number(row.id);
  const lineQuery = whereKeyword(app, linesOf(db, id), paging.keyword);
  const countRow = await lineQuery.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  const lineTotal = Number((countRow as Row | undefined)?.n ?? 0);
  const [lines, receipts, events] = await Promise.all([
    lineTotal
      ? lineQuery
          .select(['seq', 'staff_name', 'id_card_masked', 'amounts'])
          .orderBy('seq')
          .limit(paging.size)
          .offset(paging.page * paging.size)
          .execute()
      : Promise.resolve([] as Row[]),
    db.selectFrom(RECEIPTS).select(['id', 'amount', 'receipt_date', 'note', 'username', 'create_time']).where('settlement_id', '=', id).orderBy('id').execute(),
    db.selectFrom(EVENTS).select(['from_state', 'to_state', 'note', 'username', 'create_time']).where('settlement_id', '=', id).orderBy('id').execute(),
  ]);
  const h = JSON.parse(String(row.header));
  const sums = Object.fromEntries(Object.entries(h.sums as Record<string, number>).map(([k, v]) => [k, y(v)]));
  const terms = JSON.parse(String(row.terms));
  return {
    ...summaryOf(row),
    header: {
      heads: h.heads,
      lines: h.lines,
      // the header's sums were written by generateStatement from the same line shape
      sums: sums as SettlementDetail['header']['sums'],
      itemNames: h.itemNames,
      itemSums: (h.itemSums as number[]).map(y),
      passThrough: y(h.passThrough),
      subtotal: y(h.subtotal),
      vatBase: y(h.vatBase),
      vat: y(h.vat),
      surtax: y(h.surtax),
      taxCharged: y(h.taxCharged),
      currentDue: y(h.currentDue),
      arrearsIn: y(h.arrearsIn),
      totalDue: y(h.totalDue),
    },
    terms: { ...terms, feeAmount: y(terms.feeAmount), disabledShareAmount: y(terms.disabledShareAmount) },
    lines: (lines as Row[]).map((l) => {
      const { amounts, items } = decodeLine(String(l.amounts));
      return {
        seq: Number(l.seq),
        staffName: (l.staff_name as string | null) ?? null,
        idCardMasked: (l.id_card_masked as string | null) ?? null,
        ...(Object.fromEntries(Object.entries(amounts).map(([k, v]) => [k, y(v)])) as Record<keyof typeof amounts, number>),
        items: items.map(y),
      };
    }),
    lineTotal,
    receipts: (receipts as Row[]).map((r) => ({ id: Number(r.id), amount: y(r.amount), date: String(r.receipt_date), note: (r.note as string | null) ?? null, username: (r.username as string | null) ?? null, createTime: (r.create_time as string | null) ?? null })),
    events: (events as Row[]).map((e) => ({ fromState: (e.from_state as string | null) ?? null, toState: String(e.to_state), note: (e.note as string | null) ?? null, username: (e.username as string | null) ?? null, createTime: (e.create_time as string | null) ?? null })),
  };
}
