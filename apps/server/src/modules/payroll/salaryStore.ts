import { CompiledQuery, sql } from 'kysely';
import { columnOf, type ResourceDef } from '@app/shared/resource';
import { type SalaryFieldName, salaryResource } from '@app/shared/resources/salary';
import { type Db, type DialectName, nowIso, quoteIdentifier } from '../../core/db.ts';
import type { ColumnOf } from '../../core/dbTypes.ts';
import { refsAs } from '../../core/selectAs.ts';
import type { LedgerRow, RowFigures, SalaryRowData } from '@app/shared/payroll';

/**
 * Database access of the salary flow: the per-(company, month) lock, the rows the calculation reads (in a
 * fixed number of queries whatever the number of staff) and batched writes of calculated figures.
 */

/** Column of a field of a definition (throws on a typo, so renamed fields fail loudly). */
export function fieldColumn(def: ResourceDef, name: string): string {
  const f = def.fields.find((x) => x.name === name);
  if (!f) throw new Error(`${def.name} has no field ${name}`);
  return columnOf(f);
}

export const SALARY_TABLE = salaryResource.table;
// Column names resolved once: the flow maps tens of thousands of rows.
const SALARY_COLUMNS = new Map<string, string>(salaryResource.fields.map((f) => [f.name, fieldColumn(salaryResource, f.name)]));
type SalaryField = (typeof salaryResource.fields)[number];
/** The column of an accountsSalary field (cached); typed as that column, so a query names it as the table has it. */
export const salaryColumn = <N extends SalaryFieldName>(name: N): ColumnOf<Extract<SalaryField, { name: N }>> => {
  const c = SALARY_COLUMNS.get(name);
  if (c === undefined) throw new Error(`accountsSalary has no field ${name}`);
  return c as ColumnOf<Extract<SalaryField, { name: N }>>;
};
const S = salaryColumn;

export const CALC_FIELDS = [
  'id',
  'companyId',
  'companyName',
  'dispatchCompany',
  'month',
  'staffName',
  'idCard',
  'censusType',
  'taxesType',
  'insureType',
  'salary',
  'jiaban',
  'koukuan',
  'deduct',
  'bonus',
  'bonusMerged',
  'otherDeduct',
  'simplifiedDeduction',
  'yanglaoBase',
  'yiliaoBase',
  'yiliaoBaseSelf',
  'shiyeBase',
  'gjjBase',
  'yanglaoRatioSelf',
  'yiliaoRatioSelf',
  'shiyeRatioSelf',
  'gjjRatio',
  'tag',
  'gross',
  'fiveOne',
  'tax',
  // only for the confirm check:
  'yanglao',
  'yiliao',
  'shiye',
  'gongjijin',
  'realSalary',
  'monthIndex',
  'calculated',
  'inductionDate',
  'ratioOverride',
  // the employer's side
  'gongshangBase',
  'shengyuBase',
  'yanglaoRatioCompany',
  'yiliaoRatioCompany',
  'shiyeRatioCompany',
  'gongshangRatioCompany',
  'shengyuRatioCompany',
  // only for the confirm check:
  'employerTotal',
  'bonusTax',
  'carriedIn',
  'unpaid',
  'advanced',
  // issue 20 item 7: 补发 / 补扣 with their months, 经济补偿金 and its figures
  'backPay',
  'backPayMonth',
  'backDeduct',
  'backDeductMonth',
  'severance',
  'severanceExempt',
  'severanceTax',
] as const;
export const LEDGER_FIELDS = ['idCard', 'dispatchCompany', 'month', 'companyName', 'taxesType', 'tag', 'gross', 'fiveOne', 'deduct', 'tax', 'bonus', 'bonusMerged', 'otherDeduct'] as const;
const NUMERIC = new Set(['id', 'companyId', 'tag', 'monthIndex', ...salaryResource.fields.filter((f) => f.kind === 'money').map((f) => f.name)]);
const CALC_NUMERIC = CALC_FIELDS.filter((f) => NUMERIC.has(f));
const LEDGER_NUMERIC = LEDGER_FIELDS.filter((f) => NUMERIC.has(f));

