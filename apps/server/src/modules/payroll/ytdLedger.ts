import { sql } from 'kysely';
import type { Db, DialectName } from '../../core/db.ts';
import { insertRowsRaw, nowIso } from '../../core/db.ts';
import { isLabour, keyOf, type LedgerRow, monthTotals, separateBonusOf, type YtdCarry } from '@app/shared/payroll';
import { taxYearOf } from './months.ts';
import { asLedger, lockCompanyMonth, SALARY_TABLE, salaryColumn } from './salaryStore.ts';
import { refAs } from '../../core/selectAs.ts';
import { countOf } from '../../crud/pagedQuery.ts';

/**
 * The year-to-date ledger (finding P8): one row per withholding agent (派遣单位), ID card and confirmed month,
 * holding the cumulative figures of that person's confirmed wage months of the tax year up to and including that
 * month (all client companies added up). Calculate and confirm read the row of the latest month before the month
 * being calculated instead of every confirmed row of the year, so December costs what January costs.
 *
 * Confirm and 反确认 keep it: after a company's month changes state, refreshLedgerMonth rebuilds the rows of that
 * month for the company's workers from the previous row and the month's confirmed rows at every client company.
 * Both run inside the company month's lock; the ledger of a month is rebuilt under one more lock (the batch row of
 * company 0 for that month) so that two client companies confirming the same month for the same worker at the same
 * time are serialised and the second sees the first's confirmed rows.
 */
export const YTD_TABLE = 'accounts_salary_ytd';
/** The batch row that serialises ledger rebuilds of a month (no company has id 0). */
const LEDGER_LOCK_COMPANY = 0;

const S = salaryColumn;

interface YtdDbRow {
  dispatch_company: string;
  id_card: string;
  month: string;
  months: number | string;
  gross: number | string;
  five_one: number | string;
  deduct: number | string;
  other_deduct: number | string;
  tax: number | string;
  bonus_company: string | null;
  bonus_month: string | null;
}

const YTD_COLUMNS = ['dispatch_company', 'id_card', 'month', 'months', 'gross', 'five_one', 'deduct', 'other_deduct', 'tax', 'bonus_company', 'bonus_month'] as const;

function carryOf(r: YtdDbRow): YtdCarry {
  return {
    dispatchCompany: r.dispatch_company,
    idCard: r.id_card,
    throughMonth: r.month,
    months: Number(r.months),
    gross: Number(r.gross),
    fiveOne: Number(r.five_one),
    deduct: Number(r.deduct),
    otherDeduct: Number(r.other_deduct),
    tax: Number(r.tax),
    separateBonus: r.bonus_month ? { companyName: r.bonus_company, month: r.bonus_month } : null,
  };
}

/** The month before `month` (YYYY-MM), or null in January (the tax year starts again). */
function monthBefore(month: string): string | null {
  const m = Number(month.slice(5, 7));
  return m === 1 ? null : `${month.slice(0, 4)}-${String(m - 1).padStart(2, '0')}`;
}

/** Element types of the ledger's columns for PostgreSQL's unnest() (the others are text). */
const YTD_PG_TYPES = new Map([
  ['months', 'integer'],
  ...(['gross', 'five_one', 'deduct', 'other_deduct', 'tax'] as const).map((c) => [c, 'bigint'] as [string, string]),
]);

const CHUNK = 500;
function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

/**
 * The latest ledger row before `month` in its tax year for each (entity, ID card) of `persons`. First the rows of
 * the month just before (the usual case: one indexed read per worker); then, only for the workers without one
 * (joiners, a gap in employment), the latest earlier row.
 */
