import iconv from 'iconv-lite';
import { sheetJs } from '../../core/excel/sheetJs.ts';
import { type BankColumn, type BankField, type BankLayout, fenText } from '@app/shared/payout/bankLayout';

/**
 * Writes a payout batch in a bank template's layout (issue 23 item 1), byte-exact: text files are built as one string
 * and encoded once in the template's encoding (GBK, GB18030, UTF-8 with or without BOM), lines end in CRLF as the
 * banks' Windows clients expect; spreadsheets keep every value as text except the amount. Pure: no database.
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

const ENCODING_NAME: Record<BankLayout['encoding'], string> = { GBK: 'gbk', GB18030: 'gb18030', 'UTF-8': 'utf8', 'UTF-8-BOM': 'utf8' };

export function encodeText(text: string, encoding: BankLayout['encoding']): Buffer {
  const body = iconv.encode(text, ENCODING_NAME[encoding]);
  return encoding === 'UTF-8-BOM' ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
}

export function decodeText(bytes: Buffer, encoding: BankLayout['encoding']): string {
  const text = iconv.decode(bytes, ENCODING_NAME[encoding]);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Does the text survive the encoding (GBK lacks many rare name characters that GB18030 has)? */
export function encodable(text: string, encoding: BankLayout['encoding']): boolean {
  return iconv.decode(iconv.encode(text, ENCODING_NAME[encoding]), ENCODING_NAME[encoding]) === text;
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

function cellText(col: BankColumn, row: PayoutFileRow, layout: BankLayout): string {
  return col.field ? fieldValue(col.field, row, layout, col.amountUnit ?? 'yuan') : (col.value ?? '');
}

/** Pads a value to `width` bytes of the encoding; null when it does not fit. */
function padTo(text: string, col: BankColumn, encoding: BankLayout['encoding']): string | null {
  const width = col.width ?? 0;
  const used = iconv.encode(text, ENCODING_NAME[encoding]).length;
  if (used > width) return null;
  const fill = (col.pad ?? ' ').repeat(width - used);
  return (col.align ?? 'left') === 'right' ? fill + text : text + fill;
}

/** CSV quoting (RFC 4180) of a value that holds the delimiter, a quote or a line break. */
function quoteCsv(text: string, delimiter: string): string {
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The problems writing would meet; an empty list means the file can be written as the template says. */
export function checkCells(layout: BankLayout, rows: readonly PayoutFileRow[]): CellProblem[] {
  const problems: CellProblem[] = [];
  const spreadsheet = layout.fileType === 'xls' || layout.fileType === 'xlsx';
  for (const row of rows) {
    for (const col of layout.columns) {
      const text = cellText(col, row, layout);
      if (!spreadsheet && !encodable(text, layout.encoding)) problems.push({ seq: row.seq, column: col.title, reason: 'notEncodable' });
      else if (!spreadsheet && !layout.delimiter && padTo(text, col, layout.encoding) === null) problems.push({ seq: row.seq, column: col.title, reason: 'tooWide' });
    }
  }
  return problems;
}

/** The file's text (txt/csv): header lines, the title row, one line per payee, trailer lines; CRLF after each. */
export function payoutText(layout: BankLayout, batch: PayoutFileBatch, rows: readonly PayoutFileRow[]): string {
  const lines: string[] = layout.headerLines.map((l) => fillPlaceholders(l, layout, batch));
  const join = (cells: string[]) => cells.join(layout.delimiter);
  const csv = layout.fileType === 'csv' && layout.delimiter;
  const cell = (text: string, col: BankColumn) => {
    if (csv) return quoteCsv(text, layout.delimiter);
    if (!layout.delimiter) return padTo(text, col, layout.encoding) ?? text;
    return text;
  };
  if (layout.titleRow) lines.push(join(layout.columns.map((c) => cell(c.title, c))));
  for (const row of rows) lines.push(join(layout.columns.map((c) => cell(cellText(c, row, layout), c))));
  for (const l of layout.trailerLines) lines.push(fillPlaceholders(l, layout, batch));
  return lines.map((l) => `${l}\r\n`).join('');
}

/** A fixed moment for the workbook's properties, so the same batch always gives the same bytes. */
const FIXED_CREATED = new Date(Date.UTC(2000, 0, 1));

function payoutWorkbook(layout: BankLayout, batch: PayoutFileBatch, rows: readonly PayoutFileRow[]): Buffer {
  const aoa: (string | number)[][] = [];
  for (const l of layout.headerLines) {
    const filled = fillPlaceholders(l, layout, batch);
    aoa.push(layout.delimiter ? filled.split(layout.delimiter) : [filled]);
  }
  if (layout.titleRow) aoa.push(layout.columns.map((c) => c.title));
  const firstData = aoa.length;
  for (const row of rows) {
    aoa.push(
      layout.columns.map((c) => {
        // the amount is the one number: 2 decimals exactly (a cell showing 2 but holding 3 breaks ICBC's batch total)
        if (c.field === 'amount') return (c.amountUnit ?? 'yuan') === 'fen' ? row.amountFen : Number(fenText(row.amountFen));
        return cellText(c, row, layout);
      }),
    );
  }
  for (const l of layout.trailerLines) {
    const filled = fillPlaceholders(l, layout, batch);
    aoa.push(layout.delimiter ? filled.split(layout.delimiter) : [filled]);
  }
  const sheet = sheetJs().utils.aoa_to_sheet(aoa);
  const amountCol = layout.columns.findIndex((c) => c.field === 'amount' && (c.amountUnit ?? 'yuan') === 'yuan');
  if (amountCol >= 0) {
    for (let r = firstData; r < firstData + rows.length; r++) {
      const cell = sheet[sheetJs().utils.encode_cell({ r, c: amountCol })];
      if (cell) cell.z = '0.00';
    }
  }
  const wb = sheetJs().utils.book_new();
  wb.Props = { CreatedDate: FIXED_CREATED, ModifiedDate: FIXED_CREATED };
  sheetJs().utils.book_append_sheet(wb, sheet, 'Sheet1');
  return sheetJs().write(wb, { type: 'buffer', bookType: layout.fileType === 'xls' ? 'biff8' : 'xlsx', compression: true }) as Buffer;
}

/** The file's bytes and its extension. */
export function writePayoutFile(layout: BankLayout, batch: PayoutFileBatch, rows: readonly PayoutFileRow[]): { bytes: Buffer; extension: string } {
  if (layout.fileType === 'xls' || layout.fileType === 'xlsx') return { bytes: payoutWorkbook(layout, batch, rows), extension: layout.fileType };
  return { bytes: encodeText(payoutText(layout, batch, rows), layout.encoding), extension: layout.fileType };
}

/** The file name from the template's pattern (placeholders filled, characters a file system refuses dropped). */
export function payoutFileName(layout: BankLayout, batch: PayoutFileBatch, extension: string): string {
  const base = fillPlaceholders(layout.fileNamePattern, layout, batch).replace(/[\\/:*?"<>|\r\n]/g, '_');
  return `${base}.${extension}`;
}
