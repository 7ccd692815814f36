import type * as XLSX from '@e965/xlsx';
import { spawn } from 'node:child_process';
import { SHEETJS_PATH, sheetJs } from './sheetJs.ts';
import { type CellValue, type SheetRow, type WorkbookRows, WorkbookFormatError } from './types.ts';

/**
 * Legacy .xls (BIFF, in an OLE compound file) through SheetJS (@e965/xlsx, the maintained build; never the
 * unmaintained `xlsx` package). Such files hold at most 65,536 rows, so reading them whole is fine.
 * Formula cells give their cached value; dates stay serial numbers (the pipeline knows which columns are
 * dates and converts them, independent of the cell's number format).
 *
 * SheetJS's compound-file reader trusts the file's sector chains: a chain that loops runs it out of memory
 * (an 88 KB file crashed the process), chains that merge or streams that start inside another chain make it
 * copy the same sectors over and over, and a huge directory costs it quadratic time. checkCompoundFile walks
 * the structure first, the way SheetJS will, and refuses such files, so that what SheetJS then allocates is
 * bounded by the file's own size. Its record parsers trust the records too (a BIFF2 string record without
 * data made it loop until the process ran out of memory), and a legitimate 65,536-row file takes it seconds
 * and most of a gigabyte: so .xls files are read in a child process (a worker thread's heap limit does not
 * hold for one array grown without end: the whole process aborts, nodejs/node#47224), one or two at a
 * time, with a heap ceiling that scales with the file and a time limit, while the server keeps answering.
 * The date system and sheet name, needed before the rows, are read from the workbook's global records here.
 */

const ENDOFCHAIN = -2;
/** Real .xls files have a handful of directory entries and no DIFAT sector below 7 MB. */
const MAX_DIRECTORY_ENTRIES = 4096;
const MAX_DIFAT_SECTORS = 1000;

/**
 * Check an OLE compound file's sector allocation (FAT, DIFAT, directory) before SheetJS reads it: no chain
 * may loop or share a sector with another (in a valid file each sector has at most one predecessor), the
 * directory is bounded, and the streams SheetJS copies out of the chains add up to no more than the file.
 * Files whose header SheetJS would refuse anyway are left to it.
 */
