import type { AdjustPerson, AdjustPreview, SiInsurance, UploadedBase } from '@app/shared/contracts/siAdjust';
import { clampBase, fenToYuan, PayrollDecimal, type RateBook, RateError, yuanToFen } from '@app/shared/payroll';
import { personalFigures } from '@app/shared/payroll/rowFigures';
import { RowDataProblem } from '@app/shared/payroll/rowProblem';
import { staffResource } from '@app/shared/resources/staff';
import type { Db } from '../../core/db.ts';
import { renderFor } from '../../core/errorLanguage.ts';
import type { CodedMessage } from '@app/shared/errors/catalogue';
import type { Language } from '@app/shared/language';
import { nextMonth } from '../payroll/arrears.ts';
import type { CompanyRef } from '../payroll/companies.ts';
import { loadRateBook } from '../payroll/rates.ts';
import { asRow, CALC_FIELDS, fieldColumn, SALARY_TABLE, salaryColumn, selectFields, type StoredSalaryRow } from '../payroll/salaryStore.ts';
import { BACK_ITEMS, INSURANCES, STORED_FIGURES } from './backItems.ts';
import { refAs } from '../../core/selectAs.ts';

/**
 * 调基 (issue 24 item 2): the new bases of a client company's staff from a month, and the 补差 they owe for the
 * months already confirmed.
 *
 * - New bases: uploaded (one 社保基数 for the five insurances unless a column names an insurance, 公积金基数 apart),
 *   or the prior calendar year's monthly average 应发 over the person's confirmed months at the company (rows of
 *   one month added up, the sum divided by the months, half-up to the fen). Each is clamped to the floor and
 *   ceiling of the rate version in force from the adjustment month for the person's 户籍类型 (工伤 and 生育 use
 *   the pension limits, as the engine does).
 * - 补差 of a confirmed month M ≥ the adjustment month: the engine's figures of M's confirmed row with the new
 *   bases (M's rate version, the row's ratios), minus the row's stored figures, minus the 补差 earlier adjustments
 *   placed for M: per insurance, personal and employer, exact to the fen because each side is the engine's
 *   rounded item. Applying the same bases twice therefore places nothing the second time.
 * - The 补差 go into the next open month: the month after the company's last confirmed month.
 */

const ST = (name: string) => fieldColumn(staffResource, name);
const S = salaryColumn;

/** The staff base field of each insurance (工伤 and 生育 fall back to the pension base when empty). */
const STAFF_BASE: Record<SiInsurance, string> = {
  yanglao: 'yanglaoBase',
  yiliao: 'yiliaoBase',
  shiye: 'shiyeBase',
  gongshang: 'gongshangBase',
  shengyu: 'shengyuBase',
  gongjijin: 'gjjBase',
};

const EMPLOYER_FIELDS = ['employerYanglao', 'employerYiliao', 'employerShiye', 'employerGongshang', 'employerShengyu', 'employerGongjijin'] as const;

export interface AdjustRequest {
  fromMonth: string;
  source: 'average' | 'upload';
  bases?: UploadedBase[];
  housingFund?: boolean;
}

interface StaffRow {
  id: number;
  idCard: string;
  staffName: string | null;
  censusType: string | null;
  leaveDate: string | null;
  bases: Record<SiInsurance, number | null>;
  yiliaoBaseSelf: number | null;
}

/** One person's new bases in fen (only the insurances that change or were asked for). */
export interface PlannedPerson {
  staff: StaffRow;
  newBases: Partial<Record<SiInsurance, number>>;
  view: AdjustPerson;
}

/** A 补差 item to create (fen). */
export interface PlannedItem {
  idCard: string;
  staffName: string | null;
  insurance: SiInsurance;
  referMonth: string;
  self: number;
  company: number;
}

export interface AdjustPlan {
  preview: AdjustPreview;
  people: PlannedPerson[];
  items: PlannedItem[];
}

const key = (idCard: string) => idCard.trim().toUpperCase();
const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));
const yuan = (fen: number) => fenToYuan(fen);

