import { StringDecoder } from 'node:string_decoder';
import { readZipDirectory, readZipEntry, streamZipEntry, verifyZipEntry, type ZipEntry } from './zip.ts';
import { type CellValue, type SheetRow, type WorkbookRows, WorkbookFormatError } from './types.ts';

/**
 * A streaming reader for the first worksheet of an .xlsx package. The worksheet XML is inflated chunk by
 * chunk and scanned row by row, so a 100,000-row sheet needs memory for one chunk plus the shared-string
 * table, not for the whole uncompressed sheet (SheetJS holds the entire XML and every cell, which for large
 * imports is several times the file size in RAM). Formula cells give their cached value, as Excel shows it.
 * .xls (BIFF) files are read by SheetJS (readXls.ts); tests check both readers agree on the same workbook.
 */

const ENTITY_RE = /&(?:#x([0-9a-fA-F]+)|#(\d+)|(amp|lt|gt|quot|apos));/g;
const OOXML_ESCAPE_RE = /_x([0-9A-Fa-f]{4})_/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML text with character references and OOXML `_xHHHH_` escapes resolved. */
export function decodeXmlText(s: string): string {
  let out = s;
  if (out.includes('&')) {
    out = out.replace(ENTITY_RE, (_m, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
      if (name) return NAMED[name];
      const cp = hex ? Number.parseInt(hex, 16) : Number(dec);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
    });
  }
  if (out.includes('_x')) out = out.replace(OOXML_ESCAPE_RE, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return out;
}

const TEXT_RE = /<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g;
const PHONETIC_RE = /<rPh\b[\s\S]*?<\/rPh>/g;

/** The visible text of a rich or plain string item (`<si>` / `<is>`), without phonetic runs. */
function richText(xml: string): string {
  const body = xml.includes('<rPh') ? xml.replace(PHONETIC_RE, '') : xml;
  let out = '';
  TEXT_RE.lastIndex = 0;
  for (let m = TEXT_RE.exec(body); m; m = TEXT_RE.exec(body)) out += m[1];
  return decodeXmlText(out);
}

function parseSharedStrings(xml: string): string[] {
  const out: string[] = [];
  const re = /<si>([\s\S]*?)<\/si>|<si\/>/g;
  for (let m = re.exec(xml); m; m = re.exec(xml)) out.push(m[1] === undefined ? '' : richText(m[1]));
  return out;
}

const ATTR_RES = new Map<string, RegExp>();
function attr(attrs: string, name: string): string | undefined {
  let re = ATTR_RES.get(name);
  if (!re) ATTR_RES.set(name, (re = new RegExp(`(?:^|\\s)(?:\\w+:)?${name}="([^"]*)"`)));
  const m = re.exec(attrs);
  return m ? decodeXmlText(m[1]) : undefined;
}

/** A plain attribute of a cell or row (r, t): no prefixes or entities there, so indexOf beats a regex. */
function cellAttr(attrs: string, name: string): string | undefined {
  const key = ` ${name}="`;
  const i = attrs.indexOf(key);
  if (i < 0) return /[\t\n\r]/.test(attrs) ? attr(attrs, name) : undefined;
  const start = i + key.length;
  return attrs.slice(start, attrs.indexOf('"', start));
}

/** Column letters of a cell reference (e.g. "AB12") as a 0-based index, or -1. */
function columnIndex(ref: string): number {
  let n = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c >= 65 && c <= 90) n = n * 26 + (c - 64);
    else if (c >= 97 && c <= 122) n = n * 26 + (c - 96);
    else break;
  }
  return i === 0 ? -1 : n - 1;
}

