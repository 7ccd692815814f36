import { ITS_BONUS_COLUMNS, ITS_PERSON_COLUMNS, ITS_WAGE_COLUMNS } from '@app/shared/iit/itsLayouts';
import type { Db } from '../../core/db.ts';
import type { XlsxColumn } from '../../core/excel/writeXlsx.ts';
import { type AgentScope, confirmedWageRows, fenText, normId, type WageRow } from './agent.ts';

/**
 * The ITS import workbooks (month-close.md §B2) of one withholding agent: one row per person across all the agent's
 * client companies (ITS takes one row per person and agent). Every cell is text: amounts as "1234.50" (2 decimals,
 * no separators, exact to the fen) and ID numbers as typed, so Excel never turns them into numbers. The 专项附加扣除
 * columns stay empty: ITS fills them from the employees' own declarations (预填专项附加扣除), and a 0.00 written here
 * would overwrite them.
 */

export type Cells = Record<string, string>;

/** The ITS 证件类型 of an ID number: 18/15-character mainland cards are 居民身份证; anything else the clerk fixes in ITS. */
export const idType = (id: string) => (/^(\d{17}[\dX]|\d{15})$/.test(id) ? '居民身份证' : '其他');

/** Columns of a layout, each cell read from the row's map by header. */
export function textColumns(headers: readonly string[]): XlsxColumn<Cells>[] {
  return headers.map((h) => ({ header: h, value: (r: Cells) => r[h] ?? '', kind: 'text', width: Math.max(10, h.length * 2 + 2) }));
}

/** A person's figures of the month, summed over the client companies of the agent. */
type PersonWage = Pick<WageRow, 'idCard' | 'gross' | 'yanglao' | 'yiliao' | 'shiye' | 'gongjijin' | 'otherDeduct' | 'tax'> & { name: string };

/** The month's wage figures per person (rows of several client companies of the agent added up), in first-seen order. */
export function wagesByPerson(rows: WageRow[]): Map<string, PersonWage> {
  const out = new Map<string, PersonWage>();
  for (const r of rows) {
    const p = out.get(r.idCard) ?? { name: r.staffName, idCard: r.idCard, gross: 0, yanglao: 0, yiliao: 0, shiye: 0, gongjijin: 0, otherDeduct: 0, tax: 0 };
    p.gross += r.gross;
    p.yanglao += r.yanglao;
    p.yiliao += r.yiliao;
    p.shiye += r.shiye;
    p.gongjijin += r.gongjijin;
    p.otherDeduct += r.otherDeduct;
    p.tax += r.tax;
    out.set(r.idCard, p);
  }
  return out;
}

export async function wageSheetRows(db: Db, scope: AgentScope, month: string): Promise<Cells[]> {
  const people = wagesByPerson(await confirmedWageRows(db, scope, [month], true));
  const [, name, type, number, income, , yanglao, yiliao, shiye, hf] = ITS_WAGE_COLUMNS;
  return [...people.values()].map((p) => ({
    [name]: p.name,
    [type]: idType(p.idCard),
    [number]: p.idCard,
    [income]: fenText(p.gross),
    [yanglao]: fenText(p.yanglao),
    [yiliao]: fenText(p.yiliao),
    [shiye]: fenText(p.shiye),
    [hf]: fenText(p.gongjijin),
    // 商业健康险 and 个人养老金 of the month, as the payroll engine deducts them (one figure: it keeps no split)
    其他: p.otherDeduct ? fenText(p.otherDeduct) : '',
  }));
}