/** A salary row with everything the calculation and the confirm check read. */
export type StoredSalaryRow = SalaryRowData & {
  employerTotal: number | null;
  bonusTax: number | null;
  yanglao: number | null;
  yiliao: number | null;
  shiye: number | null;
  gongjijin: number | null;
  realSalary: number | null;
  severanceExempt: number | null;
  severanceTax: number | null;
  carriedIn: number | null;
  unpaid: number | null;
  advanced: number | null;
  monthIndex: number | null;
  calculated: boolean;
};

export function selectFields<F extends SalaryFieldName>(fields: readonly F[]) {
  return refsAs(fields, (f) => `${SALARY_TABLE}.${S(f)}`);
}

/** Drivers already return integers and numerics as numbers (see core/db.ts); strings are converted defensively. */
export function normalise<T>(raw: Record<string, unknown>, numeric: readonly string[]): T {
  for (const k of numeric) {
    const v = raw[k];
    if (v === undefined) raw[k] = null;
    else if (typeof v === 'string' || typeof v === 'bigint') raw[k] = Number(v);
  }
  if ('calculated' in raw) raw.calculated = raw.calculated === 1 || raw.calculated === true || raw.calculated === '1';
  if ('ratioOverride' in raw) raw.ratioOverride = raw.ratioOverride === 1 || raw.ratioOverride === true || raw.ratioOverride === '1';
  if ('bonusMerged' in raw) raw.bonusMerged = raw.bonusMerged === 1 || raw.bonusMerged === true || raw.bonusMerged === '1';
  if ('simplifiedDeduction' in raw) raw.simplifiedDeduction = raw.simplifiedDeduction === 1 || raw.simplifiedDeduction === true || raw.simplifiedDeduction === '1';
  return raw as T;
}
export const asRow = (r: unknown) => normalise<StoredSalaryRow>(r as Record<string, unknown>, CALC_NUMERIC);
/** A row read with LEDGER_FIELDS (or a subset) with its money as numbers and its flags as booleans. */
export const asLedger = (r: unknown) => normalise<LedgerRow>(r as Record<string, unknown>, LEDGER_NUMERIC);

/** Which persons the context queries cover: a company's month, or explicit ID cards. */
export type PersonFilter = { companyId: number; month: string } | { idCards: string[] };

export function personSubquery(db: Db, who: PersonFilter) {
  if ('idCards' in who) return who.idCards;
  return db.selectFrom(SALARY_TABLE).select(S('idCard')).where(S('companyId'), '=', who.companyId).where(S('month'), '=', who.month);
}

/** The rows of one company's month, oldest first. */
export async function loadCompanyMonthRows(db: Db, companyId: number, month: string): Promise<StoredSalaryRow[]> {
  const rows = await db
    .selectFrom(SALARY_TABLE)
    .select(selectFields(CALC_FIELDS))
    .where(S('companyId'), '=', companyId)
    .where(S('month'), '=', month)
    .orderBy(S('id'))
    .execute();
  return rows.map(asRow);
}

/** One person's rows of a company's month (the inline edit recalculates only these). */
export async function loadPersonMonthRows(db: Db, companyId: number, month: string, idCard: string): Promise<StoredSalaryRow[]> {
  const rows = await db
    .selectFrom(SALARY_TABLE)
    .select(selectFields(CALC_FIELDS))
    .where(S('companyId'), '=', companyId)
    .where(S('month'), '=', month)
    .where(S('idCard'), '=', idCard)
    .orderBy(S('id'))
    .execute();
  return rows.map(asRow);
}

/** Takes the lock of a company's month (the batch row), creating it first when needed. */
export async function lockCompanyMonth(db: Db, dialect: DialectName, companyId: number, month: string): Promise<void> {
  const now = nowIso();
  const bump = () =>
    db
      .updateTable('accounts_salary_batch')
      .set((eb) => ({ version: eb('version', '+', 1), update_time: now }))
      .where('company_id', '=', companyId)
      .where('month', '=', month)
      .executeTakeFirst();
  const r = await bump();
  if (Number(r.numUpdatedRows) > 0) return;
  await ensureCompanyMonth(db, dialect, companyId, month);
  await bump();
}

