import { insuredItems, monthSpan } from '@app/shared/payroll';
import type { SiChangeKind, SiChangeTarget } from '@app/shared/socialInsurance/siChangeLayout';
import type { Db } from '../../core/db.ts';
import { refAs } from '../../core/selectAs.ts';

/**
 * The 增员 / 减员 / 基数变更 lists of a company's month (issue 24 item 3), derived from what the system already keeps:
 * the staff record (hire, insured and leave dates, 保险种类, 参保状态, current bases) and the salary months, whose
 * rows snapshot each person's bases and 保险种类 when the month is generated. A month not generated yet takes the
 * staff record as its figures (the clerk prepares the lists before payroll).
 *
 * - 增员: covered this month (保险种类 includes the target's items, not 已停保), not covered last month, and
 *   insured from this month (参保时间, or 入职日期 when it is empty); one hired and gone within the month is on
 *   both 增员 and 减员.
 * - 减员: covered last month and either left this month (离职 / 退休 with 离职日期 in the month) or still employed but
 *   no longer covered (保险种类 changed, or 参保状态 已停保); the stop month is the list's month.
 * - 基数变更: covered last month and this month, in neither list above, with a base of the target that differs from
 *   last month's salary row (社保: any of 养老/医疗/失业/工伤/生育; 公积金: 公积金基数).
 */

export const SI_BASES = ['yanglaoBase', 'yiliaoBase', 'shiyeBase', 'gongshangBase', 'shengyuBase'] as const;
export type BaseField = (typeof SI_BASES)[number] | 'gjjBase';
const ALL_BASES: readonly BaseField[] = [...SI_BASES, 'gjjBase'];

/** A person's figures of one month: bases in fen, the HF ratio, the insurance type. */
export interface MonthFigures {
  insureType: string | null;
  bases: Record<BaseField, number>;
  gjjRatio: number | null;
}

/** One person of a list, with what the file's columns may ask for. */
export interface ChangePerson {
  staffId: number;
  staffName: string;
  idCard: string;
  sex: string | null;
  born: string | null;
  phone: string | null;
  nation: string | null;
  education: string | null;
  address: string | null;
  dept: string | null;
  job: string | null;
  censusType: string | null;
  startMonth: string;
  reason: string;
  now: MonthFigures;
  /** last month's salary row; null for 增员 without one */
  before: MonthFigures | null;
}

export type ChangeLists = Record<SiChangeKind, ChangePerson[]>;

/** The month before `YYYY-MM`. */
export function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

const num = (v: unknown): number => (v === null || v === undefined || v === '' ? 0 : Number(v));
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const personKey = (idCard: string) => idCard.trim().toUpperCase();

function figuresOf(r: Record<string, unknown>): MonthFigures {
  const bases = {} as Record<BaseField, number>;
  for (const b of ALL_BASES) bases[b] = num(r[b]);
  return { insureType: str(r.insureType), bases, gjjRatio: r.gjjRatio === null || r.gjjRatio === undefined ? null : Number(r.gjjRatio) };
}

/** Does the insurance type include the target's items? An unknown type counts as not covered (the payroll refuses it). */
function covers(insureType: string | null, target: SiChangeTarget): boolean {
  try {
    return insuredItems(insureType)[target];
  } catch {
    return false;
  }
}

const BASE_COLUMNS = { yanglaoBase: 'yanglao_base', yiliaoBase: 'yiliao_base', shiyeBase: 'shiye_base', gongshangBase: 'gongshang_base', shengyuBase: 'shengyu_base', gjjBase: 'gjj_base' } as const;

