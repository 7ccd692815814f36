import type { FastifyReply } from 'fastify';
import { PassThrough } from 'node:stream';
import zlib from 'node:zlib';
import { sendStream } from '../sendStream.ts';
import { attachmentDisposition, cellValue, type XlsxCellKind, XlsxFormula, type XlsxSheet } from './xlsxCells.ts';

/**
 * A lean streaming .xlsx writer for large exports, with the same input (`XlsxSheet`) and the same cell rules
 * as writeXlsx.ts (its `cellValue` coerces every cell; text columns carry the '@' format, data never becomes
 * a formula). It writes inline strings instead of a shared-string table and deflates the sheet as it goes,
 * so memory stays flat whatever the row count, and it is several times faster than ExcelJS's streaming
 * writer (100,000 staff rows: see bench/dispatch.ts). writeXlsx could delegate to it.
 */

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

// Style indexes in styles.xml below.
const STYLE: Record<XlsxCellKind | 'header', number> = { header: 1, text: 2, money: 3, ratio: 4, date: 5, datetime: 6, int: 0, number: 0, bool: 2 };

const STYLES_XML =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
  '<numFmts count="4"><numFmt numFmtId="164" formatCode="#,##0.00"/><numFmt numFmtId="165" formatCode="0.00####"/>' +
  '<numFmt numFmtId="166" formatCode="yyyy-mm-dd"/><numFmt numFmtId="167" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts>' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="7"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="49" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyNumberFormat="1"/>' +
  '<xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="167" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>';

const ROOT_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>';

const WORKBOOK_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
  '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>';