export function checkCompoundFile(buf: Buffer): CompoundFile {
  const major = buf.length >= 512 ? buf.readUInt16LE(26) : 0;
  const ssz = major === 3 ? 512 : major === 4 ? 4096 : 0;
  // a header SheetJS would refuse as well
  if (!ssz || buf.readUInt16LE(30) !== (ssz === 512 ? 9 : 12) || buf.length <= ssz) throw new WorkbookFormatError('FILE_NOT_EXCEL');
  const damaged = () => new WorkbookFormatError('FILE_CORRUPT');
  // as SheetJS: sector i is the file's bytes from (i + 1) * ssz; the last may be short (missing bytes read as 0)
  const sectors = Math.ceil(buf.length / ssz) - 1;
  const int32 = (sector: number, at: number) => {
    const p = (sector + 1) * ssz + at;
    return p + 4 <= buf.length ? buf.readInt32LE(p) : (buf[p] ?? 0) | ((buf[p + 1] ?? 0) << 8) | ((buf[p + 2] ?? 0) << 16) | ((buf[p + 3] ?? 0) << 24);
  };
  const inFile = (i: number) => i >= 0 && i < sectors;

  // FAT sector numbers: the header's 109, then the DIFAT chain (read as SheetJS's sleuth_fat does)
  const fat: number[] = [];
  for (let j = 0; j < 109; j++) {
    const q = buf.readInt32LE(76 + 4 * j);
    if (q < 0) break;
    fat.push(q);
  }
  let difat = buf.readInt32LE(68);
  let count = buf.readInt32LE(72);
  if (count > MAX_DIFAT_SECTORS) throw damaged();
  const seenDifat = new Set<number>();
  for (;;) {
    if (difat === ENDOFCHAIN) {
      if (count !== 0) throw damaged();
      break;
    }
    if (!inFile(difat)) break;
    if (seenDifat.has(difat)) throw damaged();
    seenDifat.add(difat);
    for (let i = 0; i < ssz / 4 - 1; i++) {
      const q = int32(difat, i * 4);
      if (q === ENDOFCHAIN) break;
      fat.push(q);
    }
    if (count < 1) break;
    difat = int32(difat, ssz - 4);
    count--;
  }
  /** The next sector of a chain, or -1 at its end (SheetJS stops where the FAT has no sector for the entry). */
  const next = (j: number): number => {
    const addr = fat[Math.floor((j * 4) / ssz)];
    if (addr === undefined || !inFile(addr)) return -1;
    const n = int32(addr, (j * 4) & (ssz - 1));
    return n >= 0 ? n : -1;
  };

  // SheetJS follows the chain from every sector: each must have at most one predecessor and reach an end
  const predecessors = new Uint8Array(sectors);
  for (let i = 0; i < sectors; i++) {
    const n = next(i);
    if (inFile(n) && ++predecessors[n] > 1) throw damaged();
  }
  const state = new Uint8Array(sectors); // 0 not seen, 1 on the current walk, 2 done
  const length = new Int32Array(sectors); // sectors from here to the chain's end
  const walk: number[] = [];
  for (let i = 0; i < sectors; i++) {
    if (state[i]) continue;
    let j = i;
    for (; inFile(j) && state[j] === 0; j = next(j)) {
      state[j] = 1;
      walk.push(j);
    }
    if (inFile(j) && state[j] === 1) throw damaged(); // a loop
    let n = inFile(j) ? length[j] : 0;
    while (walk.length) {
      const k = walk.pop()!;
      length[k] = ++n;
      state[k] = 2;
    }
  }

  // What SheetJS copies: make_sector_list copies the chain from every sector it has not yet passed, in
  // its order (from the directory's sector on, wrapping around); a chain met from its end first is copied
  // again and again (quadratic). read_directory copies, for each stream of 4,096 bytes or more that does
  // not start a chain copied so far, the chain from its start.
  const dirStart = buf.readInt32LE(48);
  if (!inFile(dirStart)) throw damaged();
  if ((length[dirStart] * ssz) / 128 > MAX_DIRECTORY_ENTRIES) throw damaged();
  const passed = new Uint8Array(sectors);
  const head = new Uint8Array(sectors);
  let copied = 0;
  for (let i = 0; i < sectors; i++) {
    const k = (i + dirStart) % sectors;
    if (passed[k]) continue;
    head[k] = 1;
    copied += length[k];
    for (let j = k; inFile(j) && !passed[j]; j = next(j)) passed[j] = 1;
  }
  const starts = new Set<number>();
  const entries: DirectoryEntry[] = [];
  for (let sector = dirStart; inFile(sector); sector = next(sector)) {
    for (let e = 0; e < ssz; e += 128) {
      const nameBytes = Math.min(64, Math.max(0, (int32(sector, e + 64) & 0xffff) - 2));
      const at = (sector + 1) * ssz + e;
      const name = buf.toString('utf16le', Math.min(at, buf.length), Math.min(at + nameBytes, buf.length));
      const type = int32(sector, e + 66) & 0xff;
      const start = int32(sector, e + 116);
      const size = int32(sector, e + 120);
      entries.push({ name, type, start, size });
      if (type !== 5 && size >= 4096 && inFile(start) && !head[start]) starts.add(start);
    }
  }
  for (const start of starts) copied += length[start];
  // a valid file's chains are each copied about once (more where a fragmented chain is met mid-way first);
  // a hostile one made SheetJS copy a 1 MB file a thousand times over
  if (copied > 4 * sectors + 64) throw damaged();

  /** The sectors of a chain, concatenated (at most `limit` bytes; chains are checked finite above). */
  const chain = (start: number, limit: number): Buffer => {
    const parts: Buffer[] = [];
    let got = 0;
    for (let s = start; inFile(s) && got < limit; s = next(s)) {
      const at = (s + 1) * ssz;
      const part = buf.subarray(at, Math.min(at + ssz, buf.length));
      parts.push(part);
      got += part.length;
    }
    return Buffer.concat(parts).subarray(0, limit);
  };
  const stream = (name: string, limit = Number.POSITIVE_INFINITY): Buffer | undefined => {
    const entry = entries.find((e) => e.type === 2 && e.name.toLowerCase() === name.toLowerCase());
    if (!entry || entry.size <= 0) return undefined;
    if (entry.size >= 4096) return chain(entry.start, Math.min(entry.size, limit));
    // a small stream lives in the mini stream (the root entry's chain) in 64-byte sectors, chained by the mini FAT
    const root = entries.find((e) => e.type === 5);
    if (!root) return undefined;
    const container = chain(root.start, buf.length);
    const miniFat = chain(buf.readInt32LE(60), buf.length);
    const parts: Buffer[] = [];
    const seen = new Set<number>();
    let got = 0;
    for (let m = entry.start; m >= 0 && got < entry.size && !seen.has(m) && m * 64 < container.length; ) {
      seen.add(m);
      const part = container.subarray(m * 64, m * 64 + 64);
      parts.push(part);
      got += part.length;
      m = m * 4 + 4 <= miniFat.length ? miniFat.readInt32LE(m * 4) : -1;
    }
    return Buffer.concat(parts).subarray(0, entry.size);
  };
  return { stream };
}