export async function loadCarries(db: Db, month: string, entities: readonly string[], persons: readonly string[] | PersonRows): Promise<Map<string, YtdCarry>> {
  const carries = new Map<string, YtdCarry>();
  const previous = monthBefore(month);
  if (!previous || entities.length === 0) return carries;
  const { from } = taxYearOf(month);
  const wanted = Array.isArray(persons) ? persons : null;
  const base = () =>
    db
      .selectFrom(YTD_TABLE)
      .select([...YTD_COLUMNS])
      .where('dispatch_company', 'in', [...entities]);
  const personList = wanted ? chunks(wanted) : [null];
  for (const part of personList) {
    let q = base().where('month', '=', previous);
    q = part ? q.where('id_card', 'in', part) : q.where('id_card', 'in', personSubquery(db, persons as PersonRows));
    for (const r of (await q.execute()) as YtdDbRow[]) carries.set(keyOf(r.dispatch_company, r.id_card), carryOf(r));
  }
  if (previous === from) return carries;
  // workers with no row for the month before: their latest earlier row of the year, if any
  const ids = wanted ?? (await personIds(db, persons as PersonRows));
  const missing = [...new Set(ids)].filter((id) => entities.some((e) => !carries.has(keyOf(e, id))));
  for (const part of chunks(missing)) {
    const rows = (await base()
      .where('id_card', 'in', part)
      .where('month', '>=', from)
      .where('month', '<', previous)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom(`${YTD_TABLE} as later`)
              .select(sql.lit(1).as('one'))
              .whereRef('later.dispatch_company', '=', `${YTD_TABLE}.dispatch_company`)
              .whereRef('later.id_card', '=', `${YTD_TABLE}.id_card`)
              .whereRef('later.month', '>', `${YTD_TABLE}.month`)
              .where('later.month', '<', previous),
          ),
        ),
      )
      .execute()) as YtdDbRow[];
    for (const r of rows) if (!carries.has(keyOf(r.dispatch_company, r.id_card))) carries.set(keyOf(r.dispatch_company, r.id_card), carryOf(r));
  }
  return carries;
}

/** The ledger rows at or before `throughMonth` (an opening balance's month) for the given workers. */
export async function loadCarriesThrough(db: Db, throughByKey: ReadonlyMap<string, { entity: string; idCard: string; throughMonth: string }>): Promise<Map<string, YtdCarry>> {
  const out = new Map<string, YtdCarry>();
  // grouped by the opening's month: usually one month for a whole go-live
  const byMonth = new Map<string, { entity: string; idCard: string }[]>();
  for (const v of throughByKey.values()) {
    const list = byMonth.get(v.throughMonth) ?? [];
    list.push(v);
    byMonth.set(v.throughMonth, list);
  }
  for (const [through, list] of byMonth) {
    const next = `${through.slice(0, 4)}-${String(Number(through.slice(5, 7)) + 1).padStart(2, '0')}`;
    const entities = [...new Set(list.map((v) => v.entity))];
    const found = await loadCarries(
      db,
      next,
      entities,
      list.map((v) => v.idCard),
    );
    for (const v of list) {
      const c = found.get(keyOf(v.entity, v.idCard));
      if (c) out.set(keyOf(v.entity, v.idCard), c);
    }
  }
  return out;
}

/** A company's month: its workers are the persons a ledger query is about. */
export interface PersonRows {
  companyId: number;
  month: string;
}

function personSubquery(db: Db, who: PersonRows) {
  return db.selectFrom(SALARY_TABLE).select(sql.ref<string>(S('idCard')).as('idCard')).where(S('companyId'), '=', who.companyId).where(S('month'), '=', who.month);
}

async function personIds(db: Db, who: PersonRows): Promise<string[]> {
  const rows = (await personSubquery(db, who).execute()) as Record<string, string>[];
  return rows.map((r) => Object.values(r)[0]);
}


/**
 * Rebuilds the ledger rows of `month` for the workers of a company's month, after its confirm or 反确认: each row is
 * the previous ledger row plus the month's confirmed wage rows at every client company (one person's deductions
 * count once in a month, as the calculation counts them); a worker with no confirmed row left loses the month's
 * row. Runs in the caller's transaction, which holds the company month's lock.
 */
