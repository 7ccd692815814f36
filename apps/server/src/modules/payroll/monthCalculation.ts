import { dynamicDb } from '../../core/db.ts';
import type { Db } from '../../core/db.ts';
import { refsAs } from '../../core/selectAs.ts';
import { calculateMonth, type LedgerRow, type MonthCalculationResult, type OpeningBalance, type SalaryRowData, type YtdCarry } from '@app/shared/payroll';
import { taxOpeningResource } from '@app/shared/resources/taxOpening';
import { applyArrears } from './arrears.ts';
import { applyBackItems } from '../siAdjust/backItems.ts';
import { taxYearOf } from './months.ts';
import { loadRateBook } from './rates.ts';
import {
  asLedger,
  asRow,
  CALC_FIELDS,
  fieldColumn,
  LEDGER_FIELDS,
  normalise,
  type PersonFilter,
  personSubquery,
  SALARY_TABLE,
  salaryColumn,
  selectFields,
  type StoredSalaryRow,
} from './salaryStore.ts';
import { deductionKey, loadDeductionSums } from './taxDeductions.ts';
import { keyOf } from '@app/shared/payroll';
import { loadCarries, loadCarriesThrough } from './ytdLedger.ts';

const S = salaryColumn;

/**
 * The month's ledger calculation: what it reads beyond the rows being calculated (the other client companies' rows of
 * the month, the year-to-date ledger, the opening balances, the deduction details and arrears) and the calculation
 * itself. Used by 计算/确认 (salaryFlow.ts) and by the calculation report (calculationReport.ts); kept apart from both
 * so that neither imports the other, and from salaryStore.ts so that the store does not import the ledger.
 */
/**
 * Everything the ledger needs beyond the rows being calculated: the other rows of the same month (other client
 * companies, same entities and persons), the year-to-date ledger row before the month (ytdLedger.ts), the opening
 * balances, and of the other months' rows only the exceptions the ledger rows do not cover: unconfirmed rows
 * (an earlier month left unconfirmed is refused) and confirmed rows of later months (refused too). Each read is
 * bounded by the month's workers, not by the months behind it (finding P8).
 */
export async function loadLedgerContext(
  db: Db,
  month: string,
  rows: readonly SalaryRowData[],
  who: PersonFilter,
): Promise<{ sameMonthOthers: StoredSalaryRow[]; ledger: LedgerRow[]; openings: OpeningBalance[]; carried: YtdCarry[] }> {
  const entities = [...new Set(rows.map((r) => r.dispatchCompany).filter((e): e is string => !!e))];
  if (entities.length === 0) return { sameMonthOthers: [], ledger: [], openings: [], carried: [] };
  const ids = rows.map((r) => r.id);
  const { from, to } = taxYearOf(month);
  const persons = personSubquery(db, who);
  let others = db
    .selectFrom(SALARY_TABLE)
    .select(selectFields(CALC_FIELDS))
    .where(S('month'), '=', month)
    .where(S('dispatchCompany'), 'in', entities)
    .where(S('idCard'), 'in', persons);
  if ('companyId' in who) others = others.where(S('companyId'), '!=', who.companyId);
  else others = others.where(S('id'), 'not in', ids);
  // two reads that the (id_card, tag, month) index answers without visiting the confirmed rows of the year
  const exceptions = (tag: 0 | 1, after: string) =>
    db
      .selectFrom(SALARY_TABLE)
      .select(selectFields(LEDGER_FIELDS))
      .where(S('tag'), '=', tag)
      .where(S('month'), tag === 0 ? '>=' : '>', after)
      .where(S('month'), '<=', to)
      .where(S('month'), '!=', month)
      .where(S('dispatchCompany'), 'in', entities)
      .where(S('idCard'), 'in', persons);
  const O = (f: string) => `${taxOpeningResource.table}.${fieldColumn(taxOpeningResource, f)}`;
  // the opening balances' columns are named through their definition (fieldColumn): the generic view of the table
  const openings = dynamicDb(db)
    .selectFrom(taxOpeningResource.table)
    .select(refsAs(OPENING_FIELDS, O))
    .where(O('taxYear'), '=', Number(month.slice(0, 4)))
    .where(O('dispatchCompany'), 'in', entities)
    .where(O('idCard'), 'in', persons);
  const [o, unconfirmed, later, b] = [await others.execute(), await exceptions(0, from).execute(), await exceptions(1, month).execute(), await openings.execute()];
  const openingRows = b.map((r) => normalise<OpeningBalance>(r as Record<string, unknown>, OPENING_NUMERIC));
  const carries = await loadCarries(db, month, entities, 'idCards' in who ? who.idCards : who);
  return {
    sameMonthOthers: o.map(asRow),
    ledger: [...unconfirmed, ...later].map(asLedger),
    openings: openingRows,
    carried: await netOfOpenings(db, carries, openingRows),
  };
}

