import { normalizeItsHeader } from '@app/shared/iit/itsLayouts';
import { yuanToFen } from '@app/shared/payroll';
import { AppError } from '../../core/errors.ts';
import { cellText, cleanAmountText, excelSerialToDate, isEmptyCell, parseDateText } from '../../core/excel/cells.ts';
import { findHeaderRow, HeaderNotFoundError } from '../../core/excel/findHeader.ts';
import { openWorkbook } from '../../core/excel/readWorkbook.ts';
import { type CellValue, WorkbookFormatError } from '../../core/excel/types.ts';
import { normId } from './agent.ts';

/**
 * A file exported by ITS (算税结果, 人员信息): xls or xlsx by its bytes, the header row anywhere in the first 20 rows,
 * columns found by their header text (ITS inserts columns between versions, e.g. 累计个人养老金 in Dec 2022, so a
 * position means nothing). Every failure is a 400 naming the row and the reason.
 */
export interface ItsField {
  name: string;
  /** the header as the message names it */
  label: string;
  /** header texts that mean this column, compared without brackets' width, spaces and `*` */
  headers: string[];
  required?: boolean;
}

export interface ItsLine {
  line: number;
  cell: (name: string) => CellValue;
}

export const MAX_ITS_ROWS = 200_000;

export async function readItsFile(data: Buffer, fields: ItsField[]): Promise<ItsLine[]> {
  const byHeader = new Map<string, ItsField>();
  for (const f of fields) for (const h of f.headers) byHeader.set(normalizeItsHeader(h), f);
  const fieldOf = (text: string) => byHeader.get(normalizeItsHeader(text));
  let wb: ReturnType<typeof openWorkbook>;
  try {
    wb = openWorkbook(data);
    await wb.verify?.();
  } catch (err) {
    if (err instanceof WorkbookFormatError) throw new AppError('IIT_FILE_UNREADABLE', { reason: { code: err.code, params: err.params } });
    throw err;
  }
  const iterator = wb.rows[Symbol.asyncIterator]();
  let header: Awaited<ReturnType<typeof findHeaderRow>>;
  try {
    header = await findHeaderRow(iterator, fieldOf, fields.filter((f) => f.required));
  } catch (err) {
    if (err instanceof HeaderNotFoundError) {
      throw new AppError('IIT_FILE_HEADERS', { columns: { list: fields.filter((f) => f.required).map((f) => f.label), joiner: 'enumeration' } });
    }
    if (err instanceof WorkbookFormatError) throw new AppError('IIT_FILE_UNREADABLE', { reason: { code: err.code, params: err.params } });
    throw err;
  }
  const columnOf = new Map<string, number>();
  header.cells.forEach((c, i) => {
    const f = fieldOf(cellText(c ?? null));
    if (f && !columnOf.has(f.name)) columnOf.set(f.name, i);
  });
  const out: ItsLine[] = [];
  try {
    for (let n = await iterator.next(); !n.done; n = await iterator.next()) {
      const r = n.value;
      if (!r.cells.some((c) => !isEmptyCell(c))) continue;
      if (out.length >= MAX_ITS_ROWS) throw new AppError('IIT_FILE_TOO_MANY', { max: MAX_ITS_ROWS });
      out.push({ line: r.row, cell: (name) => (columnOf.has(name) ? (r.cells[columnOf.get(name) as number] ?? null) : null) });
    }
  } catch (err) {
    if (err instanceof WorkbookFormatError) throw new AppError('IIT_FILE_UNREADABLE', { reason: { code: err.code, params: err.params } });
    throw err;
  }
  return out;
}

/** An ID number cell: text as typed; a number means Excel already lost digits of an 18-digit card. */
export function idCell(l: ItsLine, name: string): string {
  const c = l.cell(name);
  if (typeof c === 'number') {
    if (String(c).length > 15 || !Number.isInteger(c)) throw new AppError('IIT_FILE_ROW', { row: l.line, reason: { code: 'IIT_LINE_ID_AS_NUMBER' } });
    return String(c);
  }
  return normId(cellText(c));
}

/** An amount cell in fen: blank is 0; "1,234.50", "¥12" and numbers are read; more than 2 decimals is refused. */
export function amountCell(l: ItsLine, name: string, label: string): number {
  const c = l.cell(name);
  if (isEmptyCell(c)) return 0;
  const text = typeof c === 'number' ? c : cleanAmountText(cellText(c));
  try {
    return yuanToFen(text, label);
  } catch {
    throw new AppError('IIT_FILE_ROW', { row: l.line, reason: { code: 'IIT_LINE_NOT_AMOUNT', params: { label, value: cellText(c) } } });
  }
}

/** A date cell as YYYY-MM-DD (Excel serials and the usual text forms), '' when blank. */
export function dateCell(l: ItsLine, name: string, label: string): string {
  const c = l.cell(name);
  if (isEmptyCell(c)) return '';
  const d = typeof c === 'number' ? excelSerialToDate(c) : parseDateText(cellText(c));
  if (!d) throw new AppError('IIT_FILE_ROW', { row: l.line, reason: { code: 'IIT_LINE_NOT_DATE', params: { label, value: cellText(c) } } });
  return d;
}
