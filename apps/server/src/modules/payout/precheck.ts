import type { PayoutProblem } from '@app/shared/contracts/payout';
import { type BankLayout, fenText, luhnValid } from '@app/shared/payout/bankLayout';
import { checkCells, type PayoutFileRow } from './bankFile.ts';

/**
 * The pre-checks of a payout batch (issue 23 item 2; month-close.md §B3): a batch is generated only when every row
 * passes, else the clerk gets the list of rows and reasons. A Luhn failure alone can be confirmed per row (some older
 * cards fail it); everything else must be fixed at its source (员工管理, the salary month, the template).
 */
export interface Candidate {
  /** salary row id (generate) or payout row id (re-pay): what acceptLuhn names */
  id: number;
  staffName: string;
  idCard: string | null;
  /** the card as stored, null when none */
  account: string | null;
  /** the card holder's name (the staff record's name) */
  accountName: string | null;
  amountFen: number;
  bankName?: string | null;
  phone?: string | null;
}

export const CARD_DIGITS = /^\d{16,19}$/;

/** A card as typed (spaces and dashes between groups allowed) reduced to its digits; other input kept as is. */
export function normalizeCard(raw: string | null | undefined): string {
  const s = (raw ?? '').trim();
  return /^[\d\s-]+$/.test(s) ? s.replace(/[\s-]/g, '') : s;
}

export function checkCandidates(
  layout: BankLayout,
  candidates: readonly Candidate[],
  acceptLuhn: ReadonlySet<number>,
  expectedTotalFen: number,
): { problems: PayoutProblem[]; fileRows: PayoutFileRow[]; luhnAccepted: Set<number> } {
  const problems: PayoutProblem[] = [];
  const luhnAccepted = new Set<number>();
  const seen = new Map<string, number>();
  const problem = (c: Candidate, seq: number, code: PayoutProblem['code'], detail: string | null = null, overridable = false) =>
    problems.push({ id: c.id, seq, staffName: c.staffName, idCard: c.idCard, account: c.account, code, detail, overridable });
  const fileRows: PayoutFileRow[] = [];
  let total = 0;
  candidates.forEach((c, i) => {
    const seq = i + 1;
    const card = normalizeCard(c.account);
    if (!card) problem(c, seq, 'noCard');
    else if (!CARD_DIGITS.test(card)) problem(c, seq, 'cardFormat');
    else if (!luhnValid(card)) {
      if (acceptLuhn.has(c.id)) luhnAccepted.add(c.id);
      else problem(c, seq, 'luhn', null, true);
    }
    if (card && seen.has(card)) problem(c, seq, 'duplicate', String(seen.get(card)));
    else if (card) seen.set(card, seq);
    if ((c.accountName ?? '').trim() !== c.staffName.trim()) problem(c, seq, 'nameMismatch', c.accountName ?? '');
    if (!Number.isSafeInteger(c.amountFen) || c.amountFen <= 0) problem(c, seq, 'amount', String(c.amountFen));
    total += c.amountFen;
    fileRows.push({ seq, account: card, name: (c.accountName ?? c.staffName).trim(), amountFen: c.amountFen, idType: '01', idNumber: c.idCard ?? '', bankName: c.bankName ?? '', phone: c.phone ?? '' });
  });
  for (const cell of checkCells(layout, fileRows)) {
    const c = candidates[cell.seq - 1];
    problem(c, cell.seq, cell.reason, cell.column);
  }
  if (total !== expectedTotalFen) {
    problems.push({ id: 0, seq: 0, staffName: '', idCard: null, account: null, code: 'totalMismatch', detail: `${fenText(total)}/${fenText(expectedTotalFen)}`, overridable: false });
  }
  return { problems, fileRows, luhnAccepted };
}