interface DirectoryEntry {
  name: string;
  type: number;
  start: number;
  size: number;
}

/** A compound file whose structure checkCompoundFile accepted. */
export interface CompoundFile {
  /** A stream's bytes by name (case-insensitive; at most `limit`), or undefined. */
  stream(name: string, limit?: number): Buffer | undefined;
}

/**
 * From a BIFF8 (or BIFF5) workbook stream's global records: the date system (DATEMODE) and the first
 * visible sheet's name (BOUNDSHEET), as SheetJS reads them. Each record is a type, a length and its data;
 * the globals end with the first EOF record.
 */
export function workbookGlobals(stream: Buffer): { date1904: boolean; sheetName: string } {
  let date1904 = false;
  let biff8 = true;
  const sheets: { name: string; hidden: boolean }[] = [];
  for (let p = 0; p + 4 <= stream.length; ) {
    const type = stream.readUInt16LE(p);
    const len = stream.readUInt16LE(p + 2);
    const d = p + 4;
    if (d + len > stream.length) break;
    if (type === 0x0809 && p === 0 && len >= 2) biff8 = stream.readUInt16LE(d) >= 0x0600;
    else if (type === 0x0022 && len >= 2) date1904 = stream.readUInt16LE(d) === 1;
    else if (type === 0x0085 && len >= 7) {
      const hidden = (stream[d + 4] & 3) !== 0;
      const cch = stream[d + 6];
      const name = biff8 && len >= 8 ? ((stream[d + 7] & 1) === 1 ? stream.toString('utf16le', d + 8, Math.min(d + len, d + 8 + 2 * cch)) : stream.toString('latin1', d + 8, Math.min(d + len, d + 8 + cch))) : stream.toString('latin1', d + 7, Math.min(d + len, d + 7 + cch));
      sheets.push({ name, hidden });
    } else if (type === 0x000a) break;
    p = d + len;
  }
  return { date1904, sheetName: (sheets.find((s) => !s.hidden) ?? sheets[0])?.name ?? '' };
}

const ERROR_TEXT: Record<number, string> = { 0: '#NULL!', 7: '#DIV/0!', 15: '#VALUE!', 23: '#REF!', 29: '#NAME?', 36: '#NUM!', 42: '#N/A', 43: '#GETTING_DATA' };

