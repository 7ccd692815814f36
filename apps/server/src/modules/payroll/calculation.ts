import {
  type ConfirmedMonth,
  calculateCumulativeWithholding,
  calculatePersonalContributions,
  type Fen,
  labourRemunerationTax,
  PayrollInputError,
  type PayrollRates,
  type SharedItemRate,
} from '@app/shared/payroll';
import { RateError, type RateBook } from './rates.ts';

/**
 * The salary flow's arithmetic over salary rows, without I/O: personal contributions per row and the
 * cumulative income tax per person and withholding entity, on top of the pure engine in @app/shared/payroll.
 *
 * Ledger (payroll-rules.md §1.1, §5.3): the withholding agent is the dispatch entity (`dispatchCompany`), so
 * year-to-date figures are kept per (dispatch entity, ID card, tax year) across all its client companies.
 * The tax year is the calendar year of the salary month (the work month is used as the pay month).
 * - Earlier months = CONFIRMED rows (tag = 1) of the same entity and ID card in earlier months of the year;
 *   rows of one month (several client companies) are added up, 专项附加扣除 counted once (the largest).
 * - Month index n = number of such earlier months + 1 (months employed by the entity this year).
 * - An unconfirmed earlier month, or a confirmed later month, of the same person and entity is an error:
 *   months are confirmed in order, and a confirmed month is never rewritten.
 * Several rows in the same month under the same entity (two client companies, §5.3): the tax is computed
 * once on the sum of all of them; rows already confirmed keep the tax they withheld, and the rest of the
 * month's tax is split over the unconfirmed rows in proportion to their (gross − fiveOne), the left-over fen
 * going to the largest row. Only the rows of the company being calculated are written; the confirm step
 * re-checks every figure, so a row whose share moved since (the other company changed or confirmed) must be
 * calculated again before it can be confirmed.
 * Rows of taxesType 劳务报酬 are taxed per payment (预扣率表二) and kept out of the wage ledger.
 */

/** Labour remuneration (per-payment withholding, not part of the wage ledger). */
export const LABOUR_TAXES_TYPE = '劳务报酬';

/** Salary row as the calculation needs it (money in fen, ratios as stored). */
export interface SalaryRowData {
  id: number;
  companyId: number;
  companyName: string | null;
  dispatchCompany: string | null;
  month: string;
  staffName: string | null;
  idCard: string;
  censusType: string | null;
  taxesType: string | null;
  insureType: string | null;
  salary: Fen | null;
  jiaban: Fen | null;
  koukuan: Fen | null;
  deduct: Fen | null;
  yanglaoBase: Fen | null;
  yiliaoBase: Fen | null;
  yiliaoBaseSelf: Fen | null;
  shiyeBase: Fen | null;
  gjjBase: Fen | null;
  yanglaoRatioSelf: number | string | null;
  yiliaoRatioSelf: number | string | null;
  shiyeRatioSelf: number | string | null;
  gjjRatio: number | string | null;
  /** 1 = confirmed. */
  tag: number;
  /** Stored figures (those of the last calculation; fixed once confirmed). */
  gross: Fen | null;
  fiveOne: Fen | null;
  tax: Fen | null;
}

/** A confirmed or unconfirmed row of another month of the same person and entity (summary only). */
export interface LedgerRow {
  idCard: string;
  dispatchCompany: string | null;
  month: string;
  companyName: string | null;
  taxesType: string | null;
  tag: number;
  gross: Fen | null;
  fiveOne: Fen | null;
  deduct: Fen | null;
  tax: Fen | null;
}

/** The figures the calculation writes to a row. */
export interface RowFigures {
  gross: Fen;
  yanglao: Fen;
  yiliao: Fen;
  shiye: Fen;
  gongjijin: Fen;
  fiveOne: Fen;
  tax: Fen;
  realSalary: Fen;
  /** null for labour-remuneration rows. */
  monthIndex: number | null;
  cumulativeIncome: Fen | null;
  cumulativeTaxable: Fen | null;
  cumulativeTax: Fen | null;
  taxableThisMonth: Fen | null;
}

