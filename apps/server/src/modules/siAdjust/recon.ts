import type { ReconLine, ReconSummary, SiInsurance } from '@app/shared/contracts/siAdjust';
import type { CodedMessage } from '@app/shared/errors/catalogue';
import { fenToYuan } from '@app/shared/payroll';
import type { SalaryFieldName } from '@app/shared/resources/salary';
import { staffResource } from '@app/shared/resources/staff';
import type { Db } from '../../core/db.ts';
import { parseMonthText } from '../../core/excel/cells.ts';
import { fieldColumn, SALARY_TABLE, salaryColumn } from '../payroll/salaryStore.ts';
import { BACK_ITEMS, INSURANCES, STORED_FIGURES } from './backItems.ts';
import { idCardCell, moneyCell, readSheetByHeader, type SheetColumn, SheetError, textCell } from './sheet.ts';
import { refAs } from '../../core/selectAs.ts';

/**
 * 社保平账 (issue 24 item 4): the bureau's monthly 应缴明细 of a client company against our figures of the same,
 * confirmed month. The file is one line per person and insurance (险种), with the personal and the employer amount;
 * columns are found by their header text, people by 身份证号. Our figure of a month is what its confirmed rows
 * charged plus the 补差 already placed for it (调基, earlier accepted differences), so a difference accepted once is
 * not listed (or placed) again. Differences, and people on one side only, are stored as lines to page through;
 * lines that agree are only counted.
 */

const S = salaryColumn;
const ST = (name: string) => fieldColumn(staffResource, name);

type Col = 'idCard' | 'staffName' | 'insurance' | 'self' | 'company' | 'base' | 'period';
export const RECON_COLUMNS: readonly SheetColumn<Col>[] = [
  { name: 'idCard', label: '身份证号', aliases: ['身份证号', '身份证号码', '公民身份号码', '证件号码', '证件号'], required: true },
  { name: 'staffName', label: '姓名', aliases: ['姓名', '人员姓名'] },
  { name: 'insurance', label: '险种', aliases: ['险种', '险种名称', '险种类型', '参保险种'], required: true },
  { name: 'self', label: '个人应缴', aliases: ['个人应缴', '个人缴费', '个人缴纳', '个人应缴金额', '个人缴费金额', '个人部分'], required: true },
  { name: 'company', label: '单位应缴', aliases: ['单位应缴', '单位缴费', '单位缴纳', '单位应缴金额', '单位缴费金额', '单位部分'], required: true },
  { name: 'base', label: '缴费基数', aliases: ['缴费基数', '基数'] },
  { name: 'period', label: '所属期', aliases: ['所属期', '费款所属期', '所属年月', '缴费月份'] },
];

/** The insurance a bureau names (养老保险, 职工基本医疗保险, 大额医疗互助 …); null when it is none of ours. */
export function insuranceOf(text: string): SiInsurance | null {
  if (/养老/.test(text)) return 'yanglao';
  if (/医疗|医保|大额/.test(text)) return 'yiliao';
  if (/失业/.test(text)) return 'shiye';
  if (/工伤/.test(text)) return 'gongshang';
  if (/生育/.test(text)) return 'shengyu';
  if (/公积金/.test(text)) return 'gongjijin';
  return null;
}

export type Amounts = { name: string | null; self: number; company: number };
/** person (upper-case ID card) → insurance → amounts (fen) */
export type Figures = Map<string, Map<SiInsurance, Amounts>>;

const add = (m: Figures, idCard: string, name: string | null, ins: SiInsurance, self: number, company: number) => {
  const person = m.get(idCard) ?? new Map<SiInsurance, Amounts>();
  const a = person.get(ins) ?? { name, self: 0, company: 0 };
  a.self += self;
  a.company += company;
  a.name ??= name;
  person.set(ins, a);
  m.set(idCard, person);
};

