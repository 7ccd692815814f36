import { yuanToFen } from '@app/shared/payroll';
import { CodedError } from '../../core/errors.ts';
import { cellText, isEmptyCell } from '../../core/excel/cells.ts';
import { findHeaderRow, HeaderNotFoundError } from '../../core/excel/findHeader.ts';
import { openWorkbook } from '../../core/excel/readWorkbook.ts';
import { type CellValue, WorkbookFormatError } from '../../core/excel/types.ts';

/**
 * Reads the first sheet of an uploaded workbook by its header texts (bureaus and clerks order and name columns their
 * own way): each column is known by any of its names, spaces and full-width brackets ignored; rows above the header
 * (titles) are skipped and every row keeps its Excel number. The content is checked, never the file name: a file that
 * is not a workbook, has no header naming the required columns, or has no data row is a {@link SheetError}.
 */

export interface SheetColumn<N extends string> {
  name: N;
  label: string;
  /** header texts that name the column (compared without spaces and with ASCII brackets) */
  aliases: readonly string[];
  required?: boolean;
}

/** Why a file cannot be read, as a catalogue message (the routes answer it as the reason of their own code). */
export class SheetError extends CodedError {}

/** The same reason as a SheetError: a reader's coded error (not a workbook, no header) passes its code on. */
const sheetErrorOf = (err: WorkbookFormatError | HeaderNotFoundError) => new SheetError(err.code, err.params);

export interface SheetLine<N extends string> {
  line: number;
  cells: Partial<Record<N, CellValue>>;
}

const fold = (s: string) => s.replace(/\s+/g, '').replace(/（/g, '(').replace(/）/g, ')').toLowerCase();

/** Stops reading beyond this many data rows (a month's statement of a large company is far below it). */
export const MAX_SHEET_ROWS = 50_000;

export async function readSheetByHeader<N extends string>(bytes: Buffer, columns: readonly SheetColumn<N>[]): Promise<SheetLine<N>[]> {
  let wb: ReturnType<typeof openWorkbook>;
  try {
    wb = openWorkbook(bytes);
    await wb.verify?.();
  } catch (err) {
    if (err instanceof WorkbookFormatError) throw sheetErrorOf(err);
    throw err;
  }
  const byAlias = new Map<string, SheetColumn<N>>();
  for (const c of columns) for (const a of c.aliases) byAlias.set(fold(a), c);
  const iterator = wb.rows[Symbol.asyncIterator]();
  let header: Awaited<ReturnType<typeof findHeaderRow>>;
  try {
    header = await findHeaderRow(iterator, (text) => byAlias.get(fold(text)), columns.filter((c) => c.required));
  } catch (err) {
    if (err instanceof HeaderNotFoundError || err instanceof WorkbookFormatError) throw sheetErrorOf(err);
    throw err;
  }
  const positions: [number, N][] = [];
  const seen = new Set<N>();
  header.cells.forEach((c, i) => {
    const col = byAlias.get(fold(cellText(c ?? null)));
    if (col && !seen.has(col.name)) {
      seen.add(col.name);
      positions.push([i, col.name]);
    }
  });
  const out: SheetLine<N>[] = [];
  try {
    for (let n = await iterator.next(); !n.done; n = await iterator.next()) {
      const r = n.value;
      if (!r.cells.some((c) => !isEmptyCell(c))) continue;
      if (out.length >= MAX_SHEET_ROWS) throw new SheetError('SIADJUST_SHEET_TOO_MANY_ROWS', { max: MAX_SHEET_ROWS });
      const cells: Partial<Record<N, CellValue>> = {};
      for (const [i, name] of positions) cells[name] = r.cells[i] ?? null;
      out.push({ line: r.row, cells });
    }
  } catch (err) {
    if (err instanceof WorkbookFormatError) throw sheetErrorOf(err);
    throw err;
  }
  if (!out.length) throw new SheetError('SIADJUST_SHEET_NO_ROWS');
  return out;
}

/** A money cell (yuan, at most two decimals; 1,234.50 accepted) as fen; null when empty; undefined when not money. */
export function moneyCell(c: CellValue | undefined): number | null | undefined {
  if (isEmptyCell(c)) return null;
  const text = cellText(c ?? null).replace(/[,，]/g, '');
  try {
    return yuanToFen(text);
  } catch {
    return undefined;
  }
}

/** An ID card cell, trimmed and upper-cased; '' when empty. */
export const idCardCell = (c: CellValue | undefined): string => cellText(c ?? null).replace(/\s+/g, '').toUpperCase();
export const textCell = (c: CellValue | undefined): string => cellText(c ?? null).trim();