export async function refreshLedgerMonth(trx: Db, dialect: DialectName, companyId: number, month: string): Promise<void> {
  await lockCompanyMonth(trx, dialect, LEDGER_LOCK_COMPANY, month);
  const who = { companyId, month };
  const entityRows = (await trx
    .selectFrom(SALARY_TABLE)
    .select(refAs(S('dispatchCompany'), 'entity'))
    .distinct()
    .where(S('companyId'), '=', companyId)
    .where(S('month'), '=', month)
    .execute()) as { entity: string | null }[];
  const entities = entityRows.map((r) => r.entity).filter((e): e is string => !!e);
  if (entities.length === 0) return;
  // the company's workers, read once: for the carried rows and for the rows replaced below
  const ids = [...new Set(await personIds(trx, who))];
  const carries = await loadCarries(trx, month, entities, ids);
  const confirmed = (await trx
    .selectFrom(SALARY_TABLE)
    .select(
      (['dispatchCompany', 'idCard', 'month', 'companyName', 'taxesType', 'tag', 'gross', 'fiveOne', 'deduct', 'otherDeduct', 'tax', 'bonus', 'bonusMerged'] as const).map(
        (f) => refAs(S(f), f),
      ),
    )
    .where(S('month'), '=', month)
    .where(S('tag'), '=', 1)
    .where(S('dispatchCompany'), 'in', entities)
    .where(S('idCard'), 'in', personSubquery(trx, who))
    .orderBy(S('companyId'))
    .orderBy(S('id'))
    .execute()).map(asLedger);

  // the month's confirmed wage rows per person and agent, at every client company
  const byPerson = new Map<string, LedgerRow[]>();
  for (const r of confirmed) {
    if (!r.dispatchCompany || isLabour(r.taxesType)) continue;
    const k = keyOf(r.dispatchCompany, r.idCard);
    const rows = byPerson.get(k);
    if (rows) rows.push(r);
    else byPerson.set(k, [r]);
  }
  // the month's rows of these workers go, then the rebuilt ones come back
  for (const part of chunks(ids)) {
    await trx.deleteFrom(YTD_TABLE).where('month', '=', month).where('dispatch_company', 'in', entities).where('id_card', 'in', part).execute();
  }
  const now = nowIso();
  const values = [...byPerson.entries()].map(([k, rows]) => {
    const c = carries.get(k);
    const t = monthTotals(rows);
    const bonusRow = rows.find((r) => separateBonusOf(r) > 0);
    const bonus = c?.separateBonus ?? (bonusRow ? { companyName: bonusRow.companyName, month } : null);
    return {
      dispatch_company: rows[0].dispatchCompany as string,
      id_card: rows[0].idCard,
      month,
      months: (c?.months ?? 0) + 1,
      gross: (c?.gross ?? 0) + t.gross,
      five_one: (c?.fiveOne ?? 0) + t.fiveOne,
      deduct: (c?.deduct ?? 0) + t.deduct,
      other_deduct: (c?.otherDeduct ?? 0) + (t.otherDeduct ?? 0),
      tax: (c?.tax ?? 0) + t.tax,
      bonus_company: bonus?.companyName ?? null,
      bonus_month: bonus?.month ?? null,
      create_time: now,
    };
  });
  // plain SQL: a month of 10,000 workers is 130,000 values, which Kysely's query tree takes longer to build than
  // the database takes to store
  for (const part of chunks(values)) await insertRowsRaw(trx, dialect, YTD_TABLE, part, YTD_PG_TYPES);
}


/**
 * Builds the whole ledger from the confirmed salary rows (the migration that introduces it, and a check in the
 * tests that the ledger kept by confirm and 反确认 equals one built from scratch). Months are walked in order so
 * every row builds on the one before.
 */
export async function rebuildLedger(db: Db, dialect: DialectName): Promise<number> {
  const months = (await db
    .selectFrom(SALARY_TABLE)
    .select([refAs(S('companyId'), 'companyId'), refAs(S('month'), 'month')])
    .distinct()
    .where(S('tag'), '=', 1)
    .orderBy(S('month'))
    .orderBy(S('companyId'))
    .execute()) as { companyId: number | string; month: string }[];
  await db.deleteFrom(YTD_TABLE).execute();
  for (const m of months) await refreshLedgerMonth(db, dialect, Number(m.companyId), m.month);
  return countOf(db.selectFrom(YTD_TABLE));
}