async function loadStaff(db: Db, companyId: number, fromMonth: string): Promise<StaffRow[]> {
  const fields = ['id', 'idCard', 'staffName', 'censusType', 'leaveDate', 'yiliaoBaseSelf', ...Object.values(STAFF_BASE)];
  const rows = (await db
    .selectFrom(staffResource.table)
    .select(fields.map((f) => refAs(ST(f), f)))
    .where(ST('companyId'), '=', companyId)
    .orderBy(ST('id'))
    .execute()) as Record<string, unknown>[];
  // people who left before the adjustment month have nothing from it on
  return rows
    .filter((r) => !r.leaveDate || String(r.leaveDate) >= `${fromMonth}-01`)
    .map((r) => {
      const yanglao = num(r.yanglaoBase);
      return {
        id: Number(r.id),
        idCard: String(r.idCard ?? ''),
        staffName: (r.staffName as string | null) ?? null,
        censusType: (r.censusType as string | null) ?? null,
        leaveDate: (r.leaveDate as string | null) ?? null,
        yiliaoBaseSelf: num(r.yiliaoBaseSelf),
        bases: {
          yanglao,
          yiliao: num(r.yiliaoBase),
          shiye: num(r.shiyeBase),
          gongshang: num(r.gongshangBase) ?? yanglao,
          shengyu: num(r.shengyuBase) ?? yanglao,
          gongjijin: num(r.gjjBase),
        },
      };
    });
}

/** The prior year's monthly average 应发 per person (fen, half-up) and the months it is taken over. */
async function priorYearAverages(db: Db, companyId: number, year: number, idCards: string[]): Promise<Map<string, { average: number; months: number }>> {
  const out = new Map<string, { average: number; months: number }>();
  if (!idCards.length) return out;
  const byPerson = new Map<string, Map<string, number>>();
  for (let i = 0; i < idCards.length; i += 1000) {
    const rows = (await db
      .selectFrom(SALARY_TABLE)
      .select([refAs(S('idCard'), 'idCard'), refAs(S('month'), 'month'), refAs(S('gross'), 'gross')])
      .where(S('companyId'), '=', companyId)
      .where(S('tag'), '=', 1)
      .where(S('month'), '>=', `${year}-01`)
      .where(S('month'), '<=', `${year}-12`)
      .where(S('idCard'), 'in', idCards.slice(i, i + 1000))
      .execute()) as { idCard: string; month: string; gross: unknown }[];
    for (const r of rows) {
      const months = byPerson.get(key(r.idCard)) ?? new Map<string, number>();
      months.set(r.month, (months.get(r.month) ?? 0) + (num(r.gross) ?? 0));
      byPerson.set(key(r.idCard), months);
    }
  }
  for (const [k, months] of byPerson) {
    const sum = [...months.values()].reduce((a, b) => a + b, 0);
    const average = new PayrollDecimal(sum).div(months.size).toDecimalPlaces(0, PayrollDecimal.ROUND_HALF_UP).toNumber();
    out.set(k, { average, months: months.size });
  }
  return out;
}

/** The floor and ceiling (fen) of an insurance in a rate version; 工伤 and 生育 take the pension's. */
function limitsOf(rates: RateBook, census: string | null, insurance: SiInsurance): { floor: number | null; ceiling: number | null } | CodedMessage {
  if (!census) return { code: 'SIADJUST_NO_CENSUS' };
  const v = rates.get(census);
  if (v === undefined) return { code: 'PAYROLL_CENSUS_NO_RATES', params: { census } };
  if (v instanceof RateError) return v.reason;
  const item = insurance === 'gongshang' || insurance === 'shengyu' ? v.rates.yanglao : v.rates[insurance];
  return { floor: item.floor ?? null, ceiling: item.ceiling ?? null };
}

/** The months of the company confirmed from `fromMonth` on, and the next open month after its last confirmed one. */
async function confirmedMonthsFrom(db: Db, companyId: number, fromMonth: string): Promise<{ months: string[]; target: string | null }> {
  const rows = await db.selectFrom('accounts_confirm_log').select('month').where('company_id', '=', companyId).orderBy('month').execute();
  const all = rows.map((r) => String(r.month));
  const months = all.filter((m) => m >= fromMonth);
  return { months, target: months.length ? nextMonth(all[all.length - 1]) : null };
}

