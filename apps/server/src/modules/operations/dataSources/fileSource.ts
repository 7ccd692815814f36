import type { Readable } from 'node:stream';
import iconv from 'iconv-lite';
import { cellText, digitLossMessage, exactNumberText, excelSerialToDate, isEmptyCell, parseDateText } from '../../../core/excel/cells.ts';
import { serialTimeOfDay } from '../../../core/excel/dateStyles.ts';
import { openWorkbook } from '../../../core/excel/readWorkbook.ts';
import { type CellValue, type SheetRow, WorkbookFormatError } from '../../../core/excel/types.ts';
import { AppError, appErrorOf } from '../../../core/errors.ts';
import { CsvParser } from './csvParser.ts';
import { type CharacterEncoding, type DataSourceReader, ICONV_NAME, type OpenOptions } from './types.ts';

/**
 * Uploaded files as data sources. A CSV is decoded in the declared encoding chunk by chunk (iconv-lite) and
 * parsed incrementally, so its rows stream; a wrong encoding is caught instead of producing mojibake: bytes the
 * declared encoding cannot decode, a UTF-8 file declared as GBK (valid UTF-8 with Chinese text is almost never
 * GBK), a GBK file declared as UTF-8, a non-UTF-16 file declared as UNICODE. Workbooks go through the
 * project's hardened Excel reader (core/excel: bomb limits, .xls in a child process) and its numeric-ID rule:
 * a number cell of 16 or more digits lost its last digits in Excel and is refused, not passed on as a wrong ID.
 * The first row must be a header (column names); a data row in its place is refused with the reason.
 */

/** Rows searched for the header below title rows in a workbook (as the imports do). */
const HEADER_SEARCH_ROWS = 20;
/** Bytes inspected for the encoding checks that need a sample. */
const SNIFF_BYTES = 64 * 1024;

const wrongEncoding = (encoding: CharacterEncoding, detail: string) => new AppError('DATASOURCE_FILE_ENCODING', { encoding, detail });
const noHeader = (detail: string) => new AppError('DATASOURCE_NO_HEADER', { detail });

const NUMBER_TEXT = /^[+-]?\d+(\.\d+)?$/;
const ID_TEXT = /^\d{15}(\d{2}[\dXx])?$/;

/**
 * The header of a source: every column named, no name twice, no name that is plainly a value (a number, a
 * date, an ID card): such a row is data, and the file has no header.
 */
export function checkHeader(names: string[], where: string): string[] {
  if (!names.length) throw noHeader(`${where}没有列名`);
  const seen = new Set<string>();
  names.forEach((n, i) => {
    const col = `第${i + 1}列`;
    if (!n) throw noHeader(`${where}${col}的列名为空`);
    if (NUMBER_TEXT.test(n) || ID_TEXT.test(n) || parseDateText(n)) throw noHeader(`${where}${col}“${n}”是数据而不是列名，请在第一行填写列名`);
    if (seen.has(n)) throw noHeader(`列名“${n}”重复出现`);
    seen.add(n);
  });
  return names;
}

