import { StringDecoder } from 'node:string_decoder';
import type * as Saxes from 'saxes';
import type { SaxesParser, SaxesTagNS, SaxesTagPlain } from 'saxes';
import { onFirstUse } from '../onFirstUse.ts';
import { checkEntrySize, readZipDirectory, readZipEntry, streamZipEntry, verifyZipEntry, type ZipEntry, ZipLimitError } from './zip.ts';
import { type CellValue, type SheetRow, type WorkbookRows, WorkbookFormatError } from './types.ts';
import { dateStyleIndexes, styleIndex } from './dateStyles.ts';

/**
 * A streaming reader for the first worksheet of an .xlsx package. The worksheet XML is inflated chunk by
 * chunk and tokenized by saxes (a conforming, non-validating XML parser), so a 100,000-row sheet needs
 * memory for one chunk plus the shared-string table, not for the whole uncompressed sheet (SheetJS holds
 * the entire XML and every cell, which for large imports is several times the file size in RAM), and
 * SpreadsheetML written with a namespace prefix (`<x:row>`) reads like any other. Formula cells give their
 * cached value, as Excel shows it. .xls (BIFF) files are read by SheetJS (readXls.ts); tests check both
 * readers agree on the same workbook.
 *
 * An upload is hostile until proven otherwise. Each part has a ceiling on its inflated size (below zip.ts's
 * limits for the whole archive), checked on the sizes the archive declares before anything is inflated and
 * again while inflating; while parsing, a token (one text, tag or comment), a row, a cell, the column count
 * and the element depth are capped, each refused with a message naming the limit.
 */

/** The XML tokenizer, loaded with the first workbook read. */
const saxes = onFirstUse<typeof Saxes>('saxes');
const MiB = 1024 * 1024;
/** workbook.xml, relationships: a few KB in real files. */
const MAX_XML_PART_BYTES = 16 * MiB;
/** The shared-string table, held in memory while the sheet is read (100,000 staff rows: about 20 MB). */
const MAX_SHARED_STRINGS_BYTES = 128 * MiB;
/** The worksheet, streamed (100,000 staff rows: 120 MB with inline strings). */
const MAX_SHEET_BYTES = 512 * MiB;
const DAMAGED = '文件已损坏，无法读取';
/** Excel's own limits: characters in a cell, columns in a sheet. */
const MAX_CELL_CHARS = 32_767;
const MAX_COLUMNS = 16_384;
/** One row of sheet XML, in bytes (16,384 numbers are about 0.5 MB; 80 cells of Excel's longest Chinese text, 8 MB). */
const MAX_ROW_BYTES = 8 * MiB;
/** Bytes without a '<', or without any parse event: a single text or markup token that long is no cell. */
const MAX_TOKEN_BYTES = MiB;
/** Element nesting (SpreadsheetML needs about ten levels). */
const MAX_DEPTH = 100;
/** Bytes of XML given to the parser at a time. */
const CHUNK_BYTES = 128 * 1024;
const TOO_LARGE = '文件过大或已损坏';

const cellTooLong = (row: number) => new WorkbookFormatError(`${TOO_LARGE}：第${row}行有超过 ${MAX_CELL_CHARS} 个字符的单元格（Excel 的上限）`);
const rowTooLong = (row: number) => new WorkbookFormatError(`${TOO_LARGE}：工作表第${row}行超过 ${MAX_ROW_BYTES / MiB} MB 的上限`);
const tokenTooLong = (part = '工作表') => new WorkbookFormatError(`${TOO_LARGE}：${part}中有超过 ${MAX_TOKEN_BYTES / MiB} MB 的单个单元格或标记`);

/** A zip/zlib/XML failure as the user's message: limits keep theirs, anything else is a damaged file. */
function asWorkbookError(err: unknown): unknown {
  if (err instanceof WorkbookFormatError) return err;
  if (err instanceof ZipLimitError) return new WorkbookFormatError(err.message);
  return new WorkbookFormatError(DAMAGED);
}

/** SpreadsheetML's main namespace, transitional and strict. */
const SML = new Set(['http://schemas.openxmlformats.org/spreadsheetml/2006/main', 'http://purl.oclc.org/ooxml/spreadsheetml/main']);
/** Relationship ids on `<sheet r:id>`, transitional and strict. */
const OFFICE_REL = new Set(['http://schemas.openxmlformats.org/officeDocument/2006/relationships', 'http://purl.oclc.org/ooxml/officeDocument/relationships']);
/** Package relationships (`.rels` parts). */
const PACKAGE_REL = new Set(['http://schemas.openxmlformats.org/package/2006/relationships']);

