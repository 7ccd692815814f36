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

/** A cell as the layout writer hands it: text, or a finite number with its display format. */
interface BiffCell {
  r: number;
  c: number;
  text: string | null;
  number: number;
  z: string;
}

/**
 * The cells row by row as SheetJS's aoa_to_sheet + write would visit them (every string a text cell, every number a
 * number cell), or null when a value is one this writer does not handle (SheetJS writes it then).
 */
function cellsInOrder(aoa: readonly (readonly (string | number)[])[], formatOf: (r: number, c: number) => string | undefined): BiffCell[] | null {
  const out: BiffCell[] = [];
  aoa.forEach((row, r) => {
    row.forEach((v, c) => {
      const z = formatOf(r, c) ?? 'General';
      out.push(typeof v === 'string' ? { r, c, text: v, number: 0, z } : { r, c, text: null, number: v, z });
    });
  });
  if (!out.length || out.some((cell) => cell.text === null && !Number.isFinite(cell.number))) return null;
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
export function writeBiff8Fast(
  aoa: readonly (readonly (string | number)[])[],
  formatOf: (r: number, c: number) => string | undefined,
  props: XLSX.FullProperties,
  sheetName: string,
): Buffer | null {
  const X = sheetJs();
  const cells = cellsInOrder(aoa, formatOf);
  if (!cells) return null;
  let lastRow = 0;
  let lastCol = 0;
  for (const { r, c } of cells) {
    lastRow = Math.max(lastRow, r);
    lastCol = Math.max(lastCol, c);
  }
  // the skeleton: the first cell of each number format, in the order SheetJS would meet them, so its XF list is the same
  const skeleton: XLSX.WorkSheet = { '!ref': X.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: lastRow, c: lastCol } }) };
  const firstOfFormat = new Map<string, string>();
  for (const { r, c, text, number, z } of cells) {
    if (firstOfFormat.has(z)) continue;
    const ref = X.utils.encode_cell({ r, c });
    firstOfFormat.set(z, ref);
    skeleton[ref] = text === null ? { t: 'n', v: number, ...(z === 'General' ? {} : { z }) } : { t: 's', v: text, ...(z === 'General' ? {} : { z }) };
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

  // SheetJS keeps the first 255 UTF-16 units of a text (a LABEL record's limit)
  let size = 0;
  for (const cell of cells) {
    if (cell.text !== null) cell.text = cell.text.slice(0, 255);
    size += cell.text === null ? 4 + 14 : 4 + 9 + 2 * cell.text.length;
  }
  const body = Buffer.allocUnsafe(size);
  let at = 0;
  for (const { r, c, text, number, z } of cells) {
    at = body.writeUInt16LE(text === null ? NUMBER : LABEL, at);
    at = body.writeUInt16LE(text === null ? 14 : 9 + 2 * text.length, at);
    at = body.writeUInt16LE(r, at);
    at = body.writeUInt16LE(c, at);
    at = body.writeUInt16LE(xfOf.get(z) as number, at);
    if (text === null) at = body.writeDoubleLE(number, at);
    else {
      at = body.writeUInt16LE(text.length, at);
      at = body.writeUInt8(1, at);
      at += body.write(text, at, 'utf16le');
    }
  }

  const keptAfter = recs.slice(dims + 1).filter((rec) => !CELL_RECORDS.has(rec.type));
  const parts = [stream.subarray(0, recs[dims].end), body, ...keptAfter.map((rec) => stream.subarray(rec.start, rec.end))];
  entry.content = Buffer.concat(parts);
  entry.size = entry.content.length;
  return X.CFB.write(cfb, { type: 'buffer' }) as Buffer;
}