/** Creates the batch row of a company's month unless it exists (safe to run concurrently). */
export async function ensureCompanyMonth(db: Db, dialect: DialectName, companyId: number, month: string): Promise<void> {
  const now = nowIso();
  const row = { company_id: companyId, month, version: 0, create_time: now, update_time: now };
  if (dialect === 'mysql') await db.insertInto('accounts_salary_batch').ignore().values(row).execute();
  else
    await db
      .insertInto('accounts_salary_batch')
      .values(row)
      .onConflict((oc) => oc.columns(['company_id', 'month']).doNothing())
      .execute();
}

/** Is the company's month confirmed (a confirm log exists)? */
export async function isConfirmed(db: Db, companyId: number, month: string): Promise<boolean> {
  const r = await db.selectFrom('accounts_confirm_log').select('id').where('company_id', '=', companyId).where('month', '=', month).executeTakeFirst();
  return !!r;
}

const FIGURE_COLUMNS: [keyof RowFigures, string][] = (
  [
    'gross',
    'yanglao',
    'yiliao',
    'shiye',
    'gongjijin',
    'fiveOne',
    'tax',
    'bonusTax',
    'severanceExempt',
    'severanceTax',
    'deduct',
    'otherDeduct',
    'realSalary',
    'carriedIn',
    'unpaid',
    'advanced',
    'monthIndex',
    'cumulativeIncome',
    'cumulativeTaxable',
    'cumulativeTax',
    'taxableThisMonth',
    'employerYanglao',
    'employerYiliao',
    'employerShiye',
    'employerGongshang',
    'employerShengyu',
    'employerGongjijin',
    'employerTotal',
    'labourCost',
    'siBackSelf',
    'siBackCompany',
  ] as const
).map((f) => [f, S(f)]);

/** One row's new figures, plus the amounts a clerk may edit (the inline edit). */
export interface FigureUpdate {
  id: number;
  figures: RowFigures;
  adjust?: ClerkAmounts;
}

/**
 * What the inline edit changes: 加班费, 扣款, the annual bonus with its tax choice, 补发, 补扣 and 经济补偿金 (fen; 0/1).
 * The months 补发 and 补扣 refer to are text and written by the generic update (salaryRoutes.ts).
 */
export interface ClerkAmounts {
  jiaban: number;
  koukuan: number;
  bonus: number;
  bonusMerged: number;
  backPay: number;
  backDeduct: number;
  severance: number;
}
export const CLERK_AMOUNT_FIELDS = ['jiaban', 'koukuan', 'bonus', 'bonusMerged', 'backPay', 'backDeduct', 'severance'] as const;

/**
 * Writes calculated figures (calc_state = 1) for many rows, only where the row is still unlocked (tag = 0),
 * in a few batched statements (see {@link updateRowsById}). The inline edit also sets the new amounts.
 */
export async function writeFigures(db: Db, dialect: DialectName, updates: FigureUpdate[]): Promise<number> {
  if (!updates.length) return 0;
  const now = nowIso();
  const withAdjust = updates.some((u) => u.adjust !== undefined);
  const cols = FIGURE_COLUMNS.map(([, c]) => c);
  if (withAdjust) cols.push(...CLERK_AMOUNT_FIELDS.map(S));
  const rows = updates.map((u) => {
    const values: (number | null)[] = FIGURE_COLUMNS.map(([f]) => u.figures[f] ?? null);
    // the statement writes every listed column of every row: a caller that edits one row sends the others' stored amounts
    if (withAdjust) values.push(...CLERK_AMOUNT_FIELDS.map((f) => (u.adjust ? u.adjust[f] : null)));
    return { id: u.id, values };
  });
  return updateRowsById(db, dialect, cols, rows, { calc_state: 1, calculate_time: now, update_time: now });
}