/** The new bases per person (skipping those without a staff record, a rate or a base) and the preview lines. */
async function planBases(db: Db, company: CompanyRef, req: AdjustRequest, skipped: AdjustPreview['skipped'], language: Language) {
  const staff = await loadStaff(db, company.id, req.fromMonth);
  const byCard = new Map(staff.map((s) => [key(s.idCard), s]));
  const wanted = new Map<string, Partial<Record<SiInsurance, number>>>();
  const averages = new Map<string, { average: number; months: number }>();
  if (req.source === 'upload') {
    for (const b of req.bases ?? []) {
      const k = key(b.idCard);
      const s = byCard.get(k);
      if (!s) {
        skipped.push({ idCard: b.idCard, staffName: b.staffName ?? null, code: 'notStaff', detail: null });
        continue;
      }
      if (wanted.has(k)) {
        skipped.push({ idCard: b.idCard, staffName: s.staffName, code: 'duplicate', detail: null });
        continue;
      }
      const asked: Partial<Record<SiInsurance, number>> = {};
      for (const ins of INSURANCES) {
        const v = ins === 'gongjijin' ? b.gongjijin : (b[ins] ?? b.base);
        if (v !== undefined) asked[ins] = yuanToFen(v.toFixed(2));
      }
      if (!Object.keys(asked).length) skipped.push({ idCard: b.idCard, staffName: s.staffName, code: 'noBase', detail: null });
      else wanted.set(k, asked);
    }
  } else {
    const year = Number(req.fromMonth.slice(0, 4)) - 1;
    const found = await priorYearAverages(db, company.id, year, staff.map((s) => s.idCard));
    for (const s of staff) {
      const a = found.get(key(s.idCard));
      if (!a) {
        skipped.push({ idCard: s.idCard, staffName: s.staffName, code: 'noHistory', detail: String(year) });
        continue;
      }
      averages.set(key(s.idCard), a);
      const asked: Partial<Record<SiInsurance, number>> = {};
      for (const ins of INSURANCES) if (ins !== 'gongjijin' || req.housingFund !== false) asked[ins] = a.average;
      wanted.set(key(s.idCard), asked);
    }
  }
  const rates = await loadRateBook(db, req.fromMonth, staff.map((s) => s.censusType ?? ''));
  const people: PlannedPerson[] = [];
  for (const [k, asked] of wanted) {
    const s = byCard.get(k)!;
    const view: AdjustPerson = { staffId: s.id, idCard: s.idCard, staffName: s.staffName, censusType: s.censusType, average: null, months: 0, items: [], backPay: [] };
    const a = averages.get(k);
    if (a) {
      view.average = yuan(a.average);
      view.months = a.months;
    }
    const newBases: Partial<Record<SiInsurance, number>> = {};
    let problem: CodedMessage | null = null;
    for (const ins of INSURANCES) {
      const requested = asked[ins];
      if (requested === undefined) continue;
      const limits = limitsOf(rates, s.censusType, ins);
      if ('code' in limits) {
        problem = limits;
        break;
      }
      const value = clampBase(requested, limits.floor, limits.ceiling);
      const clamp = value > requested ? 'floor' : value < requested ? 'ceiling' : null;
      newBases[ins] = value;
      const old = s.bases[ins];
      view.items.push({ insurance: ins, old: old === null ? null : yuan(old), new: yuan(value), clamp, requested: yuan(requested) });
    }
    if (problem) {
      skipped.push({ idCard: s.idCard, staffName: s.staffName, code: 'noRate', detail: renderFor(problem.code, language, problem.params) });
      continue;
    }
    people.push({ staff: s, newBases, view });
  }
  return people;
}

type StoredWithEmployer = StoredSalaryRow & Record<(typeof EMPLOYER_FIELDS)[number], number | null>;

/** The confirmed rows of a company's month for the given persons, with the employer's items. */
async function confirmedRows(db: Db, companyId: number, month: string, idCards: string[]): Promise<StoredWithEmployer[]> {
  const out: StoredWithEmployer[] = [];
  for (let i = 0; i < idCards.length; i += 1000) {
    const rows = await db
      .selectFrom(SALARY_TABLE)
      .select([...selectFields(CALC_FIELDS), ...EMPLOYER_FIELDS.map((f) => refAs(`${SALARY_TABLE}.${S(f)}`, f))])
      .where(S('companyId'), '=', companyId)
      .where(S('month'), '=', month)
      .where(S('tag'), '=', 1)
      .where(S('idCard'), 'in', idCards.slice(i, i + 1000))
      .orderBy(S('id'))
      .execute();
    for (const r of rows) {
      const row = asRow(r) as StoredWithEmployer;
      for (const f of EMPLOYER_FIELDS) row[f] = num((r as Record<string, unknown>)[f]);
      out.push(row);
    }
  }
  return out;
}

/**
 * What earlier base adjustments already placed as 补差 for a company's month, by person and insurance (fen). Accepted
 * 平账 differences are not counted: they are the bureau's corrections and stand beside the bases (so applying the
 * same bases again never undoes one; 平账 after 调基 compares with both).
 */
async function placedFor(db: Db, companyId: number, month: string): Promise<Map<string, { self: number; company: number }>> {
  const rows = await db
    .selectFrom(BACK_ITEMS)
    .select(['id_card', 'insurance', 'amount_self', 'amount_company'])
    .where('company_id', '=', companyId)
    .where('refer_month', '=', month)
    .where('source', '=', 'adjust')
    .execute();
  const out = new Map<string, { self: number; company: number }>();
  for (const r of rows) {
    const k = `${key(String(r.id_card))}|${r.insurance}`;
    const p = out.get(k) ?? { self: 0, company: 0 };
    p.self += Number(r.amount_self);
    p.company += Number(r.amount_company);
    out.set(k, p);
  }
  return out;
}

