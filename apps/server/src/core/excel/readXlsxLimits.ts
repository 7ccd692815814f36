import { WorkbookFormatError } from './types.ts';
import { ZipLimitError } from './zip.ts';

/**
 * The ceilings of the .xlsx reader (readXlsx.ts) and their messages. An upload is hostile until proven otherwise: each
 * part has a ceiling on its inflated size (below zip.ts's limits for the whole archive); while parsing, a token (one
 * text, tag or comment), a row, a cell, the column count and the element depth are capped.
 */

export const MiB = 1024 * 1024;
/** workbook.xml, relationships: a few KB in real files. */
export const MAX_XML_PART_BYTES = 16 * MiB;
/** The shared-string table, held in memory while the sheet is read (100,000 staff rows: about 20 MB). */
export const MAX_SHARED_STRINGS_BYTES = 128 * MiB;
/** The worksheet, streamed (100,000 staff rows: 120 MB with inline strings). */
export const MAX_SHEET_BYTES = 512 * MiB;
/** Excel's own limits: characters in a cell, columns in a sheet. */
export const MAX_CELL_CHARS = 32_767;
export const MAX_COLUMNS = 16_384;
/** One row of sheet XML, in bytes (16,384 numbers are about 0.5 MB; 80 cells of Excel's longest Chinese text, 8 MB). */
export const MAX_ROW_BYTES = 8 * MiB;
/** Bytes without a '<', or without any parse event: a single text or markup token that long is no cell. */
export const MAX_TOKEN_BYTES = MiB;
/** Element nesting (SpreadsheetML needs about ten levels). */
export const MAX_DEPTH = 100;
/** Bytes of XML given to the parser at a time. */
export const CHUNK_BYTES = 128 * 1024;
export const cellTooLong = (row: number) => new WorkbookFormatError('FILE_LIMIT_CELL_CHARS', { row, max: MAX_CELL_CHARS });
export const rowTooLong = (row: number) => new WorkbookFormatError('FILE_LIMIT_ROW_BYTES', { row, max: MAX_ROW_BYTES / MiB });
export const tokenTooLong = (part = '工作表') => new WorkbookFormatError('FILE_LIMIT_TOKEN', { part, max: MAX_TOKEN_BYTES / MiB });

/** A zip/zlib/XML failure as the user's message: limits keep theirs, anything else is a damaged file. */
export function asWorkbookError(err: unknown): unknown {
  if (err instanceof WorkbookFormatError) return err;
  if (err instanceof ZipLimitError) return new WorkbookFormatError(err.code, err.params);
  return new WorkbookFormatError('FILE_CORRUPT');
}
