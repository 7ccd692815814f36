import type { Fen } from './money.ts';

/**
 * The lines of a payslip generated from a confirmed salary row (findings PB5, U13): every amount that makes
 * 本期应发 and 实发 is its own line, so the sheet adds up on its face: 本期应发 = the income lines (a separately
 * taxed annual bonus included), 实发 = 本期应发 − each deduction line. The tax information (专项附加扣除, the month's
 * and the cumulative taxable income) is listed apart and enters no sum; 专项附加扣除 and 个人所得税 are listed even
 * when zero, and a taxable income below zero is shown as 0 with the reason.
 *
 * Data-driven: a pay item added to the salary row is one entry of `PAYSLIP_LINE_ITEMS` (its field name, section and
 * sign); items absent from a row (older rows, a column not there yet) or zero are left out unless `always`.
 */

export type PayslipSection = 'income' | 'deduction' | 'info';

export interface PayslipLineItem {
  /** The salary row's field (API name); a line's name, and its label key on the screens. */
  field: string;
  /** Label of the line (Chinese; screens translate by `name`). */
  label: string;
  section: PayslipSection;
  /** −1: the amount lowers its section's total (扣款 among the income; 应扣未扣 and 单位垫付 among the deductions). */
  sign?: 1 | -1;
  /** Listed even when zero (U13: a zero tax is explained by its lines). */
  always?: boolean;
  /** Only for rows where this holds (the annual bonus: separately taxed or merged). */
  when?: (row: SalaryLineSource) => boolean;
  /** The line's own name when one field makes two different lines. */
  name?: string;
}

/** A confirmed salary row's amounts in fen by field name (null or absent = not there). */
export type SalaryLineSource = Readonly<Record<string, Fen | boolean | number | null | undefined>>;

const isMerged = (row: SalaryLineSource) => row.bonusMerged === true || row.bonusMerged === 1;

/** The payslip's lines in order. */
export const PAYSLIP_LINE_ITEMS: readonly PayslipLineItem[] = [
  { field: 'salary', label: '基础工资', section: 'income', always: true },
  { field: 'jiaban', label: '加班费', section: 'income' },
  { field: 'backPay', label: '补发', section: 'income' },
  { field: 'severance', label: '经济补偿金', section: 'income' },
  { field: 'koukuan', label: '扣款（税前）', section: 'income', sign: -1 },
  { field: 'backDeduct', label: '补扣', section: 'income', sign: -1 },
  { field: 'bonus', name: 'bonusMerged', label: '全年一次性奖金（并入当月工资计税）', section: 'income', when: isMerged },
  { field: 'bonus', name: 'bonusSeparate', label: '全年一次性奖金（单独计税）', section: 'income', when: (r) => !isMerged(r) },
  { field: 'yanglao', label: '养老保险(个人)', section: 'deduction' },
  { field: 'yiliao', label: '医疗保险(个人)', section: 'deduction' },
  { field: 'shiye', label: '失业保险(个人)', section: 'deduction' },
  { field: 'gongjijin', label: '公积金(个人)', section: 'deduction' },
  { field: 'siBackSelf', label: '补缴社保个人', section: 'deduction' },
  { field: 'tax', label: '个人所得税', section: 'deduction', always: true },
  { field: 'bonusTax', label: '年终奖个税', section: 'deduction' },
  { field: 'severanceTax', label: '经济补偿金个税', section: 'deduction' },
  { field: 'carriedIn', label: '上月应扣未扣', section: 'deduction' },
  { field: 'unpaid', label: '应扣未扣（下月扣回）', section: 'deduction', sign: -1 },
  { field: 'advanced', label: '单位垫付', section: 'deduction', sign: -1 },
  { field: 'deduct', label: '专项附加扣除', section: 'info', always: true },
  { field: 'otherDeduct', label: '其他扣除', section: 'info' },
  { field: 'taxableThisMonth', label: '本月应纳税所得额', section: 'info', always: true },
  { field: 'cumulativeTaxable', label: '累计应纳税所得额', section: 'info' },
];

export interface PayslipLine {
  name: string;
  label: string;
  section: PayslipSection;
  /** Fen, with its sign in the section's total (扣款 negative among the income). */
  amount: Fen;
  /** Why a figure reads 0 (a taxable income below zero). */
  note?: 'belowDeductions';
}

export interface PayslipLines {
  lines: PayslipLine[];
  /** 本期应发: the sum of the income lines. */
  gross: Fen;
  /** 实发: 本期应发 − the deduction lines. */
  net: Fen;
}

const TAXABLE = new Set(['taxableThisMonth', 'cumulativeTaxable']);

/** The lines of a salary row and the totals they make. */
export function payslipLinesOf(row: SalaryLineSource): PayslipLines {
  const lines: PayslipLine[] = [];
  for (const item of PAYSLIP_LINE_ITEMS) {
    const raw = row[item.field];
    if (item.when && !item.when(row)) continue;
    const value = typeof raw === 'number' ? raw : 0;
    if (!item.always && value === 0) continue;
    if (!item.always && (raw === null || raw === undefined)) continue;
    const line: PayslipLine = { name: item.name ?? item.field, label: item.label, section: item.section, amount: (item.sign ?? 1) * value };
    // U13: this month's share of a cumulative figure below the deductions is no income to tax: 0, with the reason
    if (TAXABLE.has(item.field) && value < 0) {
      line.amount = 0;
      line.note = 'belowDeductions';
    }
    lines.push(line);
  }
  const gross = lines.filter((l) => l.section === 'income').reduce((s, l) => s + l.amount, 0);
  const net = gross - lines.filter((l) => l.section === 'deduction').reduce((s, l) => s + l.amount, 0);
  return { lines, gross, net };
}

/**
 * Do the lines make the totals printed on the slip? Empty when 本期应发 is the sum of the income lines and 实发 is
 * 本期应发 minus the deduction lines; otherwise what does not add up, in fen.
 */
export function payslipTotalsMismatch(lines: readonly PayslipLine[], printed: { gross: Fen; net: Fen }): string[] {
  const income = lines.filter((l) => l.section === 'income').reduce((s, l) => s + l.amount, 0);
  const deductions = lines.filter((l) => l.section === 'deduction').reduce((s, l) => s + l.amount, 0);
  const out: string[] = [];
  if (income !== printed.gross) out.push(`本期应发 ${printed.gross} ≠ 收入各项合计 ${income}`);
  if (printed.gross - deductions !== printed.net) out.push(`实发 ${printed.net} ≠ 本期应发 ${printed.gross} − 扣除各项 ${deductions}`);
  return out;
}