const OOXML_ESCAPE_RE = /_x([0-9A-Fa-f]{4})_/g;

/** Text with OOXML's `_xHHHH_` escapes resolved (XML entities are the parser's). */
function unescapeOoxml(s: string): string {
  return s.includes('_x') ? s.replace(OOXML_ESCAPE_RE, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))) : s;
}

// ------------------------------------------------------------------ small parts (workbook, relationships)

/** An attribute by local name: in no namespace, in one of a set, or in any namespace but none ('prefixed'). */
type AttrOf = (local: string, ns?: Set<string> | 'prefixed') => string | undefined;

/**
 * The elements of a small part, namespaces resolved by saxes: `visit` sees those in `namespaces` (or in no
 * namespace at all, as some writers leave them).
 */
function visitElements(xml: string, namespaces: Set<string>, visit: (local: string, attr: AttrOf) => void): void {
  const parser = new (saxes().SaxesParser)({ xmlns: true, position: false });
  let depth = 0;
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (++depth > MAX_DEPTH) throw new WorkbookFormatError(DAMAGED);
    if (tag.uri !== '' && !namespaces.has(tag.uri)) return;
    visit(tag.local, (local, ns) => {
      for (const a of Object.values(tag.attributes)) {
        if (a.local === local && (ns === 'prefixed' ? a.uri !== '' : ns ? ns.has(a.uri) : a.uri === '')) return a.value;
      }
      return undefined;
    });
  });
  parser.on('closetag', () => {
    depth--;
  });
  parser.write(xml).close();
}

