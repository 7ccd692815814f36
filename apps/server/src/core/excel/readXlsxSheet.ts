import { type CellValue, type SheetRow, WorkbookFormatError } from './types.ts';
import { styleIndex } from './dateStyles.ts';
import { cellTooLong, MAX_CELL_CHARS, MAX_COLUMNS, MAX_ROW_BYTES, MAX_TOKEN_BYTES, MiB, tokenTooLong } from './readXlsxLimits.ts';
import { feed, LocalNames, newParser, SML, type StreamState, unescapeOoxml } from './readXlsxXml.ts';

/** The streamed parts of an .xlsx package: the shared-string table and the worksheet's rows, with the sheet's shape check. */

/** The shared-string table: each `<si>`'s visible text (rich-text runs joined, phonetic runs left out). */
export async function readSharedStrings(chunks: AsyncIterable<Buffer>): Promise<string[]> {
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
        if (s.length > MAX_CELL_CHARS) throw new WorkbookFormatError('FILE_LIMIT_SHARED_STRING', { max: MAX_CELL_CHARS });
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
    if (text.length > 8 * MAX_CELL_CHARS) throw new WorkbookFormatError('FILE_LIMIT_SHARED_STRING', { max: MAX_CELL_CHARS });
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
export async function* readSheetRows(chunks: AsyncIterable<Buffer>, sst: string[], dateStyles: Set<number>): AsyncGenerator<SheetRow> {
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
        if (col >= MAX_COLUMNS) throw new WorkbookFormatError('FILE_LIMIT_COLUMNS', { row, max: MAX_COLUMNS });
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

export function sheetShapeCheck(): (chunk: Buffer) => void {
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
    if (inRow && rowBytes > MAX_ROW_BYTES) throw new WorkbookFormatError('FILE_LIMIT_SHEET_ROW', { max: MAX_ROW_BYTES / MiB });
  };
}

/** The sheet's chunks, each checked by sheetShapeCheck before it is parsed. */
export async function* shapeChecked(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const check = sheetShapeCheck();
  for await (const chunk of chunks) {
    check(chunk);
    yield chunk;
  }
}