/** Is `buf` (a prefix of a file, possibly cut inside a character) valid UTF-8 with some non-ASCII text? */
function looksLikeUtf8Text(buf: Buffer): boolean {
  if (!buf.some((b) => b >= 0x80)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buf, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** Checks the first bytes against the declared encoding; throws the user's message when they disagree. */
function checkEncodingSample(sample: Buffer, encoding: CharacterEncoding): void {
  const utf8Bom = sample.length >= 3 && sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf;
  const utf16Bom = sample.length >= 2 && ((sample[0] === 0xff && sample[1] === 0xfe) || (sample[0] === 0xfe && sample[1] === 0xff));
  if (encoding === 'UNICODE') {
    if (!utf16Bom && !sample.subarray(0, 200).includes(0)) throw wrongEncoding(encoding, '文件不是 UTF-16（UNICODE）编码，请选择 UTF-8 或 GBK 等编码');
    return;
  }
  if (utf16Bom || sample.subarray(0, 200).includes(0)) throw wrongEncoding(encoding, '文件是 UTF-16（UNICODE）编码，请选择 UNICODE');
  if (encoding === 'UTF-8') {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    } catch {
      throw wrongEncoding(encoding, '文件不是 UTF-8 编码，可能是 GBK 或 GB18030，请选择正确的字符编码');
    }
    return;
  }
  if (encoding === 'ASCII') {
    if (sample.some((b) => b >= 0x80)) throw wrongEncoding(encoding, '文件中有非 ASCII 字符（如中文），请选择 UTF-8 或 GBK 等编码');
    return;
  }
  // GBK, GB2312, GB18030, ANSI
  if (utf8Bom || looksLikeUtf8Text(sample)) throw wrongEncoding(encoding, '文件是 UTF-8 编码，请选择 UTF-8');
}

/** Decoded text of a byte stream, chunk by chunk, refusing undecodable bytes. */
async function* decodeChunks(source: AsyncIterable<Buffer>, encoding: CharacterEncoding, signal?: AbortSignal): AsyncGenerator<string> {
  const decoder = iconv.getDecoder(ICONV_NAME[encoding], { stripBOM: true });
  let sample: Buffer | undefined = Buffer.alloc(0);
  const held: Buffer[] = [];
  const emit = (buf: Buffer): string => {
    const text = decoder.write(buf);
    if (text.includes('\uFFFD')) throw wrongEncoding(encoding, `文件中有无法按 ${encoding} 解码的字节，请选择正确的字符编码`);
    return text;
  };
  for await (const chunk of source) {
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    if (sample) {
      // hold the first bytes until the sample is big enough to judge the encoding
      held.push(buf);
      sample = Buffer.concat([sample, buf]);
      if (sample.length < SNIFF_BYTES) continue;
      checkEncodingSample(sample, encoding);
      sample = undefined;
      for (const b of held.splice(0)) yield emit(b);
      continue;
    }
    yield emit(buf);
  }
  if (sample) {
    checkEncodingSample(sample, encoding);
    for (const b of held.splice(0)) yield emit(b);
  }
  const rest = decoder.end();
  if (rest) {
    if (rest.includes('\uFFFD')) throw wrongEncoding(encoding, `文件末尾有无法按 ${encoding} 解码的字节`);
    yield rest;
  }
}

/** CSV records (non-empty ones), with the line each started on. */
async function* csvRecords(source: AsyncIterable<Buffer>, encoding: CharacterEncoding, signal?: AbortSignal): AsyncGenerator<{ line: number; cells: string[] }> {
  const parser = new CsvParser();
  const nonEmpty = (r: { cells: string[] }) => r.cells.some((c) => c.trim() !== '');
  try {
    for await (const text of decodeChunks(source, encoding, signal)) for (const r of parser.push(text)) if (nonEmpty(r)) yield r;
    for (const r of parser.finish()) if (nonEmpty(r)) yield r;
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (signal?.aborted) throw err;
    throw new AppError('DATASOURCE_READ_FAILED', { detail: (err as Error).message });
  }
}

/** A CSV file as a source: header from its first non-empty line, rows streamed as text values. */
export async function openCsvRead(stream: Readable, encoding: CharacterEncoding, opts: OpenOptions = {}): Promise<DataSourceReader> {
  const records = csvRecords(stream as AsyncIterable<Buffer>, encoding, opts.signal);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await records.return(undefined).catch(() => undefined);
    stream.destroy();
  };
  let fields: string[];
  try {
    const first = await records.next();
    if (first.done) throw new AppError('FILE_NO_DATA', {});
    fields = checkHeader(
      first.value.cells.map((c) => c.trim()),
      `第${first.value.line}行（表头）`,
    );
  } catch (err) {
    await close();
    throw err;
  }
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  async function* rows(): AsyncGenerator<Record<string, unknown>> {
    let count = 0;
    try {
      for await (const r of records) {
        if (count++ >= limit) return;
        const row: Record<string, unknown> = {};
        for (let i = 0; i < fields.length; i++) {
          const v = r.cells[i];
          row[fields[i]] = v === undefined || v.trim() === '' ? null : v.trim();
        }
        yield row;
      }
    } finally {
      await close();
    }
  }
  return { fields, rows: rows(), close };
}

