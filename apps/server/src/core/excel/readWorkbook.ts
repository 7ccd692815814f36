import { readWithSheetJs } from './readXls.ts';
import { readXlsx } from './readXlsx.ts';
import { type WorkbookRows, WorkbookFormatError } from './types.ts';
import { ZipFormatError, ZipLimitError } from './zip.ts';

const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** The workbook format by magic bytes (never by file name): OLE compound file = xls, ZIP = xlsx. */
export function sniffExcelFormat(buf: Buffer): 'xls' | 'xlsx' | null {
  if (buf.length >= 8 && buf.subarray(0, 8).equals(OLE_MAGIC)) return 'xls';
  if (buf.length >= 4 && buf.subarray(0, 4).equals(ZIP_MAGIC)) return 'xlsx';
  return null;
}

/** Open the first visible worksheet of an uploaded workbook, or throw WorkbookFormatError with a user message. */
export function openWorkbook(buf: Buffer): WorkbookRows {
  const format = sniffExcelFormat(buf);
  // FILE_NOT_EXCEL: the one message for "this upload is not an Excel workbook" (spec §5)
  if (!format) throw new WorkbookFormatError('FILE_NOT_EXCEL');
  if (format === 'xls') return readWithSheetJs(buf, 'xls');
  try {
    return readXlsx(buf);
  } catch (err) {
    if (err instanceof ZipLimitError) throw new WorkbookFormatError(err.code, err.params);
    if (err instanceof ZipFormatError) throw new WorkbookFormatError('FILE_NOT_EXCEL');
    if (err instanceof WorkbookFormatError) throw err.code === 'FILE_NOT_WORKBOOK' ? new WorkbookFormatError('FILE_NOT_EXCEL') : err;
    throw new WorkbookFormatError('FILE_CORRUPT');
  }
}
