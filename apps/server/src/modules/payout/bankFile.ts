import { checkLayoutCells, type LayoutCell, type LayoutFileSpec, layoutFileName, writeLayoutFile } from '../../core/excel/layoutFile.ts';
import { type BankColumn, type BankField, type BankLayout, fenText } from '@app/shared/payout/bankLayout';

/**
 * A payout batch in a bank template's layout (issue 23 item 1): the bank's fields and placeholders turned into the
 * cells of the one template-file writer (core/excel/layoutFile.ts), which writes text byte-exact in the template's
 * encoding and spreadsheets with every value as text except the amount. Pure: no database.
 */

/** One payee line as the writer needs it. */
export interface PayoutFileRow {
  seq: number;
  account: string;
  name: string;
  amountFen: number;
  idType?: string;
  idNumber?: string;
  bankName?: string;
  cnaps?: string;
  remark?: string;
  phone?: string;
}

export interface PayoutFileBatch {
  batchNo: string;
  month: string;
  /** payment date yyyyMMdd */
  date: string;
  totalFen: number;
  count: number;
}

/** A value that cannot be written as the template says (too wide, not encodable): the row and column, and why. */
export interface CellProblem {
  seq: number;
  column: string;
  reason: 'tooWide' | 'notEncodable';
}

/** `{placeholder}` in a header line or file name filled from the batch and template. */
export function fillPlaceholders(line: string, layout: BankLayout, batch: PayoutFileBatch): string {
  const values: Record<string, string> = {
    payerAccount: layout.payerAccount,
    payerName: layout.payerName,
    total: fenText(batch.totalFen),
    totalFen: String(batch.totalFen),
    count: String(batch.count),
    date: batch.date,
    purpose: layout.purpose,
    batchNo: batch.batchNo,
    month: batch.month,
  };
  return line.replace(/\{([A-Za-z]+)\}/g, (m, name: string) => (name in values ? values[name] : m));
}

function fieldValue(field: BankField, row: PayoutFileRow, layout: BankLayout, unit: 'yuan' | 'fen'): string {
  switch (field) {
    case 'seq':
      return String(row.seq);
    case 'account':
      return row.account;
    case 'name':
      return row.name;
    case 'amount':
      return unit === 'fen' ? String(row.amountFen) : fenText(row.amountFen);
    case 'idType':
      return row.idType ?? '';
    case 'idNumber':
      return row.idNumber ?? '';
    case 'bankName':
      return row.bankName ?? '';
    case 'cnaps':
      return row.cnaps ?? '';
    case 'purpose':
      return layout.purpose;
    case 'remark':
      return row.remark ?? '';
    case 'phone':
      return row.phone ?? '';
    case 'payerAccount':
      return layout.payerAccount;
    case 'payerName':
      return layout.payerName;
  }
}

function cell(col: BankColumn, row: PayoutFileRow, layout: BankLayout): LayoutCell {
  if (!col.field) return col.value ?? '';
  const unit = col.amountUnit ?? 'yuan';
  const text = fieldValue(col.field, row, layout, unit);
  // the amount is the one number: 2 decimals exactly (a cell showing 2 but holding 3 breaks ICBC's batch total)
  if (col.field === 'amount') return unit === 'fen' ? { number: row.amountFen, text } : { number: Number(text), text, format: '0.00' };
  return text;
}

function specOf(layout: BankLayout, batch: PayoutFileBatch | null): LayoutFileSpec {
  const fill = (l: string) => (batch ? fillPlaceholders(l, layout, batch) : l);
  return {
    fileType: layout.fileType,
    encoding: layout.encoding,
    delimiter: layout.delimiter,
    titleRow: layout.titleRow,
    headerLines: layout.headerLines.map(fill),
    trailerLines: layout.trailerLines.map(fill),
    columns: layout.columns,
  };
}

const cellsOf = (layout: BankLayout, rows: readonly PayoutFileRow[]) => rows.map((r) => layout.columns.map((c) => cell(c, r, layout)));

/** The problems writing would meet; an empty list means the file can be written as the template says. */
export function checkCells(layout: BankLayout, rows: readonly PayoutFileRow[]): CellProblem[] {
  return checkLayoutCells(specOf(layout, null), cellsOf(layout, rows)).map((p) => ({ seq: rows[p.row].seq, column: p.column, reason: p.reason }));
}

/** The file's bytes and its extension. */
export function writePayoutFile(layout: BankLayout, batch: PayoutFileBatch, rows: readonly PayoutFileRow[]): { bytes: Buffer; extension: string } {
  return writeLayoutFile(specOf(layout, batch), cellsOf(layout, rows));
}

/** The file name from the template's pattern (placeholders filled, characters a file system refuses dropped). */
export function payoutFileName(layout: BankLayout, batch: PayoutFileBatch, extension: string): string {
  return layoutFileName(fillPlaceholders(layout.fileNamePattern, layout, batch), extension);
}
