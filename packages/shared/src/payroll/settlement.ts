import { type Fen, PayrollDecimal, type Ratio, roundFen, TAX_ROUNDING, yuanToFen } from './money.ts';
import { maskIdCard } from '../idcard.ts';

/**
 * The client settlement statement (结算单, issue 22; reference month-close.md §B1): what a dispatch company bills a
 * client company for one confirmed salary month. Pure and exact to the fen: every line amount is rounded once,
 * half-up; the header's columns are the sums of the lines; VAT and its surtax are computed once, on the statement
 * total (never per line), so the invoice and the statement agree.
 */

export const FEE_MODES = ['PER_HEAD', 'PCT_WAGE', 'PCT_TOTAL', 'LUMP_SUM'] as const;
export type FeeMode = (typeof FEE_MODES)[number];
export const FEE_TAX_MODES = ['INCLUSIVE', 'EXCLUSIVE'] as const;
export type FeeTaxMode = (typeof FEE_TAX_MODES)[number];
export const DISABLED_SHARE_MODES = ['NONE', 'PER_HEAD', 'PCT_WAGE'] as const;
export type DisabledShareMode = (typeof DISABLED_SHARE_MODES)[number];
export const VAT_REGIMES = ['DIFF_5', 'GENERAL_6', 'SMALL'] as const;
export type VatRegimeKind = (typeof VAT_REGIMES)[number];

/** A named amount billed per head (商保, 体检 …). */
export interface PerHeadItem {
  name: string;
  amount: Fen;
}

/** The client company's settlement terms in force in the statement month. */
export interface SettlementTerms {
  feeMode: FeeMode;
  /** PER_HEAD: per person and month; LUMP_SUM: the month's fee. */
  feeAmount: Fen;
  /** PCT_WAGE / PCT_TOTAL: 0.05 = 5 %. */
  feeRate: Ratio;
  /** INCLUSIVE: the statement total contains its VAT; EXCLUSIVE: VAT and surtax are added as a 税金 line. */
  feeTaxMode: FeeTaxMode;
  /** 0 当月收当月: employer SI/HF of the statement month; 1 当月收下月: of the month before. */
  siBillingLag: 0 | 1;
  disabledShareMode: DisabledShareMode;
  disabledShareAmount: Fen;
  disabledShareRate: Ratio;
  /** 工会经费 as a share of 应发 (0 or 0.02). */
  unionFeeRatio: Ratio;
  perHeadItems: PerHeadItem[];
}

/** The dispatch entity's VAT regime in force in the statement month. */
export interface VatRegime {
  regime: VatRegimeKind;
  /** DIFF_5 0.05 (征收率), GENERAL_6 0.06, SMALL e.g. 0.01 or 0.03. */
  rate: Ratio;
  /** 城建税 + 教育费附加 + 地方教育附加 as a share of VAT (0.12 in cities). */
  surtaxRatio: Ratio;
}

/** One person's confirmed salary row as the statement reads it (fen). */
export interface SettlementPersonRow {
  idCard: string;
  staffName: string;
  gross: Fen;
  personalSi: Fen;
  personalHf: Fen;
  tax: Fen;
  net: Fen;
  employerYanglao: Fen;
  /** 医疗 including 生育. */
  employerYiliao: Fen;
  employerShiye: Fen;
  employerGongshang: Fen;
  employerGongjijin: Fen;
  /** 补缴社保单位: the employer's 补差 of earlier months placed into this month (调基, 社保平账; negative = refund). */
  employerBackPay?: Fen;
}

export interface SettlementInput {
  /** Salary rows of the statement month (wages, heads, per-head items). */
  wageRows: readonly SettlementPersonRow[];
  /** Rows whose employer SI/HF is billed: the same month (lag 0) or the month before (lag 1). */
  siRows: readonly SettlementPersonRow[];
  terms: SettlementTerms;
  vat: VatRegime;
  /** 累计欠款 (+) or 挂账 (−) brought forward from earlier statements. */
  arrearsIn: Fen;
}

/** Money columns of a line and of the header (same names: the header holds their sums). */
export const SETTLEMENT_LINE_AMOUNTS = [
  'gross',
  'personalSi',
  'personalHf',
  'tax',
  'net',
  'employerYanglao',
  'employerYiliao',
  'employerShiye',
  'employerGongshang',
  'employerGongjijin',
  'employerBackPay',
  'disabledShare',
  'unionFee',
  'fee',
  'total',
] as const;
export type SettlementLineAmount = (typeof SETTLEMENT_LINE_AMOUNTS)[number];
/** The amounts of lines stored before 补缴社保单位 was a column (their JSON arrays are one shorter). */
export const SETTLEMENT_LINE_AMOUNTS_V1 = SETTLEMENT_LINE_AMOUNTS.filter((k) => k !== 'employerBackPay');

export type SettlementLine = { seq: number; staffName: string; idCardMasked: string; hasWage: boolean; items: Fen[] } & Record<SettlementLineAmount, Fen>;

