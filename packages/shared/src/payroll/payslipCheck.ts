import type { CodedMessage } from '../errors/catalogue.ts';
import { PAYSLIP_DEDUCTION_ITEMS, PAYSLIP_INCOME_ITEMS, PAYSLIP_PRE_TAX_DEDUCTIONS } from '../resources/payslip.ts';
import type { Fen } from './money.ts';

/**
 * Does a payslip add up on its face (finding P6)? An imported payslip is the office's own figures, so a
 * mismatch is a warning in the import report, not a refusal: the row is imported as written and the clerk is
 * told which total does not match its items.
 *
 * - 本期应发 = the income items − 扣款（税前）, checked when 本期应发 and at least one income item are filled.
 *   Offices differ on whether 年终1/年终2 are paid inside 本期应发, so either reading is accepted.
 * - 实发 = 本期应发 − 社保公积金 − 应纳税额 − 工会费, checked when 实发 and 本期应发 are filled. 社保公积金 is the
 *   社保公积金合计 column, else 社保个人合计 + 公积金, else the four items. A payslip with 年终3/年终4 filled is not
 *   checked for 实发: how those lines enter it is the office's own rule.
 */
export interface PayslipMismatch {
  /** The column whose total does not match (its Chinese label). */
  column: string;
  /** What does not match, in the catalogue (rendered in the import request's language). */
  message: CodedMessage;
}

const GROSS = 'benqi';
const NET = 'shifa';
const BONUS_INCOME = new Set(['nianzhong1', 'nianzhong2']);
const BONUS_DEDUCTION = ['nianzhong3', 'nianzhong4'];
const labelOf = new Map([...PAYSLIP_INCOME_ITEMS, ...PAYSLIP_DEDUCTION_ITEMS]);

/** Yuan with two decimals, as the sheet shows it. */
const yuan = (fen: Fen) => (fen / 100).toFixed(2);

/**
 * `amounts`: the payslip's money items in fen by item name (absent or null = empty cell).
 */
export function payslipMismatches(amounts: Readonly<Record<string, Fen | null | undefined>>): PayslipMismatch[] {
  const has = (name: string) => amounts[name] !== null && amounts[name] !== undefined;
  const v = (name: string) => amounts[name] ?? 0;
  const out: PayslipMismatch[] = [];
  if (has(GROSS)) {
    const items = PAYSLIP_INCOME_ITEMS.map(([n]) => n).filter((n) => n !== GROSS && has(n));
    if (items.length) {
      const signed = (n: string) => (PAYSLIP_PRE_TAX_DEDUCTIONS.has(n) ? -v(n) : v(n));
      const all = items.reduce((s, n) => s + signed(n), 0);
      const withoutBonus = items.filter((n) => !BONUS_INCOME.has(n)).reduce((s, n) => s + signed(n), 0);
      if (v(GROSS) !== all && v(GROSS) !== withoutBonus) {
        out.push({ column: labelOf.get(GROSS)!, message: { code: 'PAYSLIP_GROSS_MISMATCH', params: { gross: yuan(v(GROSS)), sum: yuan(all) } } });
      }
    }
  }
  if (has(NET) && has(GROSS) && !BONUS_DEDUCTION.some(has)) {
    const social = has('shebaogongjijin')
      ? v('shebaogongjijin')
      : has('shebaogeren')
        ? v('shebaogeren') + v('gongjijin')
        : v('yanglao') + v('yiliao') + v('shiye') + v('gongjijin');
    const expected = v(GROSS) - social - v('yingna') - v('gonghui');
    if (v(NET) !== expected) {
      out.push({ column: labelOf.get(NET)!, message: { code: 'PAYSLIP_NET_MISMATCH', params: { net: yuan(v(NET)), expected: yuan(expected) } } });
    }
  }
  return out;
}