/** Why a row cannot be calculated. */
export interface RowProblem {
  id: number;
  staffName: string | null;
  idCard: string;
  message: string;
}

export interface MonthCalculationInput {
  month: string;
  /** The rows to calculate (one company's month, or one edited person's rows). */
  rows: readonly SalaryRowData[];
  /** Other rows of the same month, entities and ID cards at other client companies. */
  sameMonthOthers: readonly SalaryRowData[];
  /** Rows of the other months of the same year, entities and ID cards. */
  ledger: readonly LedgerRow[];
  rates: RateBook;
}

export interface MonthCalculationResult {
  figures: Map<number, RowFigures>;
  problems: RowProblem[];
}

/** The amount limit of overtime and deductions, in fen (1 000 000 yuan). */
export const ADJUSTMENT_LIMIT_FEN = 100_000_000;

class Problem extends Error {}

const FIELD_LABEL: Record<string, string> = {
  salary: '基本工资',
  jiaban: '加班费',
  koukuan: '扣款',
  deduct: '专项附加扣除',
  yanglaoBase: '养老保险基数',
  yiliaoBase: '医疗保险基数',
  shiyeBase: '失业保险基数',
  gjjBase: '公积金基数',
  yanglaoRatioSelf: '养老保险个人比例',
  yiliaoRatioSelf: '医疗保险个人比例',
  shiyeRatioSelf: '失业保险个人比例',
  gjjRatio: '公积金比例',
  censusType: '户籍类型',
  dispatchCompany: '派遣单位',
};

const missing = (field: string) => new Problem(`缺少${FIELD_LABEL[field] ?? field}（${field}）`);

/** Which personal items an insurance type (保险种类) includes; unknown types are a problem, empty = all. */
export function insuredItems(insureType: string | null): { si: boolean; hf: boolean } {
  const t = (insureType ?? '').trim();
  switch (t) {
    case '':
    case '五险一金':
    case '三险一金':
      return { si: true, hf: true };
    case '五险':
    case '三险':
      return { si: true, hf: false };
    case '不参保':
      return { si: false, hf: false };
    default:
      throw new Problem(`保险种类“${t}”无法识别（应为五险一金、五险、三险一金、三险或不参保）`);
  }
}

function money(row: SalaryRowData, field: 'salary' | 'jiaban' | 'koukuan' | 'deduct', required: boolean): Fen {
  const v = row[field];
  if (v === null || v === undefined) {
    if (required) throw missing(field);
    return 0;
  }
  if (!Number.isSafeInteger(v)) throw new Problem(`${FIELD_LABEL[field]}（${field}）不是有效金额`);
  if (v < 0) throw new Problem(`${FIELD_LABEL[field]}（${field}）不能为负数`);
  if ((field === 'jiaban' || field === 'koukuan') && v > ADJUSTMENT_LIMIT_FEN) {
    throw new Problem(`${FIELD_LABEL[field]}（${field}）金额过大，不能超过1000000元`);
  }
  return v;
}

function base(row: SalaryRowData, field: 'yanglaoBase' | 'yiliaoBase' | 'shiyeBase' | 'gjjBase'): Fen {
  const v = row[field];
  if (v === null || v === undefined) throw missing(field);
  if (!Number.isSafeInteger(v) || v < 0) throw new Problem(`${FIELD_LABEL[field]}（${field}）无效`);
  return v;
}

function ratio(row: SalaryRowData, field: 'yanglaoRatioSelf' | 'yiliaoRatioSelf' | 'shiyeRatioSelf' | 'gjjRatio'): number | string {
  const v = row[field];
  if (v === null || v === undefined || v === '') throw missing(field);
  return v;
}

const NOT_INSURED: SharedItemRate = { ratioSelf: 0, ratioCompany: 0 };