/** Reads the bureau's file; a line that cannot be read refuses the whole file, naming up to ten lines. */
export async function readBureauFile(bytes: Buffer, month: string): Promise<{ figures: Figures; rows: number }> {
  const lines = await readSheetByHeader(bytes, RECON_COLUMNS);
  const figures: Figures = new Map();
  const problems: CodedMessage[] = [];
  for (const l of lines) {
    const idCard = idCardCell(l.cells.idCard);
    const ins = insuranceOf(textCell(l.cells.insurance));
    const self = moneyCell(l.cells.self);
    const company = moneyCell(l.cells.company);
    const period = l.cells.period === undefined ? null : textCell(l.cells.period);
    const why: CodedMessage[] = [];
    if (!/^(\d{17}[\dX]|\d{15})$/.test(idCard)) why.push({ code: 'SIADJUST_LINE_ID_CARD_INVALID' });
    if (!ins) why.push({ code: 'SIADJUST_LINE_INSURANCE_UNKNOWN', params: { value: textCell(l.cells.insurance) } });
    if (self === undefined) why.push({ code: 'SIADJUST_LINE_SELF_NOT_AMOUNT' });
    if (company === undefined) why.push({ code: 'SIADJUST_LINE_COMPANY_NOT_AMOUNT' });
    if (period) {
      const p = parseMonthText(period.replace(/^(\d{4})(\d{2})$/, '$1-$2'));
      if (p !== month) why.push({ code: 'SIADJUST_LINE_PERIOD_MISMATCH', params: { period, month } });
    }
    if (why.length) {
      problems.push({ code: 'IMPORT_ROW_PROBLEM', params: { row: l.line, reason: { list: why, joiner: 'comma' } } });
      continue;
    }
    add(figures, idCard, textCell(l.cells.staffName) || null, ins as SiInsurance, self ?? 0, company ?? 0);
  }
  if (problems.length) {
    const listed = { list: problems.slice(0, 10), joiner: 'semicolon' } as const;
    throw problems.length > 10 ? new SheetError('SIADJUST_LINES_MORE', { lines: listed, count: problems.length }) : new SheetError('SIADJUST_LINES', { lines: listed });
  }
  return { figures, rows: lines.length };
}


/** Our figures of a confirmed company month: its rows plus the 补差 placed for it (fen; zero items left out). */
export async function ourFigures(db: Db, companyId: number, month: string, idCards?: string[]): Promise<Figures> {
  const fields: SalaryFieldName[] = ['idCard', 'staffName', ...new Set(Object.values(STORED_FIGURES).flatMap((o) => [o.self, o.company]).filter((f) => f !== null))];
  let qb = db
    .selectFrom(SALARY_TABLE)
    .select(fields.map((f) => refAs(S(f), f)))
    .where(S('companyId'), '=', companyId)
    .where(S('month'), '=', month)
    .where(S('tag'), '=', 1);
  if (idCards) qb = qb.where(S('idCard'), 'in', idCards.length ? idCards : ['']);
  const rows = (await qb.execute()) as Record<string, unknown>[];
  const out: Figures = new Map();
  for (const r of rows) {
    for (const ins of INSURANCES) {
      const o = STORED_FIGURES[ins];
      add(out, String(r.idCard).toUpperCase(), (r.staffName as string | null) ?? null, ins, o.self ? Number(r[o.self] ?? 0) : 0, Number(r[o.company] ?? 0));
    }
  }
  let items = db.selectFrom(BACK_ITEMS).select(['id_card', 'staff_name', 'insurance', 'amount_self', 'amount_company']).where('company_id', '=', companyId).where('refer_month', '=', month);
  if (idCards) items = items.where('id_card', 'in', idCards.length ? idCards : ['']);
  for (const i of await items.execute()) add(out, String(i.id_card).toUpperCase(), (i.staff_name as string | null) ?? null, i.insurance as SiInsurance, Number(i.amount_self), Number(i.amount_company));
  for (const [card, person] of out) {
    for (const [ins, a] of person) if (a.self === 0 && a.company === 0) person.delete(ins);
    if (!person.size) out.delete(card);
  }
  return out;
}

export interface DiffLine {
  idCard: string;
  staffName: string | null;
  insurance: SiInsurance;
  kind: 'diff' | 'bureauOnly' | 'oursOnly';
  bureau: Amounts | null;
  ours: Amounts | null;
}

