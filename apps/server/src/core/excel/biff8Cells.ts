import type * as XLSX from '@e965/xlsx';
import { sheetJs } from './sheetJs.ts';

/**
 * A BIFF8 (.xls) workbook of one large sheet without SheetJS's per-record buffers. SheetJS writes every cell record
 * into a fresh, zero-filled 16 KB block and keeps a slice of it until the end, so 10,000 rows × 12 cells cost about
 * 2 GB of allocation and 6-30 s (profiled with node --cpu-prof: FastBuffer/Buffer.alloc under ba_newblk and the GC).
 * Here SheetJS still writes the workbook globals (fonts, formats, XF styles, properties, the compound file) from a
 * skeleton sheet holding only the first cell of each number format, and the cell records (LABEL, NUMBER) are written
 * into one buffer and spliced into the sheet's substream in their place: the same records, in the same order, with
 * the same style indexes as SheetJS would write, so the bytes are the same as before.
 */

const BOF = 0x0809;
const DIMENSIONS = 0x0200;
const LABEL = 0x0204;
const NUMBER = 0x0203;
/** the cell records SheetJS may write; the skeleton's are dropped and replaced */
const CELL_RECORDS = new Set([0x0201, NUMBER, LABEL, 0x00fd, 0x0205, 0x0006, 0x027e, 0x00bd, 0x00be]);

type Sheet = XLSX.WorkSheet;
type Cell = XLSX.CellObject;

/** The sheet's cells row by row as SheetJS visits them; null when a cell is one this writer does not handle. */
function cellsInOrder(X: typeof XLSX, sheet: Sheet): { r: number; c: number; cell: Cell }[] | null {
  const range = X.utils.decode_range(sheet['!ref'] ?? 'A1');
  const out: { r: number; c: number; cell: Cell }[] = [];
  const cols = Array.from({ length: range.e.c + 1 }, (_, c) => X.utils.encode_col(c));
  for (let r = range.s.r; r <= range.e.r; r++) {
    const rr = X.utils.encode_row(r);
    for (let c = range.s.c; c <= range.e.c; c++) {
      const cell = sheet[cols[c] + rr] as Cell | undefined;
      if (!cell) continue;
      const ok = (cell.t === 's' && cell.v != null) || (cell.t === 'n' && Number.isFinite(cell.v as number));
      if (!ok || cell.f) return null;
      out.push({ r, c, cell });
    }
  }
  return out;
}

interface BiffRecord {
  type: number;
  start: number;
  end: number;
}

function records(stream: Buffer): BiffRecord[] {
  const out: BiffRecord[] = [];
  for (let at = 0; at + 4 <= stream.length; ) {
    const len = stream.readUInt16LE(at + 2);
    out.push({ type: stream.readUInt16LE(at), start: at, end: at + 4 + len });
    at += 4 + len;
  }
  return out;
}

/** The .xls bytes of a workbook with the one sheet, or null when the sheet needs SheetJS's own writer. */
export function writeBiff8Fast(sheet: Sheet, props: XLSX.FullProperties, sheetName: string): Buffer | null {
  const X = sheetJs();
  const cells = cellsInOrder(X, sheet);
  if (!cells) return null;
  // the skeleton: the first cell of each number format, in the order SheetJS would meet them, so its XF list is the same
  const skeleton: Sheet = { '!ref': sheet['!ref'] };
  const firstOfFormat = new Map<string, string>();
  for (const { r, c, cell } of cells) {
    const z = String(cell.z ?? 'General');
    if (firstOfFormat.has(z)) continue;
    const ref = X.utils.encode_cell({ r, c });
    firstOfFormat.set(z, ref);
    skeleton[ref] = { ...cell };
  }
  const wb = X.utils.book_new();
  wb.Props = props;
  X.utils.book_append_sheet(wb, skeleton, sheetName);
  const cfb = X.CFB.read(X.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer, { type: 'buffer' });
  const entry = X.CFB.find(cfb, '/Workbook');
  if (!entry) return null;
  const stream = Buffer.from(entry.content as Uint8Array);
  const recs = records(stream);
  const sheetBof = recs.findIndex((rec, i) => i > 0 && rec.type === BOF);
  const dims = recs.findIndex((rec, i) => i > sheetBof && rec.type === DIMENSIONS);
  if (sheetBof < 0 || dims < 0) return null;
  // the style index of each format, read back from the skeleton's cell records
  const xfOf = new Map<string, number>();
  for (const rec of recs.slice(dims + 1)) {
    if (!CELL_RECORDS.has(rec.type)) continue;
    const r = stream.readUInt16LE(rec.start + 4);
    const c = stream.readUInt16LE(rec.start + 6);
    const ref = X.utils.encode_cell({ r, c });
    for (const [z, at] of firstOfFormat) if (at === ref) xfOf.set(z, stream.readUInt16LE(rec.start + 8));
  }
  if (xfOf.size !== firstOfFormat.size) return null;

  const texts = cells.map(({ cell }) => (cell.t === 's' ? String(cell.v).slice(0, 255) : ''));
  let size = 0;
  cells.forEach(({ cell }, i) => {
    size += cell.t === 's' ? 4 + 9 + 2 * texts[i].length : 4 + 14;
  });
  const body = Buffer.allocUnsafe(size);
  let at = 0;
  cells.forEach(({ r, c, cell }, i) => {
    const label = cell.t === 's';
    at = body.writeUInt16LE(label ? LABEL : NUMBER, at);
    at = body.writeUInt16LE(label ? 9 + 2 * texts[i].length : 14, at);
    at = body.writeUInt16LE(r, at);
    at = body.writeUInt16LE(c, at);
    at = body.writeUInt16LE(xfOf.get(String(cell.z ?? 'General')) as number, at);
    if (label) {
      at = body.writeUInt16LE(texts[i].length, at);
      at = body.writeUInt8(1, at);
      at += body.write(texts[i], at, 'utf16le');
    } else at = body.writeDoubleLE(cell.v as number, at);
  });

  const keptAfter = recs.slice(dims + 1).filter((rec) => !CELL_RECORDS.has(rec.type));
  const parts = [stream.subarray(0, recs[dims].end), body, ...keptAfter.map((rec) => stream.subarray(rec.start, rec.end))];
  entry.content = Buffer.concat(parts);
  entry.size = entry.content.length;
  return X.CFB.write(cfb, { type: 'buffer' }) as Buffer;
}