/** 补差 of one confirmed month for the planned people (see the module comment). */
async function backPayOfMonth(db: Db, companyId: number, month: string, people: Map<string, PlannedPerson>, skipped: AdjustPreview['skipped'], language: Language): Promise<PlannedItem[]> {
  const rows = await confirmedRows(db, companyId, month, [...people.values()].map((p) => p.staff.idCard));
  if (!rows.length) return [];
  const rates = await loadRateBook(db, month, rows.map((r) => r.censusType ?? ''));
  const placed = await placedFor(db, companyId, month);
  const items: PlannedItem[] = [];
  const done = new Set<string>();
  for (const row of rows) {
    const k = key(row.idCard);
    const person = people.get(k);
    if (!person) continue;
    const nb = person.newBases;
    const changed: StoredSalaryRow = {
      ...row,
      yanglaoBase: nb.yanglao ?? row.yanglaoBase,
      yiliaoBase: nb.yiliao ?? row.yiliaoBase,
      yiliaoBaseSelf: row.yiliaoBaseSelf !== null && nb.yiliao !== undefined ? nb.yiliao : row.yiliaoBaseSelf,
      shiyeBase: nb.shiye ?? row.shiyeBase,
      gongshangBase: nb.gongshang ?? row.gongshangBase,
      shengyuBase: nb.shengyu ?? row.shengyuBase,
      gjjBase: nb.gongjijin ?? row.gjjBase,
      siBackSelfDue: 0,
      siBackCompanyDue: 0,
    };
    let f: ReturnType<typeof personalFigures>;
    try {
      f = personalFigures(changed, rates);
    } catch (err) {
      if (!(err instanceof RowDataProblem)) throw err;
      skipped.push({ idCard: row.idCard, staffName: row.staffName, code: 'noRate', detail: renderFor('SIADJUST_MONTH_PROBLEM', language, { month, problem: err.reason }) });
      continue;
    }
    const figure = f as unknown as Record<string, number>;
    const stored = row as unknown as Record<string, number | null>;
    for (const ins of INSURANCES) {
      const { self, company } = STORED_FIGURES[ins];
      // a person with two rows in the month at the company: each row's own difference, the placed part once
      const already = done.has(`${k}|${ins}`) ? { self: 0, company: 0 } : (placed.get(`${k}|${ins}`) ?? { self: 0, company: 0 });
      done.add(`${k}|${ins}`);
      const dSelf = self ? figure[self] - (stored[self] ?? 0) - already.self : 0;
      const dCompany = figure[company] - (stored[company] ?? 0) - already.company;
      if (dSelf === 0 && dCompany === 0) continue;
      items.push({ idCard: row.idCard, staffName: row.staffName, insurance: ins, referMonth: month, self: dSelf, company: dCompany });
    }
  }
  return items;
}

/** The whole plan: new bases, the confirmed months affected, the 补差 items and the preview the screen shows. */
/** `language`: the request's, in which the skipped people's reasons are written. */
export async function planAdjustment(db: Db, company: CompanyRef, req: AdjustRequest, language: Language): Promise<AdjustPlan> {
  const skipped: AdjustPreview['skipped'] = [];
  const people = await planBases(db, company, req, skipped, language);
  const { months, target } = await confirmedMonthsFrom(db, company.id, req.fromMonth);
  const byCard = new Map(people.map((p) => [key(p.staff.idCard), p]));
  const items: PlannedItem[] = [];
  for (const m of months) items.push(...(await backPayOfMonth(db, company.id, m, byCard, skipped, language)));
  for (const it of items) byCard.get(key(it.idCard))?.view.backPay.push({ month: it.referMonth, insurance: it.insurance, self: yuan(it.self), company: yuan(it.company) });
  const byMonth = months.map((m) => {
    const of = items.filter((i) => i.referMonth === m);
    return { month: m, rows: of.length, self: yuan(of.reduce((a, i) => a + i.self, 0)), company: yuan(of.reduce((a, i) => a + i.company, 0)) };
  });
  const allItems = people.flatMap((p) => p.view.items);
  return {
    people,
    items,
    preview: {
      companyId: company.id,
      companyName: company.companyName,
      fromMonth: req.fromMonth,
      confirmedMonths: months,
      targetMonth: target,
      people: people.map((p) => p.view),
      skipped,
      changedBases: allItems.filter((i) => i.old !== i.new).length,
      clamped: allItems.filter((i) => i.clamp !== null).length,
      backRows: items.length,
      backPeople: new Set(items.map((i) => key(i.idCard))).size,
      totalSelf: yuan(items.reduce((a, i) => a + i.self, 0)),
      totalCompany: yuan(items.reduce((a, i) => a + i.company, 0)),
      byMonth,
    },
  };
}