/** Gross pay and the personal contributions of one row (throws Problem). */
export function personalFigures(row: SalaryRowData, rates: RateBook): Pick<RowFigures, 'gross' | 'yanglao' | 'yiliao' | 'shiye' | 'gongjijin' | 'fiveOne'> {
  const salary = money(row, 'salary', true);
  const jiaban = money(row, 'jiaban', false);
  const koukuan = money(row, 'koukuan', false);
  money(row, 'deduct', false);
  const gross = salary + jiaban - koukuan;
  if (gross < 0) throw new Problem('扣款不能超过基本工资与加班费之和');
  const { si, hf } = insuredItems(row.insureType);
  if (!si && !hf) return { gross, yanglao: 0, yiliao: 0, shiye: 0, gongjijin: 0, fiveOne: 0 };
  if (!row.censusType) throw missing('censusType');
  const version = rates.get(row.censusType);
  if (version === undefined) throw new Problem(`户籍类型“${row.censusType}”没有费率`);
  if (version instanceof RateError) throw new Problem(version.message);
  const r = version.rates;
  // Only the personal side is calculated here, so the employer ratio is not read (0 is never used).
  const own = (limits: SharedItemRate, ratioSelf: number | string): SharedItemRate => ({ ...limits, ratioSelf, ratioCompany: 0 });
  const rates2: PayrollRates = {
    yanglao: si ? own(r.yanglao, ratio(row, 'yanglaoRatioSelf')) : NOT_INSURED,
    yiliao: si ? own(r.yiliao, ratio(row, 'yiliaoRatioSelf')) : NOT_INSURED,
    shiye: si ? own(r.shiye, ratio(row, 'shiyeRatioSelf')) : NOT_INSURED,
    gongjijin: hf ? own(r.gongjijin, ratio(row, 'gjjRatio')) : NOT_INSURED,
    yiliaoFixedSelf: si ? r.yiliaoFixedSelf : 0,
  };
  const yiliaoBase = si ? base(row, 'yiliaoBase') : 0;
  const bases = {
    yanglao: si ? base(row, 'yanglaoBase') : 0,
    yiliao: yiliaoBase,
    // 医疗保险个人缴费基数 when the staff has one, otherwise the medical base.
    yiliaoSelf: si && row.yiliaoBaseSelf !== null && row.yiliaoBaseSelf !== undefined ? row.yiliaoBaseSelf : yiliaoBase,
    shiye: si ? base(row, 'shiyeBase') : 0,
    gongjijin: hf ? base(row, 'gjjBase') : 0,
  };
  try {
    const p = calculatePersonalContributions(bases, rates2);
    return { gross, yanglao: p.yanglao, yiliao: p.yiliao, shiye: p.shiye, gongjijin: p.gongjijin, fiveOne: p.fiveOne };
  } catch (err) {
    if (err instanceof PayrollInputError) throw new Problem(err.messageZh);
    throw err;
  }
}

/**
 * Splits `total` fen over rows in proportion to `weights` (negative weights count as 0), rounding down and
 * giving the left-over fen to the largest weight (the first on ties); all of it to the first largest weight
 * when every weight is 0. The shares always add up to `total`.
 */
export function splitTax(total: Fen, weights: readonly number[]): Fen[] {
  const w = weights.map((x) => (x > 0 ? BigInt(x) : 0n));
  const sum = w.reduce((a, b) => a + b, 0n);
  let largest = 0;
  for (let i = 1; i < weights.length; i++) if (weights[i] > weights[largest]) largest = i;
  const shares = weights.map(() => 0);
  if (sum === 0n) {
    shares[largest] = total;
    return shares;
  }
  let given = 0;
  for (let i = 0; i < w.length; i++) {
    shares[i] = Number((BigInt(total) * w[i]) / sum);
    given += shares[i];
  }
  shares[largest] += total - given;
  return shares;
}

