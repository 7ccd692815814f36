import { sql } from 'kysely';
import type { Db } from '../../core/db.ts';

/**
 * Payroll inputs that reach no salary row (findings U1, U7): a 专项附加扣除 or 期初累计数据 row is read by the
 * calculation under its withholding agent (派遣单位) and ID card, a 员工加班扣款 row under its client company and
 * ID card. A row whose agent is not a `dispatch_company` dictionary entry, or whose person has no staff record
 * there, is silently ignored by 计算. This module finds such rows; the check screen (inputChecks.ts) and the
 * calculate report both use `unmatchedTaxInputs`, so they never disagree about what "unmatched" means.
 */

/** The inputs checked, by resource name. */
export type TaxInputTable = 'taxDeduction' | 'taxOpening' | 'accountsStaffExtra';

/**
 * Why a row matches nobody:
 * - AGENT_UNKNOWN: the 派遣单位 is not an entry of the `dispatch_company` dictionary (e.g. a client's name);
 * - STAFF_UNKNOWN: no staff record has this ID card (or the row has none);
 * - STAFF_NOT_AT_AGENT: staff with this ID card exist, but none at a client company of this agent;
 * - COMPANY_MISSING: an overtime row without a client company;
 * - STAFF_NOT_AT_COMPANY: an overtime row whose client company has no staff with this ID card.
 */
export type UnmatchedReason = 'AGENT_UNKNOWN' | 'STAFF_UNKNOWN' | 'STAFF_NOT_AT_AGENT' | 'COMPANY_MISSING' | 'STAFF_NOT_AT_COMPANY';

export interface UnmatchedTaxInput {
  table: TaxInputTable;
  id: number;
  idCard: string | null;
  name: string | null;
  /** The withholding agent: the row's own (tax inputs) or its client company's (overtime rows). */
  agent: string | null;
  /** The row's month; of an opening balance, its 截至月份. */
  month: string | null;
  /** Overtime rows: the client company. */
  companyId?: number | null;
  companyName?: string | null;
  reason: UnmatchedReason;
}

export interface UnmatchedFilter {
  /** Rows of this withholding agent only (overtime rows: of its client companies). */
  agent?: string;
  /** Rows of this month; opening balances of this month's tax year. */
  month?: string;
  /** Rows of these ID cards only. */
  idCards?: readonly string[];
  /**
   * Rows that concern this client company's payroll: overtime rows of the company; tax inputs of its staff's ID
   * cards or of its withholding agent.
   */
  companyId?: number;
  /** Only these inputs (default all three). */
  tables?: readonly TaxInputTable[];
}

const DISPATCH_DICT = 'dispatch_company';
const ID_CHUNK = 1000;

/** The withholding agents: the labels of the `dispatch_company` dictionary (the label is what rows store). */
export async function dispatchAgents(db: Db): Promise<Set<string>> {
  const rows = await db
    .selectFrom('sys_dict_detail as d')
    .innerJoin('sys_dict as t', 't.id', 'd.dict_id')
    .select('d.label')
    .where('t.name', '=', DISPATCH_DICT)
    .execute();
  return new Set(rows.map((r) => String(r.label)));
}

type Row = Record<string, unknown>;
const text = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));

/**
 * Every 专项附加扣除, 期初累计数据 and 员工加班扣款 row that the filter selects and that no staff record matches, with
 * the reason, ordered by table and id. Read-only; a few indexed queries whatever the number of rows.
 */
export async function unmatchedTaxInputs(db: Db, filter: UnmatchedFilter = {}): Promise<UnmatchedTaxInput[]> {
  const tables = filter.tables ?? ['taxDeduction', 'taxOpening', 'accountsStaffExtra'];
  const idCards = filter.idCards ? [...new Set(filter.idCards.map((c) => c.trim().toUpperCase()))] : undefined;
  if (idCards && idCards.length === 0) return [];
  const agents = await dispatchAgents(db);
  let companyAgent: string | null = null;
  if (filter.companyId !== undefined) {
    const c = await db.selectFrom('accounts_company').select('dispatch_company').where('id', '=', filter.companyId).executeTakeFirst();
    companyAgent = c?.dispatch_company ?? null;
  }
  const chunks = idCards ? Array.from({ length: Math.ceil(idCards.length / ID_CHUNK) }, (_, i) => idCards.slice(i * ID_CHUNK, (i + 1) * ID_CHUNK)) : [undefined];

  const out: UnmatchedTaxInput[] = [];
  for (const table of tables) {
    for (const cards of chunks) {
      if (table === 'accountsStaffExtra') out.push(...(await unmatchedExtras(db, filter, cards)));
      else out.push(...(await unmatchedAgentRows(db, table, agents, filter, companyAgent, cards)));
    }
  }
  const order: Record<TaxInputTable, number> = { taxDeduction: 0, taxOpening: 1, accountsStaffExtra: 2 };
  return out.sort((a, b) => order[a.table] - order[b.table] || a.id - b.id);
}