function toCellValue(cell: XLSX.CellObject | undefined): CellValue {
  if (!cell) return null;
  switch (cell.t) {
    case 's':
      return typeof cell.v === 'string' ? cell.v : String(cell.v ?? '');
    case 'n':
      return typeof cell.v === 'number' ? cell.v : null;
    case 'b':
      return !!cell.v;
    case 'e':
      return ERROR_TEXT[Number(cell.v)] ?? '#ERROR';
    case 'd':
      return cell.v instanceof Date ? cell.v.toISOString() : String(cell.v);
    default:
      return null;
  }
}

const READ_OPTIONS: XLSX.ParsingOptions = { type: 'buffer', dense: true, cellDates: false, cellFormula: false, cellHTML: false, cellText: false, cellNF: false, cellStyles: false };

/** What the child process (or the in-thread reader) gives back: the first visible sheet's cells as [type, value]. */
interface SheetData {
  name: string;
  date1904: boolean;
  data: ([string, unknown] | null | undefined)[][] | null;
}

function sheetData(wb: XLSX.WorkBook): SheetData {
  const meta = wb.Workbook?.Sheets ?? [];
  const name = wb.SheetNames.find((_n, i) => !meta[i]?.Hidden) ?? wb.SheetNames[0];
  const ws = name === undefined ? undefined : (wb.Sheets[name] as XLSX.WorkSheet & { '!data'?: (XLSX.CellObject | undefined)[][] });
  const data = ws ? (ws['!data'] ?? []).map((r) => r?.map((c) => (c ? ([c.t, c.v] as [string, unknown]) : c))) : null;
  return { name: name ?? '', date1904: !!wb.Workbook?.WBProps?.date1904, data };
}

/** sheetData as the child process runs it (CommonJS, SheetJS's own build): one workbook in, its sheet out. */
const CHILD_SOURCE = `
const XLSX = require(${JSON.stringify(SHEETJS_PATH)});
process.once('message', (buf) => {
  let out;
  try {
    const wb = XLSX.read(buf, ${JSON.stringify(READ_OPTIONS)});
    const meta = (wb.Workbook && wb.Workbook.Sheets) || [];
    let i = wb.SheetNames.findIndex((_n, k) => !(meta[k] && meta[k].Hidden));
    if (i < 0) i = 0;
    const name = wb.SheetNames[i];
    const ws = name === undefined ? undefined : wb.Sheets[name];
    const data = ws ? (ws['!data'] || []).map((r) => r && r.map((c) => c && [c.t, c.v])) : null;
    out = { name: name || '', date1904: !!(wb.Workbook && wb.Workbook.WBProps && wb.Workbook.WBProps.date1904), data };
  } catch (e) {
    out = { error: String((e && e.message) || e) };
  }
  process.send(out, () => process.exit(0));
});
`;

const MiB = 1024 * 1024;
/** SheetJS needs about 25 bytes of heap per byte of .xls (a 30 MB, 65,536-row file: 760 MB). */
const heapLimitMb = (bytes: number) => Math.min(2048, Math.max(128, Math.ceil((bytes * 40) / MiB)));
const XLS_TIME_LIMIT_MS = 60_000;
const MAX_PARALLEL = 2;
let running = 0;
const waiting: (() => void)[] = [];