const keyOf = (entity: string | null, idCard: string) => `${entity ?? ''}\u0000${idCard}`;
const isLabour = (taxesType: string | null) => (taxesType ?? '').trim() === LABOUR_TAXES_TYPE;
const byCompanyThenId = (a: SalaryRowData, b: SalaryRowData) => a.companyId - b.companyId || a.id - b.id;
const who = (row: { companyName: string | null; month: string }) => `${row.companyName ?? '其他单位'}${row.month}`;

/** Calculates `rows` (see the module comment for the ledger rules); never throws for bad row data. */
export function calculateMonth(input: MonthCalculationInput): MonthCalculationResult {
  const figures = new Map<number, RowFigures>();
  const problems: RowProblem[] = [];
  const fail = (row: SalaryRowData, message: string) => problems.push({ id: row.id, staffName: row.staffName, idCard: row.idCard, message });
  const own = new Map<number, ReturnType<typeof personalFigures>>();
  const ownFigures = (row: SalaryRowData) => {
    let p = own.get(row.id);
    if (!p) {
      p = personalFigures(row, input.rates);
      own.set(row.id, p);
    }
    return p;
  };

  // Wage rows grouped by (entity, ID card); labour rows stand alone.
  const groups = new Map<string, SalaryRowData[]>();
  for (const row of input.rows) {
    if (row.month !== input.month) {
      fail(row, `月份与计算月份（${input.month}）不一致`);
      continue;
    }
    if (isLabour(row.taxesType)) {
      try {
        const p = ownFigures(row);
        const tax = labourRemunerationTax(p.gross);
        const realSalary = p.gross - p.fiveOne - tax;
        if (realSalary < 0) throw new Problem('实发工资为负数（应发 − 五险一金 − 个税），请检查扣款');
        figures.set(row.id, {
          ...p,
          tax,
          realSalary,
          monthIndex: null,
          cumulativeIncome: null,
          cumulativeTaxable: null,
          cumulativeTax: null,
          taxableThisMonth: null,
        });
      } catch (err) {
        if (!(err instanceof Problem)) throw err;
        fail(row, err.message);
      }
      continue;
    }
    if (!row.dispatchCompany) {
      fail(row, `${FIELD_LABEL.dispatchCompany}为空，无法确定扣缴义务人`);
      continue;
    }
    const k = keyOf(row.dispatchCompany, row.idCard);
    const g = groups.get(k);
    if (g) g.push(row);
    else groups.set(k, [row]);
  }
  if (groups.size === 0) return { figures, problems };

  const targetIds = new Set(input.rows.map((r) => r.id));
  const others = new Map<string, SalaryRowData[]>();
  for (const row of input.sameMonthOthers) {
    if (targetIds.has(row.id) || row.month !== input.month || isLabour(row.taxesType)) continue;
    const k = keyOf(row.dispatchCompany, row.idCard);
    if (!groups.has(k)) continue;
    const list = others.get(k);
    if (list) list.push(row);
    else others.set(k, [row]);
  }
  const history = new Map<string, LedgerRow[]>();
  for (const l of input.ledger) {
    if (isLabour(l.taxesType) || l.month === input.month || l.month.slice(0, 4) !== input.month.slice(0, 4)) continue;
    const k = keyOf(l.dispatchCompany, l.idCard);
    if (!groups.has(k)) continue;
    const list = history.get(k);
    if (list) list.push(l);
    else history.set(k, [l]);
  }

  for (const [k, targets] of groups) {
    try {
      const previousMonths = previousMonthsOf(history.get(k) ?? [], input.month);
      const members = [...targets, ...(others.get(k) ?? [])].sort(byCompanyThenId);
      let gross = 0;
      let fiveOne = 0;
      let deduct = 0;
      let fixedTax = 0;
      const floating: { row: SalaryRowData; p: ReturnType<typeof personalFigures> }[] = [];
      for (const m of members) {
        deduct = Math.max(deduct, m.deduct ?? 0);
        if (m.tag === 1) {
          // Confirmed elsewhere: its figures and its withheld tax are final.
          if (m.gross === null || m.fiveOne === null || m.tax === null) throw new Problem(`${who(m)}的已确认工资缺少计算结果`);
          gross += m.gross;
          fiveOne += m.fiveOne;
          fixedTax += m.tax;
          continue;
        }
        let p: ReturnType<typeof personalFigures>;
        try {
          p = ownFigures(m);
        } catch (err) {
          if (err instanceof Problem && !targetIds.has(m.id)) throw new Problem(`同月在${who(m)}的工资数据有误：${err.message}`);
          throw err;
        }
        gross += p.gross;
        fiveOne += p.fiveOne;
        floating.push({ row: m, p });
      }
      let result: ReturnType<typeof calculateCumulativeWithholding>;
      try {
        result = calculateCumulativeWithholding({
          monthIndex: previousMonths.length + 1,
          previousMonths,
          current: { gross, fiveOne, deduct },
        });
      } catch (err) {
        if (err instanceof PayrollInputError) throw new Problem(err.messageZh);
        throw err;
      }
      const remaining = Math.max(0, result.tax - fixedTax);
      const shares = splitTax(
        remaining,
        floating.map((f) => f.p.gross - f.p.fiveOne),
      );
      floating.forEach((f, i) => {
        if (!targetIds.has(f.row.id)) return;
        const realSalary = f.p.gross - f.p.fiveOne - shares[i];
        if (realSalary < 0) {
          fail(f.row, '实发工资为负数（应发 − 五险一金 − 个税），请检查扣款');
          return;
        }
        figures.set(f.row.id, {
          ...f.p,
          tax: shares[i],
          realSalary,
          monthIndex: previousMonths.length + 1,
          cumulativeIncome: result.cumulativeIncome,
          cumulativeTaxable: result.cumulativeTaxable,
          cumulativeTax: result.cumulativeTax,
          taxableThisMonth: result.taxableThisMonth,
        });
      });
    } catch (err) {
      if (!(err instanceof Problem)) throw err;
      for (const t of targets) {
        let message = err.message;
        try {
          ownFigures(t);
        } catch (own) {
          if (own instanceof Problem) message = own.message;
        }
        fail(t, message);
      }
    }
  }
  problems.sort((a, b) => a.id - b.id);
  return { figures, problems };
}