/**
 * With an opening balance the confirmed months up to its month are not counted (the opening holds them): the
 * carried row minus the ledger row at the opening's month. The year's separate-bonus use stays as carried.
 */
async function netOfOpenings(db: Db, carries: Map<string, YtdCarry>, openings: readonly OpeningBalance[]): Promise<YtdCarry[]> {
  const covered = new Map<string, { entity: string; idCard: string; throughMonth: string }>();
  for (const o of openings) {
    const k = keyOf(o.dispatchCompany, o.idCard);
    if (carries.has(k)) covered.set(k, { entity: o.dispatchCompany, idCard: o.idCard, throughMonth: o.throughMonth });
  }
  if (covered.size === 0) return [...carries.values()];
  const base = await loadCarriesThrough(db, covered);
  const out: YtdCarry[] = [];
  for (const [k, c] of carries) {
    const through = covered.get(k)?.throughMonth;
    if (!through) {
      out.push(c);
      continue;
    }
    if (c.throughMonth <= through) {
      // nothing confirmed after the opening: only the bonus use is carried
      if (c.separateBonus) out.push({ ...c, months: 0, gross: 0, fiveOne: 0, deduct: 0, otherDeduct: 0, tax: 0 });
      continue;
    }
    const b0 = base.get(k);
    if (!b0) {
      out.push(c);
      continue;
    }
    out.push({
      ...c,
      months: c.months - b0.months,
      gross: c.gross - b0.gross,
      fiveOne: c.fiveOne - b0.fiveOne,
      deduct: c.deduct - b0.deduct,
      otherDeduct: c.otherDeduct - b0.otherDeduct,
      tax: c.tax - b0.tax,
    });
  }
  return out;
}

const OPENING_FIELDS = [
  'dispatchCompany',
  'idCard',
  'throughMonth',
  'months',
  'cumulativeIncome',
  'cumulativeExemptIncome',
  'cumulativeSocial',
  'cumulativeSpecialAdditional',
  'cumulativeOtherDeduct',
  'cumulativeTaxWithheld',
] as const;
const OPENING_NUMERIC = OPENING_FIELDS.filter((f) => f !== 'dispatchCompany' && f !== 'idCard' && f !== 'throughMonth');

/**
 * The ledger calculation of `rows` without refusing: figures for the rows it could calculate and the problem of
 * each row it could not (issue 20 item 5: one person's bad data does not stop the others' 计算).
 */
export async function computeRows(trx: Db, month: string, rows: StoredSalaryRow[], who: PersonFilter): Promise<MonthCalculationResult> {
  const ctx = await loadLedgerContext(trx, month, rows, who);
  await applyDeductionDetails(trx, month, [...rows, ...ctx.sameMonthOthers]);
  await applyArrears(trx, month, rows);
  await applyBackItems(trx, month, rows);
  const census = [...rows, ...ctx.sameMonthOthers].map((r) => r.censusType ?? '');
  const rates = await loadRateBook(trx, month, census);
  return calculateMonth({ month, rows, sameMonthOthers: ctx.sameMonthOthers, ledger: ctx.ledger, openings: ctx.openings, carried: ctx.carried, rates });
}

/**
 * 专项附加扣除明细 (issue 10 item 6): an unconfirmed row whose worker has a detail row for the month at its
 * withholding agent takes the detail's sums as its 专项附加扣除 and 其他扣除; without one it keeps the staff
 * record's amount (snapshotted at 生成) and has no 其他扣除. Confirmed rows keep what they were confirmed with.
 */
async function applyDeductionDetails(trx: Db, month: string, rows: StoredSalaryRow[]): Promise<void> {
  const open = rows.filter((r) => r.tag !== 1);
  const agents = [...new Set(open.map((r) => r.dispatchCompany).filter((a): a is string => !!a))];
  const sums = await loadDeductionSums(trx, month, agents, [...new Set(open.map((r) => r.idCard))]);
  for (const r of open) {
    const d = sums.get(deductionKey(r.dispatchCompany, r.idCard));
    if (d) {
      r.deduct = d.specialAdditional;
      r.otherDeduct = d.other;
    } else r.otherDeduct = 0;
  }
}