/** The lines that differ (and people on one side only), and how many person-insurance pairs agree. */
export function compareFigures(bureau: Figures, ours: Figures): { lines: DiffLine[]; matched: number } {
  const lines: DiffLine[] = [];
  let matched = 0;
  for (const [card, b] of bureau) {
    const o = ours.get(card);
    for (const ins of INSURANCES) {
      const bi = b.get(ins) ?? null;
      const oi = o?.get(ins) ?? null;
      if (!bi && !oi) continue;
      if (bi && oi && bi.self === oi.self && bi.company === oi.company) {
        matched++;
        continue;
      }
      lines.push({ idCard: card, staffName: bi?.name ?? oi?.name ?? null, insurance: ins, kind: o ? 'diff' : 'bureauOnly', bureau: bi ?? { name: null, self: 0, company: 0 }, ours: o ? (oi ?? { name: null, self: 0, company: 0 }) : null });
    }
  }
  for (const [card, o] of ours) {
    if (bureau.has(card)) continue;
    for (const [ins, oi] of o) lines.push({ idCard: card, staffName: oi.name, insurance: ins, kind: 'oursOnly', bureau: null, ours: oi });
  }
  return { lines, matched };
}

/** The staff records of a company among `idCards` (upper case). */
export async function staffCardsOf(db: Db, companyId: number, idCards: string[]): Promise<Set<string>> {
  if (!idCards.length) return new Set();
  const rows = (await db
    .selectFrom(staffResource.table)
    .select(refAs(ST('idCard'), 'idCard'))
    .where(ST('companyId'), '=', companyId)
    .where(ST('idCard'), 'in', idCards)
    .execute()) as { idCard: string }[];
  return new Set(rows.map((r) => String(r.idCard).toUpperCase()));
}

const y = (v: unknown) => (v === null || v === undefined ? null : fenToYuan(Number(v)));

export function lineOut(r: Record<string, unknown>): ReconLine {
  const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
  return {
    id: Number(r.id),
    idCard: String(r.id_card),
    staffName: (r.staff_name as string | null) ?? null,
    insurance: r.insurance as SiInsurance,
    kind: r.kind as ReconLine['kind'],
    bureauSelf: y(r.bureau_self),
    bureauCompany: y(r.bureau_company),
    ourSelf: y(r.our_self),
    ourCompany: y(r.our_company),
    diffSelf: fenToYuan(n(r.bureau_self) - n(r.our_self)),
    diffCompany: fenToYuan(n(r.bureau_company) - n(r.our_company)),
    state: r.state === 'accepted' ? 'accepted' : 'open',
    reason: (r.reason as string | null) ?? null,
    targetMonth: (r.target_month as string | null) ?? null,
    acceptedBy: (r.accepted_by as string | null) ?? null,
  };
}

/** A recon row with its line counts as the API shows it. */
export async function reconSummaryOf(db: Db, r: Record<string, unknown>): Promise<ReconSummary> {
  const counts = await db
    .selectFrom('accounts_si_recon_line')
    .select(['kind', 'state', (eb) => eb.fn.countAll<number>().as('n')])
    .where('recon_id', '=', Number(r.id))
    .groupBy(['kind', 'state'])
    .execute();
  const count = (pred: (c: { kind: string; state: string }) => boolean) => counts.filter(pred).reduce((a, c) => a + Number(c.n), 0);
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    companyName: (r.company_name as string | null) ?? null,
    month: String(r.month),
    fileName: (r.file_name as string | null) ?? null,
    fileRows: Number(r.file_rows),
    matched: Number(r.matched),
    diff: count((c) => c.kind === 'diff'),
    bureauOnly: count((c) => c.kind === 'bureauOnly'),
    oursOnly: count((c) => c.kind === 'oursOnly'),
    accepted: count((c) => c.state === 'accepted'),
    createBy: (r.create_by as string | null) ?? null,
    createTime: (r.create_time as string | null) ?? null,
  };
}
