import { CodedError } from '../errors.ts';
/** What the workbook readers give the import pipeline, whatever the file format. */

/** A cell as read: text, number (dates are serial numbers unless the file stores ISO text), boolean or empty. */
export type CellValue = string | number | boolean | null;

/** One worksheet row: its 1-based Excel row number and cells by 0-based column (trailing empties omitted). */
export interface SheetRow {
  row: number;
  cells: CellValue[];
  /** Columns whose number is shown as a date by the cell's style (.xlsx only; absent when none). */
  dates?: number[];
}

/** The first worksheet of an uploaded workbook, read lazily row by row. */
export interface WorkbookRows {
  format: 'xls' | 'xlsx';
  sheetName: string;
  /** Serial dates count from 1904-01-01 (old Mac workbooks). */
  date1904: boolean;
  rows: AsyncIterable<SheetRow>;
  /** Check the file's integrity before its rows are used (throws WorkbookFormatError). */
  verify?: () => Promise<void>;
}

/** The upload is not a readable Excel workbook: a catalogue code (FILE_*) with its parameters, for the user. */
export class WorkbookFormatError extends CodedError {}