/** Earlier confirmed months of the year (rows of a month added up), after checking the month order. */
function previousMonthsOf(history: readonly LedgerRow[], month: string): ConfirmedMonth[] {
  const byMonth = new Map<string, { gross: Fen; fiveOne: Fen; deduct: Fen; tax: Fen }>();
  for (const l of history) {
    if (l.month > month) {
      if (l.tag === 1) throw new Problem(`已有更晚月份的已确认工资（${who(l)}），不能再计算更早的月份`);
      continue;
    }
    if (l.tag !== 1) throw new Problem(`${who(l)}的工资尚未确认，请按月份顺序先确认更早月份的工资`);
    if (l.gross === null || l.fiveOne === null || l.tax === null) throw new Problem(`${who(l)}的已确认工资缺少计算结果`);
    const m = byMonth.get(l.month) ?? { gross: 0, fiveOne: 0, deduct: 0, tax: 0 };
    m.gross += l.gross;
    m.fiveOne += l.fiveOne;
    m.deduct = Math.max(m.deduct, l.deduct ?? 0);
    m.tax += l.tax;
    byMonth.set(l.month, m);
  }
  return [...byMonth.keys()].sort().map((k) => byMonth.get(k)!);
}

/** The figures compared when confirming: a stored row must equal a fresh calculation in all of them. */
export const VERIFIED_FIGURES = ['gross', 'yanglao', 'yiliao', 'shiye', 'gongjijin', 'fiveOne', 'tax', 'realSalary', 'monthIndex'] as const;