/** SheetJS in a child process with a heap ceiling and a time limit; at most MAX_PARALLEL at once. */
async function readInChild(buf: Buffer): Promise<SheetData> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  const limitMb = heapLimitMb(buf.length);
  try {
    return await new Promise<SheetData>((resolve, reject) => {
      const child = spawn(process.execPath, [`--max-old-space-size=${limitMb}`, '-e', CHILD_SOURCE], {
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        serialization: 'advanced',
        env: {}, // nothing of the server's environment for a process that reads hostile input
      });
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
        child.kill('SIGKILL');
      };
      const timer = setTimeout(() => finish(() => reject(new WorkbookFormatError('FILE_LIMIT_XLS_TIME', { seconds: XLS_TIME_LIMIT_MS / 1000 }))), XLS_TIME_LIMIT_MS);
      child.once('message', (m: SheetData & { error?: string }) =>
        finish(() => {
          if (m.error === undefined) resolve(m);
          else if (/password|encrypt/i.test(m.error)) reject(new WorkbookFormatError('FILE_ENCRYPTED'));
          else reject(new WorkbookFormatError('FILE_NOT_EXCEL'));
        }),
      );
      // no answer: out of memory (V8 aborts) or killed
      child.once('exit', () => finish(() => reject(new WorkbookFormatError('FILE_LIMIT_XLS_MEMORY', { max: limitMb }))));
      child.once('error', () => finish(() => reject(new WorkbookFormatError('FILE_CORRUPT'))));
      child.send(buf);
    });
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function rowsOf(sheet: SheetData): SheetRow[] {
  const out: SheetRow[] = [];
  const data = sheet.data ?? [];
  for (let r = 0; r < data.length; r++) {
    const src = data[r];
    if (!src) continue;
    const cells: CellValue[] = [];
    for (let c = 0; c < src.length; c++) {
      const cell = src[c];
      const v = cell ? toCellValue({ t: cell[0], v: cell[1] } as XLSX.CellObject) : null;
      if (v === null) continue;
      while (cells.length < c) cells.push(null);
      cells[c] = v;
    }
    out.push({ row: r + 1, cells });
  }
  return out;
}

/**
 * Read the first visible sheet of a workbook with SheetJS: .xls files checked (checkCompoundFile) and read
 * in a child process, their date system and sheet name taken from the global records at once; tests also read
 * .xlsx this way, in this thread, as a cross-check of the streaming reader.
 */
export function readWithSheetJs(buf: Buffer, format: 'xls' | 'xlsx' = 'xls'): WorkbookRows {
  if (format === 'xlsx') {
    let wb: XLSX.WorkBook;
    try {
      wb = sheetJs().read(buf, READ_OPTIONS);
    } catch (err) {
      const msg = String((err as Error)?.message ?? err);
      if (/password|encrypt/i.test(msg)) throw new WorkbookFormatError('FILE_ENCRYPTED');
      throw new WorkbookFormatError('FILE_NOT_EXCEL');
    }
    const sheet = sheetData(wb);
    if (!sheet.data) throw new WorkbookFormatError('FILE_NO_SHEET');
    return { format, sheetName: sheet.name, date1904: sheet.date1904, rows: toAsync(rowsOf(sheet)) };
  }
  const cfb = checkCompoundFile(buf);
  // the records wanted come before the shared strings, the last and largest part of the globals
  const stream = cfb.stream('Workbook', 4 * MiB) ?? cfb.stream('Book', 4 * MiB);
  const globals = stream ? workbookGlobals(stream) : { date1904: false, sheetName: '' };
  let parsed: Promise<SheetRow[]> | undefined;
  const parse = () =>
    (parsed ??= readInChild(buf).then((sheet) => {
      if (!sheet.data) throw new WorkbookFormatError('FILE_NO_SHEET');
      // the rows' dates are read with the date system given before them: both readings must agree
      if (sheet.date1904 !== globals.date1904) throw new WorkbookFormatError('FILE_CORRUPT');
      return rowsOf(sheet);
    }));
  async function* rows(): AsyncGenerator<SheetRow> {
    yield* await parse();
  }
  return { format, sheetName: globals.sheetName, date1904: globals.date1904, rows: rows(), verify: async () => void (await parse()) };
}

async function* toAsync<T>(it: Iterable<T>): AsyncGenerator<T> {
  yield* it;
}
