import iconv from 'iconv-lite';
import { writeBiff8Fast } from './biff8Cells.ts';
import { sheetJs } from './sheetJs.ts';

/**
 * One writer for the files an office hands to an outside system in that system's layout (bank payroll files,
 * issue 23; the social-insurance and housing-fund 增减员 lists, issue 24): a template as data says the file type,
 * the encoding, the delimiter, the lines above and below the table and each column's title and width; the caller
 * hands the cells. Byte-exact: text files are built as one string and encoded once (GBK, GB18030, UTF-8 with or
 * without BOM), lines end in CRLF as the Windows clients of banks and bureaus expect; spreadsheets keep every value
 * as text except the cells the caller marks as numbers. Pure: no database.
 */

export type LayoutFileType = 'xls' | 'xlsx' | 'txt' | 'csv';
export type LayoutEncoding = 'GBK' | 'GB18030' | 'UTF-8' | 'UTF-8-BOM';

export interface LayoutColumn {
  title: string;
  /** fixed-width text files: the column's width in bytes of the file's encoding (a GBK character counts 2) */
  width?: number;
  align?: 'left' | 'right';
  /** the padding character of a fixed-width column (space unless stated) */
  pad?: string;
}

export interface LayoutFileSpec {
  fileType: LayoutFileType;
  encoding: LayoutEncoding;
  /** between the columns of txt/csv (may be several characters); empty: fixed-width columns */
  delimiter: string;
  titleRow: boolean;
  /** lines above the title row and below the table, placeholders already filled */
  headerLines: string[];
  trailerLines: string[];
  columns: LayoutColumn[];
}

/** A cell: text, or a number written as a number in spreadsheets (with its display format) and as `text` in text files. */
export type LayoutCell = string | { number: number; text: string; format?: string };

/** A cell that cannot be written as the template says: its row (0-based) and column title, and why. */
export interface LayoutCellProblem {
  row: number;
  column: string;
  reason: 'tooWide' | 'notEncodable';
}

const ENCODING_NAME: Record<LayoutEncoding, string> = { GBK: 'gbk', GB18030: 'gb18030', 'UTF-8': 'utf8', 'UTF-8-BOM': 'utf8' };

export function encodeText(text: string, encoding: LayoutEncoding): Buffer {
  const body = iconv.encode(text, ENCODING_NAME[encoding]);
  return encoding === 'UTF-8-BOM' ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
}

export function decodeText(bytes: Buffer, encoding: LayoutEncoding): string {
  const text = iconv.decode(bytes, ENCODING_NAME[encoding]);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Does the text survive the encoding (GBK lacks many rare name characters that GB18030 has)? */
export function encodable(text: string, encoding: LayoutEncoding): boolean {
  return iconv.decode(iconv.encode(text, ENCODING_NAME[encoding]), ENCODING_NAME[encoding]) === text;
}

const textOf = (c: LayoutCell): string => (typeof c === 'string' ? c : c.text);
const isSpreadsheet = (spec: LayoutFileSpec) => spec.fileType === 'xls' || spec.fileType === 'xlsx';

/** Pads a value to `width` bytes of the encoding; null when it does not fit. */
function padTo(text: string, col: LayoutColumn, encoding: LayoutEncoding): string | null {
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
export function checkLayoutCells(spec: LayoutFileSpec, rows: readonly LayoutCell[][]): LayoutCellProblem[] {
  if (isSpreadsheet(spec)) return [];
  const problems: LayoutCellProblem[] = [];
  rows.forEach((cells, row) => {
    spec.columns.forEach((col, i) => {
      const text = textOf(cells[i] ?? '');
      if (!encodable(text, spec.encoding)) problems.push({ row, column: col.title, reason: 'notEncodable' });
      else if (!spec.delimiter && padTo(text, col, spec.encoding) === null) problems.push({ row, column: col.title, reason: 'tooWide' });
    });
  });
  return problems;
}

/** The file's text (txt/csv): header lines, the title row, one line per row, trailer lines; CRLF after each. */
export function layoutText(spec: LayoutFileSpec, rows: readonly LayoutCell[][]): string {
  const lines: string[] = [...spec.headerLines];
  const join = (cells: string[]) => cells.join(spec.delimiter);
  const csv = spec.fileType === 'csv' && spec.delimiter;
  const cell = (text: string, col: LayoutColumn) => {
    if (csv) return quoteCsv(text, spec.delimiter);
    if (!spec.delimiter) return padTo(text, col, spec.encoding) ?? text;
    return text;
  };
  if (spec.titleRow) lines.push(join(spec.columns.map((c) => cell(c.title, c))));
  for (const cells of rows) lines.push(join(spec.columns.map((c, i) => cell(textOf(cells[i] ?? ''), c))));
  lines.push(...spec.trailerLines);
  return lines.map((l) => `${l}\r\n`).join('');
}

/** A fixed moment for the workbook's properties, so the same rows always give the same bytes. */
const FIXED_CREATED = new Date(Date.UTC(2000, 0, 1));

function layoutWorkbook(spec: LayoutFileSpec, rows: readonly LayoutCell[][], sheetName: string): Buffer {
  const X = sheetJs();
  const aoa: (string | number)[][] = [];
  const freeLine = (l: string) => (spec.delimiter ? l.split(spec.delimiter) : [l]);
  for (const l of spec.headerLines) aoa.push(freeLine(l));
  if (spec.titleRow) aoa.push(spec.columns.map((c) => c.title));
  const firstData = aoa.length;
  for (const cells of rows) aoa.push(spec.columns.map((_, i) => {
    const c = cells[i] ?? '';
    return typeof c === 'string' ? c : c.number;
  }));
  for (const l of spec.trailerLines) aoa.push(freeLine(l));
  const props = { CreatedDate: FIXED_CREATED, ModifiedDate: FIXED_CREATED };
  const formatOf = (r: number, col: number): string | undefined => {
    const c = r >= firstData ? rows[r - firstData]?.[col] : undefined;
    return c === undefined || typeof c === 'string' ? undefined : c.format || undefined;
  };
  if (spec.fileType === 'xls') {
    const bytes = writeBiff8Fast(aoa, formatOf, props, sheetName);
    if (bytes) return bytes;
  }
  const sheet = X.utils.aoa_to_sheet(aoa);
  rows.forEach((cells, r) => {
    cells.forEach((c, col) => {
      if (typeof c === 'string' || !c.format) return;
      const cell = sheet[X.utils.encode_cell({ r: firstData + r, c: col })];
      if (cell) cell.z = c.format;
    });
  });
  const wb = X.utils.book_new();
  wb.Props = props;
  X.utils.book_append_sheet(wb, sheet, sheetName);
  return X.write(wb, { type: 'buffer', bookType: spec.fileType === 'xls' ? 'biff8' : 'xlsx', compression: true }) as Buffer;
}

/** The file's bytes and its extension. */
export function writeLayoutFile(spec: LayoutFileSpec, rows: readonly LayoutCell[][], sheetName = 'Sheet1'): { bytes: Buffer; extension: string } {
  if (isSpreadsheet(spec)) return { bytes: layoutWorkbook(spec, rows, sheetName), extension: spec.fileType };
  return { bytes: encodeText(layoutText(spec, rows), spec.encoding), extension: spec.fileType };
}

/** A file name from a base (characters a file system refuses replaced) and the extension. */
export function layoutFileName(base: string, extension: string): string {
  return `${base.replace(/[\\/:*?"<>|\r\n]/g, '_')}.${extension}`;
}

export const LAYOUT_MIME: Record<LayoutFileType, string> = {
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  txt: 'text/plain',
};