/**
 * Leaves rows 计算 could not calculate uncalculated (calc_state = 0) with no figures, so that no figure of an
 * earlier calculation is shown or exported as if it were this one; only unlocked rows (tag = 0). calculate_time
 * still says when 计算 last ran on them (the report of the month is shown from then on).
 */
export async function clearFigures(db: Db, dialect: DialectName, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  const now = nowIso();
  const rows = ids.map((id) => ({ id, values: FIGURE_COLUMNS.map(() => null) }));
  return updateRowsById(db, dialect, FIGURE_COLUMNS.map(([, c]) => c), rows, { calc_state: 0, calculate_time: now, update_time: now });
}

/**
 * Sets integer `columns` of many rows of accounts_salary by id (values may be null) plus the same `constants`
 * on each, only on unlocked rows (tag = 0): PostgreSQL one UPDATE ... FROM unnest(arrays) for all rows;
 * SQLite one UPDATE ... FROM (VALUES ...) and MySQL one UPDATE ... JOIN (SELECT ... UNION ALL ...) per 500
 * rows. Returns the rows written (MySQL counts only rows that changed).
 */
export async function updateRowsById(
  db: Db,
  dialect: DialectName,
  columns: string[],
  rows: { id: number; values: (number | null)[] }[],
  constants: Record<string, string | number>,
): Promise<number> {
  if (!rows.length) return 0;
  const ref = (c: string) => sql.ref(c);
  const fixed = Object.entries(constants);
  if (dialect === 'postgres') {
    const arrays = [sql`${rows.map((r) => r.id)}::integer[]`, ...columns.map((_, j) => sql`${rows.map((r) => r.values[j])}::bigint[]`)];
    const sets = sql.join([...columns.map((c) => sql`${ref(c)} = v.${ref(c)}`), ...fixed.map(([c, v]) => sql`${ref(c)} = ${v}`)]);
    const r = await sql`update ${sql.table(SALARY_TABLE)} as s set ${sets}
      from unnest(${sql.join(arrays)}) as v(id, ${sql.join(columns.map(ref))})
      where s.id = v.id and s.tag = 0`.execute(db);
    return Number(r.numAffectedRows ?? 0n);
  }
  // SQLite and MySQL: the statement text is built here with `?` per value, because Kysely's query tree for
  // 500 rows of 15 values took three to four times as long to build and compile as the database took to run it
  // (10,000 rows: ~170 ms vs ~45 ms on SQLite).
  const q = (c: string) => quoteIdentifier(dialect, c);
  const table = q(SALARY_TABLE);
  const rowPlaceholders = ['?', ...columns.map(() => '?')].join(',');
  let n = 0;
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    const params: unknown[] = [];
    for (const t of chunk) {
      params.push(t.id);
      for (const v of t.values) params.push(v);
    }
    let text: string;
    if (dialect === 'sqlite') {
      const sets = [...columns.map((c) => `${q(c)} = v.${q(c)}`), ...fixed.map(([c]) => `${q(c)} = ?`)];
      text = `with v(id, ${columns.map(q).join(', ')}) as (values ${chunk.map(() => `(${rowPlaceholders})`).join(',')})
        update ${table} set ${sets.join(', ')}
        from v where ${table}.id = v.id and ${table}.tag = 0`;
    } else {
      // the first select names the derived table's columns
      const first = `select ${['id', ...columns].map((c) => `? as ${q(c)}`).join(', ')}`;
      const others = `select ${rowPlaceholders}`;
      const selects = chunk.map((_, k) => (k === 0 ? first : others)).join(' union all ');
      const sets = [...columns.map((c) => `s.${q(c)} = v.${q(c)}`), ...fixed.map(([c]) => `s.${q(c)} = ?`)];
      text = `update ${table} s join (${selects}) v on s.id = v.id set ${sets.join(', ')} where s.tag = 0`;
    }
    // the constants' placeholders come after the rows' in both statements
    for (const [, v] of fixed) params.push(v);
    const r = await db.executeQuery(CompiledQuery.raw(text, params));
    n += Number(r.numAffectedRows ?? 0n);
  }
  return n;
}