function relationships(xml: string): { id: string; type: string; target: string }[] {
  const out: { id: string; type: string; target: string }[] = [];
  visitElements(xml, PACKAGE_REL, (local, attr) => {
    if (local !== 'Relationship') return;
    const id = attr('Id');
    const target = attr('Target');
    if (id && target && attr('TargetMode') !== 'External') out.push({ id, type: attr('Type') ?? '', target });
  });
  return out;
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

// ------------------------------------------------------------------ streamed parts (shared strings, sheet)

/**
 * Element names of one namespace in a streamed part, for a parser that does not resolve namespaces itself
 * (saxes' own resolution halves its speed). Declarations are rare (usually all on the root): the parser's
 * attribute events flag them, and only then are an element's attributes read; names are resolved through
 * a cache that a declaration clears, or at once when unprefixed and the default namespace is ours.
 * `open` and `close` give an element's local name, or '' when it is in another namespace.
 */
class LocalNames {
  private scopes: Map<string, string>[] = [new Map()];
  private declaredAt: number[] = [];
  private cache = new Map<string, string>();
  /** The default namespace in scope is ours (or none): unprefixed names are ours as they are. */
  private plain = true;
  /** The element being opened declares a namespace (set by the parser's attribute events). */
  private declaring = false;
  depth = 0;

  constructor(
    parser: PlainParser,
    private readonly namespaces: Set<string>,
  ) {
    parser.on('attribute', (a: { name: string }) => {
      if (a.name.charCodeAt(0) === 120 && (a.name === 'xmlns' || a.name.startsWith('xmlns:'))) this.declaring = true;
    });
  }

  open(tag: SaxesTagPlain): string {
    if (++this.depth > MAX_DEPTH) throw new WorkbookFormatError(`${TOO_LARGE}：工作表的元素嵌套超过 ${MAX_DEPTH} 层`);
    if (this.declaring) {
      this.declaring = false;
      const declared = new Map(this.scopes[this.scopes.length - 1]);
      for (const [name, value] of Object.entries(tag.attributes)) {
        if (name === 'xmlns' || name.startsWith('xmlns:')) declared.set(name === 'xmlns' ? '' : name.slice(6), value);
      }
      this.scopes.push(declared);
      this.declaredAt.push(this.depth);
      this.rescope();
    }
    return this.local(tag.name);
  }

  close(name: string): string {
    const local = this.local(name);
    if (this.declaredAt[this.declaredAt.length - 1] === this.depth) {
      this.scopes.pop();
      this.declaredAt.pop();
      this.rescope();
    }
    this.depth--;
    return local;
  }

  private rescope(): void {
    this.cache.clear();
    const fallback = this.scopes[this.scopes.length - 1].get('');
    this.plain = fallback === undefined || fallback === '' || this.namespaces.has(fallback);
  }

  private local(qname: string): string {
    if (this.plain && qname.indexOf(':') < 0) return qname;
    let local = this.cache.get(qname);
    if (local === undefined) {
      const i = qname.indexOf(':');
      const uri = this.scopes[this.scopes.length - 1].get(i < 0 ? '' : qname.slice(0, i));
      // unprefixed without a default namespace: accepted, as before (some writers omit xmlns)
      const ours = uri === undefined ? i < 0 : uri === '' || this.namespaces.has(uri);
      local = ours ? qname.slice(i + 1) : '';
      this.cache.set(qname, local);
    }
    return local;
  }
}

/** What a streamed part's handlers share with the loop that feeds the parser. */
interface StreamState {
  /** The part, as users may know it (工作表, 共享字符串表). */
  part: string;
  /** Parse events so far (a token cap: bytes fed without any event). */
  events: number;
  /** Bytes fed before the current chunk. */
  fed: number;
  /** `fed` when the open row started, or -1. */
  rowStart: number;
  /** The rest of the part is not needed (after `</sheetData>`): it is only inflated, for its CRC. */
  done: boolean;
}

/**
 * Feed a part's chunks to `parser`; after each chunk, the items its handlers collected in `out` are
 * yielded as one batch. Checks the token and row caps between chunks.
 */
async function* feed<T>(chunks: AsyncIterable<Buffer>, parser: PlainParser, state: StreamState, out: T[], currentRow: () => number): AsyncGenerator<T[]> {
  const decoder = new StringDecoder('utf8');
  let quiet = 0;
  for await (const chunk of chunks) {
    if (state.done) continue;
    const events = state.events;
    parser.write(decoder.write(chunk));
    state.fed += chunk.length;
    quiet = state.events === events ? quiet + chunk.length : 0;
    if (quiet > MAX_TOKEN_BYTES) throw tokenTooLong(state.part);
    if (state.rowStart >= 0 && state.fed - state.rowStart > MAX_ROW_BYTES) throw rowTooLong(currentRow());
    if (out.length) yield out.splice(0);
  }
  if (!state.done) parser.write(decoder.end()).close();
  if (out.length) yield out.splice(0);
}

/** Streamed parts: saxes without its own namespace handling or position tracking (both cost time). */
type PlainOptions = { xmlns: false; position: false };
type PlainParser = SaxesParser<PlainOptions>;
const newParser = (): PlainParser => new (saxes().SaxesParser)<PlainOptions>({ xmlns: false, position: false });

/** The shared-string table: each `<si>`'s visible text (rich-text runs joined, phonetic runs left out). */
async function readSharedStrings(chunks: AsyncIterable<Buffer>): Promise<string[]> {
  const parser = newParser();
  const names = new LocalNames(parser, SML);
  const state: StreamState = { part: '共享字符串表', events: 0, fed: 0, rowStart: -1, done: false };
  const out: string[] = [];
  const strings: string[] = [];
  let inItem = false;
  let capture = false;
  let phonetic = 0;
  let text = '';
  parser.on('opentag', (tag) => {
    state.events++;
    switch (names.open(tag)) {
      case 'si':
        inItem = true;
        text = '';
        break;
      case 't':
        capture = inItem && phonetic === 0;
        if (capture) parser.on('text', onText);
        break;
      case 'rPh':
        phonetic++;
        break;
    }
  });
  parser.on('closetag', (tag) => {
    state.events++;
    switch (names.close(tag.name)) {
      case 'si': {
        inItem = false;
        const s = unescapeOoxml(text);
        if (s.length > MAX_CELL_CHARS) throw new WorkbookFormatError(`${TOO_LARGE}：共享字符串表中有超过 ${MAX_CELL_CHARS} 个字符的文本（Excel 的上限）`);
        out.push(s);
        break;
      }
      case 't':
        capture = false;
        parser.off('text');
        break;
      case 'rPh':
        phonetic--;
        break;
    }
  });
  // text is listened to only inside <t> (saxes does not even collect text nobody listens to)
  function onText(s: string) {
    state.events++;
    if (!capture) return;
    text += s;
    if (text.length > 8 * MAX_CELL_CHARS) throw new WorkbookFormatError(`${TOO_LARGE}：共享字符串表中有超过 ${MAX_CELL_CHARS} 个字符的文本（Excel 的上限）`);
  }
  parser.on('cdata', onText);
  for await (const batch of feed(chunks, parser, state, out, () => 0)) for (const s of batch) strings.push(s);
  return strings;
}

/** Column letters of a cell reference (e.g. "AB12") as a 0-based index, or -1. */
function columnIndex(ref: string): number {
  let n = 0;
  let i = 0;
  for (; i < ref.length && i < 8; i++) {
    const c = ref.charCodeAt(i);
    if (c >= 65 && c <= 90) n = n * 26 + (c - 64);
    else if (c >= 97 && c <= 122) n = n * 26 + (c - 96);
    else break;
  }
  return i === 0 ? -1 : n - 1;
}

function cellValue(type: string, hasValue: boolean, hasInline: boolean, text: string, sst: string[]): CellValue {
  if (type === 'inlineStr') return hasInline ? unescapeOoxml(text) : null;
  if (!hasValue) return null;
  switch (type) {
    case 's': {
      const s = sst[Number(text)];
      return s === undefined ? null : s;
    }
    case 'str':
    case 'e':
    case 'd':
      return unescapeOoxml(text);
    case 'b': {
      const v = text.trim();
      return v === '1' || v.toLowerCase() === 'true';
    }
    default: {
      const n = Number(text);
      return text.trim() !== '' && Number.isFinite(n) ? n : unescapeOoxml(text);
    }
  }
}

/** The rows of a worksheet part, parsed as its chunks arrive. */
async function* readSheetRows(chunks: AsyncIterable<Buffer>, sst: string[], dateStyles: Set<number>): AsyncGenerator<SheetRow> {
  const parser = newParser();
  const names = new LocalNames(parser, SML);
  const state: StreamState = { part: '工作表', events: 0, fed: 0, rowStart: -1, done: false };
  const out: SheetRow[] = [];
  let row = 0;
  let lastRow = 0;
  let cells: CellValue[] = [];
  let dates: number[] | undefined;
  let col = -1;
  let inCell = false;
  let type = 'n';
  let dateStyled = false;
  let hasValue = false;
  let hasInline = false;
  /** 1: in <v>; 2: in a <t> of an inline string. */
  let capture = 0;
  let phonetic = 0;
  let text = '';
  parser.on('opentag', (tag) => {
    state.events++;
    switch (names.open(tag)) {
      case 'row': {
        const r = Number(tag.attributes.r);
        row = Number.isInteger(r) && r > 0 ? r : lastRow + 1;
        cells = [];
        dates = undefined;
        col = -1;
        state.rowStart = state.fed;
        break;
      }
      case 'c': {
        const ref = tag.attributes.r;
        const idx = ref ? columnIndex(ref) : -1;
        col = idx >= 0 ? idx : col + 1;
        if (col >= MAX_COLUMNS) throw new WorkbookFormatError(`${TOO_LARGE}：第${row}行超过 ${MAX_COLUMNS} 列（Excel 的上限）`);
        type = tag.attributes.t ?? 'n';
        dateStyled = dateStyles.size > 0 && dateStyles.has(styleIndex(tag.attributes.s));
        inCell = true;
        hasValue = hasInline = false;
        text = '';
        break;
      }
      case 'v':
        if (inCell && !tag.isSelfClosing && !hasValue) {
          capture = 1;
          hasValue = true;
          parser.on('text', onText);
        }
        break;
      case 'is':
        if (inCell && !tag.isSelfClosing) hasInline = true;
        break;
      case 't':
        if (hasInline && phonetic === 0) {
          capture = 2;
          parser.on('text', onText);
        }
        break;
      case 'rPh':
        phonetic++;
        break;
    }
  });
  parser.on('closetag', (tag) => {
    state.events++;
    switch (names.close(tag.name)) {
      case 'v':
      case 't':
        capture = 0;
        parser.off('text');
        break;
      case 'rPh':
        phonetic--;
        break;
      case 'c': {
        if (!inCell) break;
        inCell = false;
        const v = cellValue(type, hasValue, hasInline, text, sst);
        hasInline = false;
        if (v === null) break;
        if (typeof v === 'string' && v.length > MAX_CELL_CHARS) throw cellTooLong(row);
        while (cells.length < col) cells.push(null);
        cells[col] = v;
        if (dateStyled && typeof v === 'number') (dates ??= []).push(col);
        break;
      }
      case 'row':
        out.push(dates ? { row, cells, dates } : { row, cells });
        lastRow = row;
        cells = [];
        dates = undefined;
        state.rowStart = -1;
        break;
      case 'sheetData':
        state.done = true; // what follows the rows (merged cells, links...) is only inflated, for the CRC
        break;
    }
  });
  // text is listened to only inside <v> and <t> (saxes does not even collect text nobody listens to)
  function onText(s: string) {
    state.events++;
    if (capture === 0) return;
    text += s;
    // raw text may be longer than the cell (`_xHHHH_` escapes); the cell itself is checked when it closes
    if (text.length > 8 * MAX_CELL_CHARS) throw cellTooLong(row);
  }
  parser.on('cdata', onText);
  for await (const batch of feed(chunks, parser, state, out, () => (state.rowStart >= 0 ? row : lastRow + 1))) yield* batch;
}

/**
 * The integrity pass over the sheet also bounds its shape at little cost (a few native searches per chunk):
 * no run of bytes without a '<' (one text or markup token) beyond MAX_TOKEN_BYTES, and no row (from `<row`
 * to the next `</row>` or `</sheetData>`) beyond MAX_ROW_BYTES, so a sheet that is one giant cell or one
 * endless row is refused within its first megabytes instead of after inflating all of it. Rows are looked
 * for with the prefix of the root element (`<x:worksheet>`: `<x:row`); the parser's own caps are exact.
 */
const ROOT_RE = /<([A-Za-z_][\w.-]*:)?worksheet[\s>/]/;

function sheetShapeCheck(): (chunk: Buffer) => void {
  let run = 0;
  let inRow = false;
  let rowBytes = 0;
  let afterRows = false;
  let markers: { rowOpen: Buffer; rowEnd: Buffer; rowsEnd: Buffer } | undefined;
  return (chunk) => {
    if (!markers) {
      const x = ROOT_RE.exec(chunk.toString('latin1', 0, 4096))?.[1] ?? '';
      markers = { rowOpen: Buffer.from(`<${x}row`), rowEnd: Buffer.from(`</${x}row>`), rowsEnd: Buffer.from(`</${x}sheetData>`) };
    }
    const first = chunk.indexOf(0x3c);
    if (first < 0) run += chunk.length;
    else {
      run += first;
      if (run <= MAX_TOKEN_BYTES) run = chunk.length - 1 - chunk.lastIndexOf(0x3c);
    }
    if (run > MAX_TOKEN_BYTES) throw tokenTooLong();
    if (afterRows) return;
    if (chunk.lastIndexOf(markers.rowsEnd) >= 0) {
      afterRows = true; // <rowBreaks> and the like may follow
      return;
    }
    // the last row start or end in the chunk says whether a row is still open at its end
    const open = chunk.lastIndexOf(markers.rowOpen);
    const end = chunk.lastIndexOf(markers.rowEnd);
    if (open > end) {
      const gt = chunk.indexOf(0x3e, open);
      inRow = !(gt > 0 && chunk[gt - 1] === 0x2f); // not <row .../>
      rowBytes = chunk.length - open;
    } else if (end >= 0) {
      inRow = false;
      rowBytes = 0;
    } else rowBytes += chunk.length;
    if (inRow && rowBytes > MAX_ROW_BYTES) throw new WorkbookFormatError(`${TOO_LARGE}：工作表中有超过 ${MAX_ROW_BYTES / MiB} MB 的行`);
  };
}

/** The sheet's chunks, each checked by sheetShapeCheck before it is parsed. */
async function* shapeChecked(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const check = sheetShapeCheck();
  for await (const chunk of chunks) {
    check(chunk);
    yield chunk;
  }
}

/**
 * The cell styles that show dates, from styles.xml (numFmts, then the cellXfs list that a cell's `s` indexes;
 * the xfs of cellStyleXfs come before it and are not cell styles). A missing or unreadable part means none.
 */
function readDateStyles(xml: string | undefined): Set<number> {
  if (!xml) return new Set();
  const custom = new Map<number, string>();
  const cellXfs: number[] = [];
  let inCellXfs = false;
  try {
    visitElements(xml, SML, (local, attr) => {
      if (local === 'numFmt') custom.set(Number(attr('numFmtId')), attr('formatCode') ?? '');
      else if (local === 'cellXfs') inCellXfs = true;
      else if (local === 'cellStyleXfs' || local === 'cellStyles' || local === 'dxfs') inCellXfs = false;
      else if (local === 'xf' && inCellXfs) cellXfs.push(Number(attr('numFmtId') ?? 0));
    });
  } catch {
    return new Set();
  }
  return dateStyleIndexes(custom, cellXfs);
}

/** Open the first visible worksheet of an .xlsx package held in `buf`. */
export function readXlsx(buf: Buffer): WorkbookRows {
  const entries = readZipDirectory(buf);
  const text = (e: ZipEntry | undefined) => (e ? readZipEntry(buf, e, MAX_XML_PART_BYTES).toString('utf8') : undefined);
  let workbookPath = 'xl/workbook.xml';
  if (!entries.has(workbookPath)) {
    const rootRels = text(entries.get('_rels/.rels'));
    const officeDoc = rootRels ? relationships(rootRels).find((r) => r.type.endsWith('/officeDocument')) : undefined;
    if (officeDoc) workbookPath = resolveTarget('', officeDoc.target);
  }
  const workbookXml = text(entries.get(workbookPath));
  let isWorkbook = false;
  let date1904 = false;
  const sheets: { name: string; rid?: string; hidden: boolean }[] = [];
  if (workbookXml) {
    visitElements(workbookXml, SML, (local, attr) => {
      if (local === 'workbook') isWorkbook = true;
      else if (local === 'workbookPr') date1904 = /^(1|true)$/.test(attr('date1904') ?? '');
      else if (local === 'sheet') sheets.push({ name: attr('name') ?? '', rid: attr('id', OFFICE_REL) ?? attr('id', 'prefixed'), hidden: /^(hidden|veryHidden)$/.test(attr('state') ?? '') });
    });
  }
  if (!isWorkbook) throw new WorkbookFormatError('不是Excel工作簿');
  const relsPath = resolveTarget(workbookPath, `_rels/${workbookPath.split('/').pop()}.rels`);
  const rels = relationships(text(entries.get(relsPath)) ?? '<Relationships/>');
  const sheet = sheets.find((s) => !s.hidden) ?? sheets[0];
  const sheetRel = sheet?.rid ? rels.find((r) => r.id === sheet.rid) : undefined;
  if (!sheet || !sheetRel) throw new WorkbookFormatError('工作簿中没有工作表');
  const sheetEntry = entries.get(resolveTarget(workbookPath, sheetRel.target));
  if (!sheetEntry) throw new WorkbookFormatError('工作表缺失');
  checkEntrySize(sheetEntry, '工作表', MAX_SHEET_BYTES);
  const sstRel = rels.find((r) => r.type.endsWith('/sharedStrings')) ?? rels.find((r) => /sharedStrings\.xml$/i.test(r.target));
  const sstEntry = sstRel ? entries.get(resolveTarget(workbookPath, sstRel.target)) : undefined;
  if (sstEntry) checkEntrySize(sstEntry, '共享字符串表', MAX_SHARED_STRINGS_BYTES);
  const stylesRel = rels.find((r) => r.type.endsWith('/styles'));
  const dateStyles = readDateStyles(text(stylesRel ? entries.get(resolveTarget(workbookPath, stylesRel.target)) : undefined));

  // The shared strings are read (streamed, like the sheet) once, by whichever comes first: verify or the rows.
  let sst: Promise<string[]> | undefined;
  const sharedStrings = () => (sst ??= sstEntry ? readSharedStrings(streamZipEntry(buf, sstEntry, CHUNK_BYTES)) : Promise.resolve([]));
  const verify = async () => {
    try {
      await sharedStrings();
      await verifyZipEntry(buf, sheetEntry, sheetShapeCheck());
    } catch (err) {
      throw asWorkbookError(err);
    }
  };
  async function* rows(): AsyncGenerator<SheetRow> {
    try {
      const strings = await sharedStrings();
      yield* readSheetRows(shapeChecked(streamZipEntry(buf, sheetEntry!, CHUNK_BYTES)), strings, dateStyles);
    } catch (err) {
      throw asWorkbookError(err);
    }
  }
  return { format: 'xlsx', sheetName: sheet.name, date1904, rows: rows(), verify };
}