function excelError(err: unknown): unknown {
  if (err instanceof WorkbookFormatError) return appErrorOf(err);
  return err;
}

/**
 * A cell as a row value: text trimmed, numbers kept (refused when Excel lost digits), empty as null. A number
 * the workbook formats as a date is the date as ISO text (yyyy-MM-dd, with " HH:mm:ss" when it has a time of
 * day), as a client reading the sheet sees it, not Excel's serial number (M6).
 */
function cellValue(cell: CellValue | undefined, label: string, row: number, date?: { date1904: boolean }): unknown {
  if (cell === undefined || isEmptyCell(cell)) return null;
  if (typeof cell === 'number' && date) {
    const day = excelSerialToDate(cell, date.date1904);
    if (day !== null) {
      const time = serialTimeOfDay(cell);
      return time ? `${day} ${time}` : day;
    }
  }
  if (typeof cell === 'number') {
    if (Number.isInteger(cell) && exactNumberText(cell) === null) throw new AppError('DATASOURCE_FILE_ROW', { row, detail: digitLossMessage(label) });
    return cell;
  }
  if (typeof cell === 'boolean') return cell;
  return cellText(cell);
}

/** The first worksheet of an .xls/.xlsx upload as a source; a title row above the header is skipped. */
export async function openExcelRead(buf: Buffer, opts: OpenOptions = {}): Promise<DataSourceReader> {
  let book: ReturnType<typeof openWorkbook>;
  try {
    book = openWorkbook(buf);
  } catch (err) {
    throw excelError(err);
  }
  const iterator = book.rows[Symbol.asyncIterator]();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await iterator.return?.(undefined).catch(() => undefined);
  };
  // The header is the first non-empty row, unless that row holds a single cell (a title such as
  // "2026年3月员工花名册") and a later row within the first rows holds more: then that one.
  const buffered: SheetRow[] = [];
  let header: SheetRow | undefined;
  try {
    const filled = (r: SheetRow) => r.cells.filter((c) => !isEmptyCell(c)).length;
    for (let n = await iterator.next(); !n.done; n = await iterator.next()) {
      if (filled(n.value) === 0) continue;
      buffered.push(n.value);
      if (filled(n.value) > 1 || n.value.row > HEADER_SEARCH_ROWS) break;
    }
    header = buffered.find((r) => filled(r) > 1) ?? buffered[0];
    if (!header) throw new AppError('FILE_NO_DATA', {});
  } catch (err) {
    await close();
    throw excelError(err);
  }
  const headerCells = header.cells;
  let width = headerCells.length;
  while (width > 0 && isEmptyCell(headerCells[width - 1])) width--;
  let fields: string[];
  try {
    fields = checkHeader(
      headerCells.slice(0, width).map((c) => cellText(c ?? null)),
      `第${header.row}行（表头）`,
    );
  } catch (err) {
    await close();
    throw err;
  }
  const afterHeader = buffered.slice(buffered.indexOf(header) + 1);
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  async function* rows(): AsyncGenerator<Record<string, unknown>> {
    let count = 0;
    const toRow = (r: SheetRow) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i++) row[fields[i]] = cellValue(r.cells[i], fields[i], r.row, r.dates?.includes(i) ? book : undefined);
      return row;
    };
    try {
      for (const r of afterHeader) {
        if (count++ >= limit) return;
        yield toRow(r);
      }
      for (let n = await iterator.next(); !n.done; n = await iterator.next()) {
        if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('aborted');
        if (!n.value.cells.some((c) => !isEmptyCell(c))) continue;
        if (count++ >= limit) return;
        yield toRow(n.value);
      }
    } catch (err) {
      throw excelError(err);
    } finally {
      await close();
    }
  }
  return { fields, rows: rows(), close };
}