export interface SettlementHeader {
  heads: number;
  lines: number;
  sums: Record<SettlementLineAmount, Fen>;
  /** Sums of the per-head items, in the terms' order. */
  itemSums: Fen[];
  itemNames: string[];
  /** Wages, employer SI and HF passed through (the 差额 deduction). */
  passThrough: Fen;
  /** Sum of the line totals (before an exclusive 税金 line). */
  subtotal: Fen;
  /** What VAT is computed on: the subtotal, or subtotal − passThrough for DIFF_5. */
  vatBase: Fen;
  vat: Fen;
  surtax: Fen;
  /** 税金 line added to the bill (EXCLUSIVE: VAT + surtax; INCLUSIVE: 0, VAT is inside the subtotal). */
  taxCharged: Fen;
  /** 本期应收. */
  currentDue: Fen;
  /** 上期结转欠款 (+) / 挂账 (−). */
  arrearsIn: Fen;
  /** 合计应收. */
  totalDue: Fen;
}

export interface SettlementStatement {
  header: SettlementHeader;
  lines: SettlementLine[];
}


const dec = (r: Ratio) => new PayrollDecimal(typeof r === 'string' ? r.trim() || '0' : r);
const MICRO = 1_000_000;

/**
 * `fen × ratio`, half-up to the fen, as a function made once per ratio: a ratio of at most 6 decimals (the stored
 * scale) multiplies in exact integers of millionths while the product stays a safe integer, the rest through
 * Decimal (10,000 lines × 3 ratios would otherwise spend most of the statement's time in decimal.js).
 */
function multiplierOf(ratio: PayrollDecimal): (fen: Fen) => Fen {
  const micro = ratio.times(MICRO);
  if (!micro.isInteger()) return (fen) => roundFen(ratio.times(fen), TAX_ROUNDING);
  const m = micro.toNumber();
  return (fen) => {
    const abs = Math.abs(fen);
    const product = abs * m;
    if (!Number.isSafeInteger(product)) return roundFen(ratio.times(fen), TAX_ROUNDING);
    // exact integer steps: a floating division could round x.9999995 up to the next whole number
    const half = product + MICRO / 2;
    const rounded = (half - (half % MICRO)) / MICRO;
    return (fen < 0 ? -rounded : rounded) + 0;
  };
}
/** `fen × ratio`, half-up to the fen (the fast path of {@link multiplierOf}). */
export const fenTimesRatio = (fen: Fen, ratio: Ratio): Fen => multiplierOf(dec(ratio))(fen);
const times = (fen: Fen, ratio: PayrollDecimal): Fen => multiplierOf(ratio)(fen);

/** Splits `amount` over `n` parts exactly: the first `amount mod n` parts get one fen more. */
export function splitEvenly(amount: Fen, n: number): Fen[] {
  if (n <= 0) return [];
  const sign = amount < 0 ? -1 : 1;
  const abs = Math.abs(amount);
  const base = Math.floor(abs / n);
  const rest = abs - base * n;
  return Array.from({ length: n }, (_, i) => sign * (base + (i < rest ? 1 : 0)) + 0);
}

/** VAT on the statement total by the regime, half-up to the fen; never negative. */
export function vatOf(subtotal: Fen, passThrough: Fen, vat: VatRegime, taxMode: FeeTaxMode): { vatBase: Fen; vat: Fen; surtax: Fen } {
  const vatBase = vat.regime === 'DIFF_5' ? subtotal - passThrough : subtotal;
  const rate = dec(vat.rate);
  const share = taxMode === 'INCLUSIVE' ? rate.dividedBy(rate.plus(1)) : rate;
  const amount = vatBase > 0 ? roundFen(share.times(vatBase), TAX_ROUNDING) : 0;
  return { vatBase, vat: amount, surtax: times(amount, dec(vat.surtaxRatio)) };
}