// XML 1.0 forbids most control characters; Excel escapes underscores that look like its own _xHHHH_ escapes.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the characters XML 1.0 forbids is the point
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const XML_SPECIAL = /[&<>"]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text as XML character data. */
export function escapeXmlText(s: string): string {
  let out = s;
  if (out.includes('_x')) out = out.replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1');
  out = out.replace(INVALID_XML, '');
  return XML_SPECIAL.test(out) ? out.replace(XML_SPECIAL, (c) => ESCAPES[c]) : out;
}

function columnLetters(n: number): string {
  let s = '';
  for (let x = n + 1; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}

function cellXml(ref: string, kind: XlsxCellKind, v: ReturnType<typeof cellValue>): string {
  if (v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? `<c r="${ref}" s="${STYLE[kind]}"><v>${v}</v></c>` : '';
  if (v instanceof Date) {
    const serial = (v.getTime() - EXCEL_EPOCH_MS) / 86_400_000;
    return `<c r="${ref}" s="${STYLE[kind]}"><v>${serial}</v></c>`;
  }
  if (typeof v === 'boolean') return `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
  const text = escapeXmlText(v);
  const space = text !== text.trim() ? ' xml:space="preserve"' : '';
  return `<c r="${ref}" s="${STYLE[kind] || STYLE.text}" t="inlineStr"><is><t${space}>${text}</t></is></c>`;
}

/** A server-written formula with its cached value (XlsxFormula; data values never reach here). */
function formulaXml(ref: string, kind: XlsxCellKind, f: XlsxFormula, column: string): string {
  const cached = Number.isFinite(f.cached) ? `<v>${f.cached}</v>` : '';
  return `<c r="${ref}" s="${STYLE[kind]}"><f>${escapeXmlText(f.formula(column))}</f>${cached}</c>`;
}

interface ZipRecord {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** A ZIP archive written forward to a stream; entries are deflated, sizes follow each entry (data descriptor). */
class ZipStreamWriter {
  private offset = 0;
  private records: ZipRecord[] = [];
  constructor(private out: NodeJS.WritableStream) {}

  private async write(buf: Buffer): Promise<void> {
    this.offset += buf.length;
    if (!this.out.write(buf)) await this.drained();
  }

  /**
   * The output can take more, or it was closed (a download the client abandoned): then this rejects, so the
   * producer stops and lets go of its rows instead of waiting for a 'drain' that never comes.
   */
  drained(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onDrain = () => {
        this.out.off('close', onClose);
        resolve();
      };
      const onClose = () => {
        this.out.off('drain', onDrain);
        reject(new Error('xlsx output closed before the workbook was complete'));
      };
      this.out.once('drain', onDrain);
      this.out.once('close', onClose);
    });
  }

  /** Add an entry whose content comes in string chunks. */
  async entry(name: string, chunks: AsyncIterable<string> | Iterable<string>): Promise<void> {
    const nameBuf = Buffer.from(name, 'utf8');
    const offset = this.offset;
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed
    header.writeUInt16LE(0x0808, 6); // data descriptor follows + UTF-8 names
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt32LE(0x00210000, 10); // DOS time/date 1980-01-01
    header.writeUInt16LE(nameBuf.length, 26);
    await this.write(Buffer.concat([header, nameBuf]));

    let crc = 0;
    let size = 0;
    let compressed = 0;
    const deflate = zlib.createDeflateRaw({ level: 6, memLevel: 9 });
    let waiting = false;
    // Compressed output goes straight on; when the consumer is slow, the deflater pauses, its input
    // buffer fills, and the producer below waits: back-pressure all the way to the database reads.
    deflate.on('data', (c: Buffer) => {
      compressed += c.length;
      this.offset += c.length;
      if (!this.out.write(c) && !waiting) {
        waiting = true;
        deflate.pause();
        this.drained().then(
          () => {
            waiting = false;
            deflate.resume();
          },
          (err: Error) => deflate.destroy(err),
        );
      }
    });
    const ended = new Promise<void>((resolve, reject) => {
      deflate.on('end', resolve);
      deflate.on('error', reject);
    });
    for await (const chunk of chunks) {
      const buf = Buffer.from(chunk, 'utf8');
      crc = zlib.crc32(buf, crc);
      size += buf.length;
      if (!deflate.write(buf)) await new Promise<void>((resolve) => deflate.once('drain', resolve));
    }
    deflate.end();
    await ended;
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(size, 12);
    await this.write(descriptor);
    this.records.push({ name: nameBuf, crc: crc >>> 0, compressed, size, offset });
  }

  /** Write the central directory. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const r of this.records) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(20, 4);
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(0x0808, 8);
      h.writeUInt16LE(8, 10);
      h.writeUInt32LE(0x00210000, 12);
      h.writeUInt32LE(r.crc, 16);
      h.writeUInt32LE(r.compressed, 20);
      h.writeUInt32LE(r.size, 24);
      h.writeUInt16LE(r.name.length, 28);
      h.writeUInt32LE(r.offset, 42);
      await this.write(Buffer.concat([h, r.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.records.length, 8);
    end.writeUInt16LE(this.records.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.write(end);
  }
}

async function* sheetXml<Row>(sheet: XlsxSheet<Row>): AsyncGenerator<string> {
  const kinds = sheet.columns.map((c) => c.kind ?? 'text');
  const letters = sheet.columns.map((_c, i) => columnLetters(i));
  let xml =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
    '<sheetFormatPr defaultRowHeight="15"/><cols>';
  sheet.columns.forEach((c, i) => {
    const width = c.width ?? Math.max(10, Math.min(40, c.header.length * 2 + 4));
    const style = STYLE[kinds[i]];
    xml += `<col min="${i + 1}" max="${i + 1}" width="${width}" customWidth="1"${style ? ` style="${style}"` : ''}/>`;
  });
  xml += '</cols><sheetData><row r="1">';
  sheet.columns.forEach((c, i) => {
    xml += `<c r="${letters[i]}1" s="${STYLE.header}" t="inlineStr"><is><t>${escapeXmlText(c.header)}</t></is></c>`;
  });
  xml += '</row>';
  let r = 1;
  for await (const row of sheet.rows) {
    r++;
    xml += `<row r="${r}">`;
    for (let i = 0; i < sheet.columns.length; i++) {
      const c = sheet.columns[i];
      const raw = c.value ? c.value(row) : c.key ? (row as Record<string, unknown>)[c.key] : null;
      xml += raw instanceof XlsxFormula ? formulaXml(`${letters[i]}${r}`, kinds[i], raw, letters[i]) : cellXml(`${letters[i]}${r}`, kinds[i], cellValue(kinds[i], raw));
    }
    xml += '</row>';
    if (xml.length > 256 * 1024) {
      yield xml;
      xml = '';
    }
  }
  yield `${xml}</sheetData></worksheet>`;
}

/** Write a one-sheet workbook to a stream (the stream is ended). */
export async function streamXlsx<Row>(out: NodeJS.WritableStream, sheet: XlsxSheet<Row>): Promise<void> {
  const zip = new ZipStreamWriter(out);
  const sheetName = escapeXmlText((sheet.sheetName ?? sheet.fileName).replace(/[\\/?*[\]:]/g, '_').slice(0, 31) || 'Sheet1');
  await zip.entry('[Content_Types].xml', [CONTENT_TYPES]);
  await zip.entry('_rels/.rels', [ROOT_RELS]);
  await zip.entry(
    'xl/workbook.xml',
    [
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
        `<sheets><sheet name="${sheetName}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
  );
  await zip.entry('xl/_rels/workbook.xml.rels', [WORKBOOK_RELS]);
  await zip.entry('xl/styles.xml', [STYLES_XML]);
  await zip.entry('xl/worksheets/sheet1.xml', sheetXml(sheet));
  await zip.finish();
  out.end();
}

/** The whole workbook in memory (small sheets: error reports, tests). */
export async function xlsxBuffer<Row>(sheet: XlsxSheet<Row>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  await streamXlsx(out, sheet);
  await done;
  return Buffer.concat(chunks);
}

/** Stream a workbook as the reply (download headers as writeXlsx's sendXlsx). */
export async function sendXlsxStream<Row>(reply: FastifyReply, sheet: XlsxSheet<Row>): Promise<FastifyReply> {
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  reply
    .header('content-type', XLSX_MIME)
    .header('content-disposition', attachmentDisposition(`${sheet.fileName}.xlsx`))
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff');
  sendStream(reply, out, 'xlsx export');
  try {
    await streamXlsx(out, sheet);
  } catch (err) {
    reply.log.error({ err }, 'xlsx export failed');
    out.destroy(err as Error);
  }
  return reply;
}