/** 全年一次性奖金 taxed on its own (not merged into the month's wages) of the year's confirmed months. */
export async function bonusSheetRows(db: Db, scope: AgentScope, year: string): Promise<Cells[]> {
  const months = Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, '0')}`);
  const rows = (await confirmedWageRows(db, scope, months, false)).filter((r) => r.bonus > 0 && !r.bonusMerged);
  const byPerson = new Map<string, { name: string; bonus: number }>();
  for (const r of rows) {
    const p = byPerson.get(r.idCard) ?? { name: r.staffName, bonus: 0 };
    p.bonus += r.bonus;
    byPerson.set(r.idCard, p);
  }
  const [, name, type, number, amount] = ITS_BONUS_COLUMNS;
  return [...byPerson].map(([idCard, p]) => ({ [name]: p.name, [type]: idType(idCard), [number]: idCard, [amount]: fenText(p.bonus) }));
}

export interface StaffFacts {
  idCard: string;
  name: string;
  sex: string | null;
  phone: string | null;
  induction: string | null;
  leave: string | null;
  jobState: string | null;
  education: string | null;
  bank: string | null;
  card: string | null;
  job: string | null;
}

/**
 * The staff records of the agent's companies by ID card. A person with records at several client companies keeps
 * the latest-joined one that is still employed, else the latest-joined one.
 */
export async function staffOfAgent(db: Db, scope: AgentScope): Promise<Map<string, StaffFacts>> {
  const ids = scope.companies.map((c) => c.id);
  const out = new Map<string, StaffFacts>();
  if (!ids.length) return out;
  const rows = await db
    .selectFrom('accounts_staff')
    .select(['staff_name', 'id_card', 'sex', 'phone', 'induction_date', 'leave_date', 'job_state', 'education', 'salary_bank', 'bankcard_number', 'job'])
    .where('company_id', 'in', ids)
    .orderBy('induction_date')
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const idCard = normId(r.id_card);
    if (!idCard) continue;
    const f: StaffFacts = {
      idCard,
      name: String(r.staff_name ?? ''),
      sex: r.sex ?? null,
      phone: r.phone ?? null,
      induction: r.induction_date ? String(r.induction_date).slice(0, 10) : null,
      leave: r.leave_date ? String(r.leave_date).slice(0, 10) : null,
      jobState: r.job_state ?? null,
      education: r.education ?? null,
      bank: r.salary_bank ?? null,
      card: r.bankcard_number ?? null,
      job: r.job ?? null,
    };
    const before = out.get(idCard);
    if (!before || !hasLeft(f) || hasLeft(before)) out.set(idCard, f);
  }
  return out;
}

export const hasLeft = (f: StaffFacts) => !!f.leave || f.jobState === '离职';

/** The birth date and sex an 18-digit ID card states. */
function fromIdCard(id: string): { born: string; sex: string } | null {
  const m = /^\d{6}(\d{4})(\d{2})(\d{2})\d{2}(\d)[\dX]$/.exec(id);
  return m ? { born: `${m[1]}-${m[2]}-${m[3]}`, sex: Number(m[4]) % 2 === 1 ? '男' : '女' } : null;
}

/** One 人员信息采集 row; `leaver`: reported 非正常 with its 离职日期 (ITS has no 人员状态 column here: see 备注). */
export function personRow(f: StaffFacts, opts: { leaver?: boolean; backPay?: string } = {}): Cells {
  const c = ITS_PERSON_COLUMNS;
  const id = fromIdCard(f.idCard);
  const row: Cells = {
    [c[1]]: f.name,
    [c[2]]: idType(f.idCard),
    [c[3]]: f.idCard,
    [c[4]]: '中国',
    [c[5]]: f.sex === '男' || f.sex === '女' ? f.sex : (id?.sex ?? ''),
    [c[6]]: id?.born ?? '',
    [c[7]]: '否',
    [c[8]]: '雇员',
    [c[11]]: f.phone ?? '',
    [c[12]]: f.induction ?? '',
    [c[16]]: '否',
    [c[17]]: '否',
    [c[18]]: '否',
    [c[22]]: '是',
    学历: f.education ?? '',
    开户银行: f.bank ?? '',
    银行账号: f.card ?? '',
    职务: f.job ?? '',
  };
  if (opts.leaver || opts.backPay) row[c[13]] = f.leave ?? '';
  if (opts.backPay) {
    row[c[14]] = '是';
    row[c[15]] = opts.backPay;
  }
  if (opts.leaver) row.备注 = '人员状态：非正常';
  return row;
}

const monthStart = (m: string) => `${m}-01`;
function previousMonth(m: string): string {
  const [y, mo] = m.split('-').map(Number);
  return mo === 1 ? `${y - 1}-12` : `${y}-${String(mo - 1).padStart(2, '0')}`;
}

/**
 * 人员信息采集 for the month: everyone with a confirmed wage row (正常; a leaver still paid is marked 离职后补发), then
 * the leavers to report 非正常 with their 离职日期 and no wage row: left before the month, and either paid last month
 * or gone during it (so each leaver is reported once, in the month after the last pay).
 */
export async function personSheetRows(db: Db, scope: AgentScope, month: string): Promise<Cells[]> {
  const paid = wagesByPerson(await confirmedWageRows(db, scope, [month], true));
  const staff = await staffOfAgent(db, scope);
  const out: Cells[] = [];
  for (const p of paid.values()) {
    const f = staff.get(p.idCard) ?? { idCard: p.idCard, name: p.name, sex: null, phone: null, induction: null, leave: null, jobState: null, education: null, bank: null, card: null, job: null };
    const leftBefore = !!f.leave && f.leave < monthStart(month);
    out.push(personRow({ ...f, name: p.name }, leftBefore ? { backPay: month } : {}));
  }
  const prev = previousMonth(month);
  const paidLastMonth = new Set((await confirmedWageRows(db, scope, [prev], false)).map((r) => r.idCard));
  for (const f of staff.values()) {
    if (paid.has(f.idCard) || !f.leave || f.leave >= monthStart(month)) continue;
    if (paidLastMonth.has(f.idCard) || f.leave >= monthStart(prev)) out.push(personRow(f, { leaver: true }));
  }
  return out;
}