/** The first salary row per person of a company's month (bases and 保险种类 as generated). */
async function salaryFigures(db: Db, companyId: number, month: string): Promise<Map<string, MonthFigures>> {
  const rows = await db
    .selectFrom('accounts_salary')
    .select(['id_card as idCard', 'insure_type as insureType', 'gjj_ratio as gjjRatio', ...Object.entries(BASE_COLUMNS).map(([f, c]) => refAs(c, f))])
    .where('company_id', '=', companyId)
    .where('month', '=', month)
    .orderBy('id')
    .execute();
  const out = new Map<string, MonthFigures>();
  for (const r of rows as Record<string, unknown>[]) {
    const key = personKey(String(r.idCard ?? ''));
    if (key && !out.has(key)) out.set(key, figuresOf(r));
  }
  return out;
}

/** The three lists of a company's month for the bureau (si) or the fund centre (hf). */
export async function changeLists(db: Db, companyId: number, month: string, target: SiChangeTarget): Promise<ChangeLists> {
  const span = monthSpan(month);
  const [nowRows, beforeRows] = await Promise.all([salaryFigures(db, companyId, month), salaryFigures(db, companyId, previousMonth(month))]);
  const staff = (await db
    .selectFrom('accounts_staff')
    .select([
      'id as staffId',
      'staff_name as staffName',
      'id_card as idCard',
      'sex',
      'born',
      'phone',
      'nation',
      'education',
      'address',
      'dept',
      'job',
      'census_type as censusType',
      'insure_type as insureType',
      'insured_state as insuredState',
      'insured_time as insuredTime',
      'induction_date as inductionDate',
      'job_state as jobState',
      'leave_date as leaveDate',
      'gjj_ratio as gjjRatio',
      ...Object.entries(BASE_COLUMNS).map(([f, c]) => refAs(c, f)),
    ])
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute()) as Record<string, unknown>[];

  const lists: ChangeLists = { add: [], remove: [], base: [] };
  for (const s of staff) {
    const idCard = String(s.idCard ?? '');
    const key = personKey(idCard);
    const record = figuresOf(s);
    const stopped = str(s.insuredState) === '已停保';
    const now = nowRows.get(key) ?? record;
    const before = beforeRows.get(key) ?? null;
    const leaveDate = str(s.leaveDate);
    const jobState = str(s.jobState);
    const leftThisMonth = leaveDate !== null && leaveDate >= span.first && leaveDate <= span.last && (jobState === '离职' || jobState === '退休');
    const leftEarlier = leaveDate !== null && leaveDate < span.first;
    const coveredNow = covers(now.insureType, target) && !stopped && !leftEarlier;
    const coveredBefore = before !== null && covers(before.insureType, target);
    const start = (str(s.insuredTime) ?? str(s.inductionDate) ?? '').slice(0, 7);
    const person = (reason: string): ChangePerson => ({
      staffId: Number(s.staffId),
      staffName: String(s.staffName ?? ''),
      idCard,
      sex: str(s.sex),
      born: str(s.born),
      phone: str(s.phone),
      nation: str(s.nation),
      education: str(s.education),
      address: str(s.address),
      dept: str(s.dept),
      job: str(s.job),
      censusType: str(s.censusType),
      startMonth: month,
      reason,
      now,
      before,
    });

    // hired and gone in the same month: insured for that month, so on both lists
    const joined = coveredNow && start === month && !coveredBefore;
    if (joined) lists.add.push(person('新参保'));
    if (leftThisMonth && (coveredBefore || joined)) lists.remove.push(person(jobState ?? '离职'));
    else if (coveredBefore && !coveredNow && !leftEarlier) lists.remove.push(person('停保'));
    else if (coveredBefore && coveredNow && baseChanged(before, now, target)) lists.base.push(person('调整基数'));
  }
  return lists;
}

function baseChanged(before: MonthFigures, now: MonthFigures, target: SiChangeTarget): boolean {
  const fields: readonly BaseField[] = target === 'hf' ? ['gjjBase'] : SI_BASES;
  return fields.some((f) => before.bases[f] !== now.bases[f]);
}

/** The target's main base (fen): 养老保险基数 for 社保, 公积金基数 for 公积金. */
export const mainBase = (target: SiChangeTarget): BaseField => (target === 'hf' ? 'gjjBase' : 'yanglaoBase');