/** 专项附加扣除 / 期初累计数据: keyed by agent and ID card. */
async function unmatchedAgentRows(
  db: Db,
  table: 'taxDeduction' | 'taxOpening',
  agents: Set<string>,
  filter: UnmatchedFilter,
  companyAgent: string | null,
  idCards: string[] | undefined,
): Promise<UnmatchedTaxInput[]> {
  const name = table === 'taxDeduction' ? 'accounts_tax_deduction' : 'accounts_tax_opening';
  const monthColumn = table === 'taxDeduction' ? 'r.month' : 'r.through_month';
  // the generic view: both tables have the same key columns
  let qb = (db as unknown as Db)
    .selectFrom(`${name} as r` as 'accounts_tax_deduction as r')
    .select(['r.id', 'r.id_card', 'r.staff_name', 'r.dispatch_company', sql<string>`${sql.ref(monthColumn)}`.as('month')])
    .where((eb) =>
      eb.or([
        // (no agents at all: every row is unmatched)
        agents.size ? eb('r.dispatch_company', 'not in', [...agents]) : sql<boolean>`1 = 1`,
        eb.not(
          eb.exists(
            eb
              .selectFrom('accounts_staff as s')
              .innerJoin('accounts_company as c', 'c.id', 's.company_id')
              .select(sql`1`.as('one'))
              .whereRef('s.id_card', '=', 'r.id_card')
              .whereRef('c.dispatch_company', '=', 'r.dispatch_company'),
          ),
        ),
      ]),
    );
  if (filter.agent !== undefined) qb = qb.where('r.dispatch_company', '=', filter.agent);
  if (filter.month !== undefined) {
    qb = table === 'taxDeduction' ? qb.where('r.month', '=', filter.month) : qb.where(sql.ref('r.tax_year'), '=', Number(filter.month.slice(0, 4)));
  }
  if (idCards) qb = qb.where('r.id_card', 'in', idCards);
  if (filter.companyId !== undefined) {
    const companyId = filter.companyId;
    qb = qb.where((eb) =>
      eb.or([
        eb('r.id_card', 'in', eb.selectFrom('accounts_staff as cs').select('cs.id_card').where('cs.company_id', '=', companyId)),
        ...(companyAgent === null ? [] : [eb('r.dispatch_company', '=', companyAgent)]),
      ]),
    );
  }
  const rows = (await qb.orderBy('r.id').execute()) as Row[];
  const known = await staffIdCards(
    db,
    rows.filter((r) => agents.has(String(r.dispatch_company))).map((r) => String(r.id_card)),
  );
  return rows.map((r) => ({
    table,
    id: Number(r.id),
    idCard: text(r.id_card),
    name: text(r.staff_name),
    agent: text(r.dispatch_company),
    month: text(r.month),
    reason: !agents.has(String(r.dispatch_company)) ? 'AGENT_UNKNOWN' : known.has(String(r.id_card).toUpperCase()) ? 'STAFF_NOT_AT_AGENT' : 'STAFF_UNKNOWN',
  }));
}

/** 员工加班扣款: keyed by client company and ID card. */
async function unmatchedExtras(db: Db, filter: UnmatchedFilter, idCards: string[] | undefined): Promise<UnmatchedTaxInput[]> {
  // ID cards of overtime rows were free text: compare them as staff records keep them (upper-case X, no blanks)
  const card = sql<string>`upper(trim(e.staff_id_card))`;
  let qb = db
    .selectFrom('accounts_staff_extra as e')
    .leftJoin('accounts_company as c', 'c.id', 'e.staff_company_id')
    .select(['e.id', 'e.staff_id_card', 'e.staff_name', 'e.staff_company_id', 'e.month', 'c.company_name', 'c.dispatch_company'])
    .where((eb) =>
      eb.or([
        eb('c.id', 'is', null),
        eb.not(
          eb.exists(
            eb
              .selectFrom('accounts_staff as s')
              .select(sql`1`.as('one'))
              .whereRef('s.company_id', '=', 'e.staff_company_id')
              .where('s.id_card', '=', card),
          ),
        ),
      ]),
    );
  if (filter.agent !== undefined) qb = qb.where('c.dispatch_company', '=', filter.agent);
  if (filter.month !== undefined) qb = qb.where('e.month', '=', filter.month);
  if (idCards) qb = qb.where(card, 'in', idCards);
  if (filter.companyId !== undefined) qb = qb.where('e.staff_company_id', '=', filter.companyId);
  const rows = (await qb.orderBy('e.id').execute()) as Row[];
  const known = await staffIdCards(
    db,
    rows.map((r) => String(r.staff_id_card ?? '')),
  );
  return rows.map((r) => {
    const idCard = text(r.staff_id_card)?.trim().toUpperCase() ?? null;
    const companyId = r.staff_company_id === null || r.staff_company_id === undefined ? null : Number(r.staff_company_id);
    let reason: UnmatchedReason;
    if (r.company_name === null || r.company_name === undefined) reason = 'COMPANY_MISSING';
    else if (!idCard || !known.has(idCard)) reason = 'STAFF_UNKNOWN';
    else reason = 'STAFF_NOT_AT_COMPANY';
    return {
      table: 'accountsStaffExtra' as const,
      id: Number(r.id),
      idCard,
      name: text(r.staff_name),
      agent: text(r.dispatch_company),
      month: text(r.month),
      companyId,
      companyName: text(r.company_name),
      reason,
    };
  });
}

/** Which of these ID cards some staff record has (upper-cased). */
async function staffIdCards(db: Db, cards: string[]): Promise<Set<string>> {
  const wanted = [...new Set(cards.map((c) => c.trim().toUpperCase()).filter(Boolean))];
  const out = new Set<string>();
  for (let i = 0; i < wanted.length; i += ID_CHUNK) {
    const rows = await db.selectFrom('accounts_staff').select('id_card').where('id_card', 'in', wanted.slice(i, i + ID_CHUNK)).execute();
    for (const r of rows) out.add(String(r.id_card).toUpperCase());
  }
  return out;
}
