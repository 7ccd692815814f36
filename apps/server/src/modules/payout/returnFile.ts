import type { BankLayout } from '@app/shared/payout/bankLayout';
import { sniffExcelFormat, openWorkbook } from '../../core/excel/readWorkbook.ts';
import { CodedError } from '../../core/errors.ts';
import type { CellValue } from '../../core/excel/types.ts';
import { decodeText } from '../../core/excel/layoutFile.ts';

/**
 * Reads a bank's return file (回盘, issue 23 item 3) by the template's return mapping: which columns hold the 序号,
 * account, amount, status and reason, how many lines to skip, which status values mean success. Workbooks are read
 * with the project's guarded readers (zip and compound-file limits); text files are decoded in the template's encoding.
 */
export interface ReturnLine {
  /** line (text) or row (workbook) number in the file, 1-based */
  line: number;
  seq: string;
  account: string;
  /** null when the amount cell is not an amount */
  amountFen: number | null;
  status: string;
  reason: string;
  success: boolean;
}

const cellString = (c: CellValue | undefined): string => (c === null || c === undefined ? '' : typeof c === 'number' ? String(c) : String(c)).trim();

/** Yuan text or number (2 decimals at most) or fen digits as integer fen; null when it is neither. */
function amountOf(c: CellValue | undefined, unit: 'yuan' | 'fen'): number | null {
  if (typeof c === 'number') {
    if (unit === 'fen') return Number.isSafeInteger(c) ? c : null;
    const fen = Math.round(c * 100);
    // a cell holding more than 2 decimals is not an amount the bank paid
    return Math.abs(c * 100 - fen) < 1e-6 ? fen : null;
  }
  const s = cellString(c).replace(/,/g, '');
  if (unit === 'fen') return /^\d+$/.test(s) ? Number(s) : null;
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

function toLine(cells: CellValue[], line: number, position: number, layout: BankLayout): ReturnLine {
  const m = layout.returnMapping;
  const at = (col: number) => cells[col - 1];
  const status = cellString(at(m.status));
  return {
    line,
    seq: m.seq ? cellString(at(m.seq)).replace(/^0+(?=\d)/, '') : String(position),
    account: cellString(at(m.account)),
    amountFen: amountOf(at(m.amount), m.amountUnit ?? 'yuan'),
    status,
    reason: m.reason ? cellString(at(m.reason)) : '',
    success: m.successValues.includes(status),
  };
}

const blank = (cells: CellValue[]) => cells.every((c) => cellString(c) === '');

/** Why a return file cannot be read, as a catalogue message (the route answers it as PAYOUT_RETURN_UNREADABLE's reason). */
export class ReturnFileError extends CodedError {}

export async function readReturnFile(bytes: Buffer, layout: BankLayout): Promise<ReturnLine[]> {
  const m = layout.returnMapping;
  const out: ReturnLine[] = [];
  if (sniffExcelFormat(bytes)) {
    const wb = openWorkbook(bytes);
    await wb.verify?.();
    for await (const r of wb.rows) {
      if (r.row <= m.skipLines || blank(r.cells)) continue;
      out.push(toLine(r.cells, r.row, out.length + 1, layout));
    }
    return out;
  }
  if (bytes.includes(0)) throw new ReturnFileError('PAYOUT_RETURN_NOT_TEXT');
  const delimiter = m.delimiter ?? layout.delimiter;
  const lines = decodeText(bytes, layout.encoding).split(/\r?\n/);
  lines.forEach((text, i) => {
    const cells = text.split(delimiter);
    if (i < m.skipLines || blank(cells)) return;
    out.push(toLine(cells, i + 1, out.length + 1, layout));
  });
  return out;
}