function resolveTarget(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

function relationships(xml: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /<Relationship\b([^>]*?)\/?>/g;
  for (let m = re.exec(xml); m; m = re.exec(xml)) {
    const id = attr(m[1], 'Id');
    const target = attr(m[1], 'Target');
    if (id && target) out.set(id, target);
  }
  return out;
}

const CELL_RE = /<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g;
const V_RE = /<v(?:\s[^>]*)?>([\s\S]*?)<\/v>/;
const IS_RE = /<is>([\s\S]*?)<\/is>/;

function cellValue(attrs: string, inner: string | undefined, sst: string[]): CellValue {
  if (!inner) return null;
  const t = cellAttr(attrs, 't') ?? 'n';
  if (t === 'inlineStr') {
    const is = IS_RE.exec(inner);
    return is ? richText(is[1]) : null;
  }
  const vm = V_RE.exec(inner);
  if (!vm) return null;
  const v = vm[1];
  switch (t) {
    case 's': {
      const s = sst[Number(v)];
      return s === undefined ? null : s;
    }
    case 'str':
    case 'e':
    case 'd':
      return decodeXmlText(v);
    case 'b':
      return v.trim() === '1' || v.trim().toLowerCase() === 'true';
    default: {
      const n = Number(v);
      return v.trim() !== '' && Number.isFinite(n) ? n : decodeXmlText(v);
    }
  }
}

function parseRow(attrs: string, inner: string | undefined, fallbackRow: number, sst: string[]): SheetRow {
  const r = Number(cellAttr(attrs, 'r'));
  const row = Number.isInteger(r) && r > 0 ? r : fallbackRow;
  const cells: CellValue[] = [];
  if (inner) {
    let col = -1;
    CELL_RE.lastIndex = 0;
    for (let m = CELL_RE.exec(inner); m; m = CELL_RE.exec(inner)) {
      const ref = cellAttr(m[1], 'r');
      const idx = ref ? columnIndex(ref) : -1;
      col = idx >= 0 ? idx : col + 1;
      const v = cellValue(m[1], m[2], sst);
      if (v === null) continue;
      while (cells.length < col) cells.push(null);
      cells[col] = v;
    }
  }
  return { row, cells };
}

async function* sheetRows(chunks: AsyncIterable<Buffer>, sst: string[]): AsyncGenerator<SheetRow> {
  // A fresh regex per reader: its lastIndex is state, and two imports may interleave.
  const ROW_RE = /<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g;
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let lastRow = 0;
  for await (const chunk of chunks) {
    pending += decoder.write(chunk);
    let consumed = 0;
    ROW_RE.lastIndex = 0;
    for (let m = ROW_RE.exec(pending); m; m = ROW_RE.exec(pending)) {
      const parsed = parseRow(m[1], m[2], lastRow + 1, sst);
      lastRow = parsed.row;
      consumed = ROW_RE.lastIndex;
      yield parsed;
    }
    if (consumed > 0) pending = pending.slice(consumed);
    else if (pending.length > 64 * 1024 * 1024) throw new WorkbookFormatError('工作表中的行过大，无法读取');
  }
  pending += decoder.end();
  ROW_RE.lastIndex = 0;
  for (let m = ROW_RE.exec(pending); m; m = ROW_RE.exec(pending)) {
    const parsed = parseRow(m[1], m[2], lastRow + 1, sst);
    lastRow = parsed.row;
    yield parsed;
  }
}

/** Open the first visible worksheet of an .xlsx package held in `buf`. */
export function readXlsx(buf: Buffer): WorkbookRows {
  const entries = readZipDirectory(buf);
  const text = (e: ZipEntry | undefined) => (e ? readZipEntry(buf, e).toString('utf8') : undefined);
  let workbookPath = 'xl/workbook.xml';
  if (!entries.has(workbookPath)) {
    const rootRels = text(entries.get('_rels/.rels'));
    const officeDoc = rootRels && /<Relationship\b[^>]*officeDocument"[^>]*>/.exec(rootRels);
    const target = officeDoc ? attr(officeDoc[0].slice(13), 'Target') : undefined;
    if (target) workbookPath = resolveTarget('', target);
  }
  const workbookXml = text(entries.get(workbookPath));
  if (!workbookXml || !/<workbook\b/.test(workbookXml)) throw new WorkbookFormatError('不是Excel工作簿');
  const relsPath = resolveTarget(workbookPath, `_rels/${workbookPath.split('/').pop()}.rels`);
  const rels = relationships(text(entries.get(relsPath)) ?? '');
  const sheets = [...workbookXml.matchAll(/<sheet\b([^>]*?)\/?>/g)].map((m) => ({
    name: attr(m[1], 'name') ?? '',
    rid: attr(m[1], 'id'),
    hidden: /state="(hidden|veryHidden)"/.test(m[1]),
  }));
  const sheet = sheets.find((s) => !s.hidden) ?? sheets[0];
  if (!sheet?.rid || !rels.get(sheet.rid)) throw new WorkbookFormatError('工作簿中没有工作表');
  const sheetEntry = entries.get(resolveTarget(workbookPath, rels.get(sheet.rid)!));
  if (!sheetEntry) throw new WorkbookFormatError('工作表缺失');
  const date1904 = /<workbookPr\b[^>]*\bdate1904="(1|true)"/.test(workbookXml);
  let sst: string[] = [];
  const sstTarget = [...rels.values()].find((t) => /sharedStrings\.xml$/i.test(t));
  if (sstTarget) sst = parseSharedStrings(text(entries.get(resolveTarget(workbookPath, sstTarget))) ?? '');
  const verify = async () => {
    try {
      await verifyZipEntry(buf, sheetEntry);
    } catch {
      throw new WorkbookFormatError('文件已损坏，无法读取');
    }
  };
  return { format: 'xlsx', sheetName: sheet.name, date1904, rows: sheetRows(streamZipEntry(buf, sheetEntry), sst), verify };
}