/** Builds the statement of one client company and month. */
export function buildSettlementStatement(input: SettlementInput): SettlementStatement {
  const { terms } = input;
  const feeTimes = multiplierOf(dec(terms.feeRate));
  const disabledTimes = multiplierOf(dec(terms.disabledShareRate));
  const unionTimes = multiplierOf(dec(terms.unionFeeRatio));
  const siByCard = new Map<string, SettlementPersonRow>();
  for (const r of input.siRows) siByCard.set(r.idCard, r);
  const wageCards = new Set(input.wageRows.map((r) => r.idCard));

  // people billed wages this month first, then those billed only last month's employer SI/HF (lag 1, left since)
  const people: { wage: SettlementPersonRow | null; si: SettlementPersonRow | null }[] = [
    ...input.wageRows.map((w) => ({ wage: w, si: siByCard.get(w.idCard) ?? null })),
    ...input.siRows.filter((s) => !wageCards.has(s.idCard)).map((s) => ({ wage: null, si: s })),
  ];

  const lines: SettlementLine[] = people.map(({ wage, si }, i) => {
    const who = (wage ?? si) as SettlementPersonRow;
    const gross = wage?.gross ?? 0;
    const employer = {
      employerYanglao: si?.employerYanglao ?? 0,
      employerYiliao: si?.employerYiliao ?? 0,
      employerShiye: si?.employerShiye ?? 0,
      employerGongshang: si?.employerGongshang ?? 0,
      employerGongjijin: si?.employerGongjijin ?? 0,
      employerBackPay: si?.employerBackPay ?? 0,
    };
    const employerSum = employer.employerYanglao + employer.employerYiliao + employer.employerShiye + employer.employerGongshang + employer.employerGongjijin + employer.employerBackPay;
    const items = terms.perHeadItems.map((it) => (wage ? it.amount : 0));
    const disabledShare = !wage ? 0 : terms.disabledShareMode === 'PER_HEAD' ? terms.disabledShareAmount : terms.disabledShareMode === 'PCT_WAGE' ? disabledTimes(gross) : 0;
    const unionFee = wage ? unionTimes(gross) : 0;
    const fee = !wage ? 0 : terms.feeMode === 'PER_HEAD' ? terms.feeAmount : terms.feeMode === 'PCT_WAGE' ? feeTimes(gross) : terms.feeMode === 'PCT_TOTAL' ? feeTimes(gross + employerSum) : 0;
    return {
      seq: i + 1,
      staffName: who.staffName,
      idCardMasked: maskIdCard(who.idCard),
      hasWage: wage !== null,
      gross,
      personalSi: wage?.personalSi ?? 0,
      personalHf: wage?.personalHf ?? 0,
      tax: wage?.tax ?? 0,
      net: wage?.net ?? 0,
      ...employer,
      items,
      disabledShare,
      unionFee,
      fee,
      total: 0,
    };
  });

  // a lump sum is spread over the lines billed wages (all lines when none is), so the header still adds up
  if (terms.feeMode === 'LUMP_SUM' && lines.length) {
    const targets = lines.some((l) => l.hasWage) ? lines.filter((l) => l.hasWage) : lines;
    splitEvenly(terms.feeAmount, targets.length).forEach((f, i) => {
      targets[i].fee = f;
    });
  }

  const sums = Object.fromEntries(SETTLEMENT_LINE_AMOUNTS.map((k) => [k, 0])) as Record<SettlementLineAmount, Fen>;
  const itemSums = terms.perHeadItems.map(() => 0);
  let passThrough = 0;
  for (const l of lines) {
    const passed = l.gross + l.employerYanglao + l.employerYiliao + l.employerShiye + l.employerGongshang + l.employerGongjijin + l.employerBackPay;
    l.total = passed + l.items.reduce((a, b) => a + b, 0) + l.disabledShare + l.unionFee + l.fee;
    passThrough += passed;
    for (const k of SETTLEMENT_LINE_AMOUNTS) sums[k] += l[k];
    l.items.forEach((v, j) => {
      itemSums[j] += v;
    });
  }
  const subtotal = sums.total;
  const { vatBase, vat, surtax } = vatOf(subtotal, passThrough, input.vat, terms.feeTaxMode);
  const taxCharged = terms.feeTaxMode === 'EXCLUSIVE' ? vat + surtax : 0;
  const currentDue = subtotal + taxCharged;
  return {
    header: {
      heads: wageCards.size,
      lines: lines.length,
      sums,
      itemSums,
      itemNames: terms.perHeadItems.map((it) => it.name),
      passThrough,
      subtotal,
      vatBase,
      vat,
      surtax,
      taxCharged,
      currentDue,
      arrearsIn: input.arrearsIn,
      totalDue: currentDue + input.arrearsIn,
    },
    lines,
  };
}

/**
 * The terms' per-head items as a clerk types them: `商保:30; 体检:15.50` (name, colon, yuan; separated by `;` or
 * new lines; full-width ：； accepted). Returns the items in fen, or the reason the text is refused.
 */
export function parsePerHeadItems(text: string | null | undefined): { items: PerHeadItem[] } | { error: string } {
  const items: PerHeadItem[] = [];
  const parts = String(text ?? '')
    .split(/[;；\n]/)
    .map((p) => p.trim())
    .filter(Boolean);
  for (const p of parts) {
    const m = /^(.+?)\s*[:：]\s*(\d{1,7}(?:\.\d{1,2})?)$/.exec(p);
    if (!m) return { error: p };
    const name = m[1].trim();
    if (!name || name.length > 30 || items.some((it) => it.name === name)) return { error: p };
    items.push({ name, amount: yuanToFen(m[2]) });
  }
  return { items };
}

/** Items back to the text form of {@link parsePerHeadItems}. */
export function formatPerHeadItems(items: readonly PerHeadItem[]): string {
  return items.map((it) => `${it.name}:${(it.amount / 100).toFixed(2)}`).join('; ');
}
