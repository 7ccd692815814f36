import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { CodedError } from '../errors.ts';

/**
 * The few ZIP facts an .xlsx reader needs: the central directory of an in-memory archive and a streamed,
 * inflated view of one entry, so a large worksheet is never held in memory uncompressed. Only "stored"
 * and "deflate" entries exist in OOXML packages; ZIP64 size fields are understood.
 *
 * An upload is hostile until proven otherwise (a 1 MB file can inflate to gigabytes), so every size is
 * bounded twice: the sizes the central directory declares are checked against the limits below before
 * anything is inflated (per entry, in total, and as a compression ratio), and while inflating, an entry
 * may never produce more than it declared; the first byte beyond stops it. Its CRC-32 is checked at its end.
 */

export interface ZipEntry {
  name: string;
  method: number;
  /** CRC-32 of the uncompressed data, from the central directory. */
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

/** A damaged or unsupported archive. Its message is a diagnostic: the readers answer FILE_CORRUPT or FILE_NOT_EXCEL. */
export class ZipFormatError extends Error {}

/** An archive (or one of its entries) larger than the limits, or inflating to more than it declares: a FILE_LIMIT_* code for the user. */
export class ZipLimitError extends CodedError {}

export interface ZipLimits {
  /** Entries in the central directory. */
  maxEntries: number;
  /** Declared uncompressed size of any one entry. */
  maxEntryBytes: number;
  /** Declared uncompressed size of all entries together. */
  maxTotalBytes: number;
  /** Largest uncompressed/compressed ratio of a deflated entry larger than `ratioFreeBytes`. */
  maxRatio: number;
  ratioFreeBytes: number;
}

const MiB = 1024 * 1024;

/**
 * Generous for real workbooks: 100,000 staff rows are a 120 MB worksheet deflated 13:1 (SheetJS 4:1,
 * ExcelJS 13:1 for a sheet of zeros); a 1 MB bomb that inflates to 1 GB is 1000:1.
 */
export const ZIP_LIMITS: ZipLimits = { maxEntries: 10_000, maxEntryBytes: 512 * MiB, maxTotalBytes: 1024 * MiB, maxRatio: 100, ratioFreeBytes: MiB };

/** Bytes as whole MB for messages. */
export const mb = (bytes: number) => `${Math.round(bytes / MiB)} MB`;

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CENTRAL_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;

function findEndOfCentralDirectory(buf: Buffer): number {
  const min = Math.max(0, buf.length - 22 - 0xffff);
  for (let i = buf.length - 22; i >= min; i--) if (buf.readUInt32LE(i) === EOCD_SIG) return i;
  throw new ZipFormatError('no ZIP central directory');
}

/**
 * The entries of a ZIP archive held in `buf`, by name. Throws ZipLimitError when the declared sizes exceed
 * `limits`, before any entry is inflated.
 */
export function readZipDirectory(buf: Buffer, limits: ZipLimits = ZIP_LIMITS): Map<string, ZipEntry> {
  const eocd = findEndOfCentralDirectory(buf);
  let count = buf.readUInt16LE(eocd + 10);
  let offset = buf.readUInt32LE(eocd + 16);
  if (offset === 0xffffffff || count === 0xffff) {
    const loc = eocd - 20;
    if (loc < 0 || buf.readUInt32LE(loc) !== ZIP64_LOCATOR_SIG) throw new ZipFormatError('damaged ZIP64 directory');
    const z64 = Number(buf.readBigUInt64LE(loc + 8));
    if (z64 < 0 || z64 + 56 > buf.length || buf.readUInt32LE(z64) !== ZIP64_EOCD_SIG) throw new ZipFormatError('damaged ZIP64 directory');
    count = Number(buf.readBigUInt64LE(z64 + 32));
    offset = Number(buf.readBigUInt64LE(z64 + 48));
  }
  if (count > limits.maxEntries) throw new ZipLimitError('FILE_LIMIT_ZIP_ENTRIES', { max: limits.maxEntries });
  if (offset + count * 46 > buf.length) throw new ZipFormatError('damaged ZIP directory');
  const entries = new Map<string, ZipEntry>();
  let total = 0;
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CENTRAL_SIG) throw new ZipFormatError('damaged ZIP directory');
    const method = buf.readUInt16LE(p + 10);
    const crc = buf.readUInt32LE(p + 16);
    let compressedSize = buf.readUInt32LE(p + 20);
    let uncompressedSize = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    let localHeaderOffset = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    // ZIP64 extended information: present fields follow in a fixed order, each only if its 32-bit field is saturated.
    let e = p + 46 + nameLen;
    const extraEnd = e + extraLen;
    if (extraEnd + commentLen > buf.length) throw new ZipFormatError('damaged ZIP directory');
    while (e + 4 <= extraEnd) {
      const id = buf.readUInt16LE(e);
      const size = buf.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        const end = Math.min(extraEnd, q + size);
        if (uncompressedSize === 0xffffffff && q + 8 <= end) {
          uncompressedSize = Number(buf.readBigUInt64LE(q));
          q += 8;
        }
        if (compressedSize === 0xffffffff && q + 8 <= end) {
          compressedSize = Number(buf.readBigUInt64LE(q));
          q += 8;
        }
        if (localHeaderOffset === 0xffffffff && q + 8 <= end) localHeaderOffset = Number(buf.readBigUInt64LE(q));
      }
      e += 4 + size;
    }
    checkDeclaredSize(name, method, compressedSize, uncompressedSize, limits);
    total += uncompressedSize;
    if (total > limits.maxTotalBytes) throw new ZipLimitError('FILE_LIMIT_ZIP_TOTAL', { max: mb(limits.maxTotalBytes) });
    entries.set(name.replace(/\\/g, '/'), { name, method, crc, compressedSize, uncompressedSize, localHeaderOffset });
    p = extraEnd + commentLen;
  }
  return entries;
}

function checkDeclaredSize(name: string, method: number, compressed: number, size: number, limits: ZipLimits): void {
  if (size > limits.maxEntryBytes) throw new ZipLimitError('FILE_LIMIT_ZIP_ENTRY', { max: mb(limits.maxEntryBytes), name });
  if (method === 8 && size > limits.ratioFreeBytes && size > compressed * limits.maxRatio) {
    throw new ZipLimitError('FILE_LIMIT_ZIP_RATIO', { ratio: limits.maxRatio, name });
  }
}

/** A message for an entry over a reader's own, lower limit for its part (e.g. "工作表", 512 MB). */
export function checkEntrySize(entry: ZipEntry, what: string, maxBytes: number): void {
  if (entry.uncompressedSize > maxBytes) throw new ZipLimitError('FILE_LIMIT_PART', { part: what, max: mb(maxBytes) });
}

function entryData(buf: Buffer, entry: ZipEntry): Buffer {
  const h = entry.localHeaderOffset;
  if (h + 30 > buf.length || buf.readUInt32LE(h) !== LOCAL_SIG) throw new ZipFormatError(`damaged ZIP entry: ${entry.name}`);
  const start = h + 30 + buf.readUInt16LE(h + 26) + buf.readUInt16LE(h + 28);
  const end = start + entry.compressedSize;
  if (end > buf.length) throw new ZipFormatError(`truncated ZIP entry: ${entry.name}`);
  if (entry.method === 0 && entry.compressedSize !== entry.uncompressedSize) throw new ZipFormatError(`damaged ZIP entry: ${entry.name}`);
  if (entry.method !== 0 && entry.method !== 8) throw new ZipFormatError(`unsupported compression method ${entry.method}`);
  return buf.subarray(start, end);
}

const overDeclared = (entry: ZipEntry) => new ZipLimitError('FILE_LIMIT_OVER_DECLARED', { size: entry.uncompressedSize, name: entry.name });

function checkSum(entry: ZipEntry, size: number, crc: number): void {
  if (size !== entry.uncompressedSize || crc >>> 0 !== entry.crc >>> 0) throw new ZipFormatError(`ZIP entry checksum mismatch: ${entry.name}`);
}

/**
 * The whole (small) entry, inflated, its size and CRC checked. `maxBytes` bounds what the caller is
 * prepared to hold; inflating stops at the entry's declared size.
 */
export function readZipEntry(buf: Buffer, entry: ZipEntry, maxBytes = ZIP_LIMITS.maxEntryBytes, what = `${entry.name} `): Buffer {
  checkEntrySize(entry, what, maxBytes);
  const data = entryData(buf, entry);
  let out = data;
  if (entry.method === 8) {
    try {
      out = zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw overDeclared(entry);
      throw new ZipFormatError(`damaged ZIP entry: ${entry.name}`);
    }
  }
  checkSum(entry, out.length, zlib.crc32(out));
  return out;
}

/**
 * The entry inflated as a stream of chunks (constant memory for large worksheets). It throws ZipLimitError
 * as soon as the data inflates beyond the entry's declared size, and ZipFormatError when the stream is
 * damaged or, at its end, its size or CRC-32 differs from the directory's.
 */
export async function* streamZipEntry(buf: Buffer, entry: ZipEntry, chunkSize = 128 * 1024): AsyncGenerator<Buffer> {
  const data = entryData(buf, entry);
  let size = 0;
  let crc = 0;
  if (entry.method === 0) {
    for (let i = 0; i < data.length; i += chunkSize) {
      const chunk = data.subarray(i, i + chunkSize);
      size += chunk.length;
      crc = zlib.crc32(chunk, crc);
      yield chunk;
    }
    checkSum(entry, size, crc);
    return;
  }
  const source = Readable.from(chunksOf(data, 256 * 1024));
  const inflate = zlib.createInflateRaw({ chunkSize });
  source.pipe(inflate);
  const chunks = inflate[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  try {
    for (;;) {
      let next: IteratorResult<Buffer>;
      try {
        next = await chunks.next();
      } catch {
        throw new ZipFormatError(`damaged ZIP entry: ${entry.name}`);
      }
      if (next.done) break;
      size += next.value.length;
      if (size > entry.uncompressedSize) throw overDeclared(entry);
      crc = zlib.crc32(next.value, crc);
      yield next.value;
    }
  } finally {
    source.destroy();
    inflate.destroy();
  }
  checkSum(entry, size, crc);
}

function* chunksOf(data: Buffer, size: number): Generator<Buffer> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

/**
 * Inflate an entry once without keeping it and check its CRC-32 and size, so a damaged upload is refused
 * before any of its rows is used (about a second for a 100,000-row sheet). Bounded like streamZipEntry:
 * never more than the declared size, which the directory's limits have already capped.
 */
export async function verifyZipEntry(buf: Buffer, entry: ZipEntry, onChunk?: (chunk: Buffer) => void): Promise<void> {
  for await (const chunk of streamZipEntry(buf, entry, 256 * 1024)) onChunk?.(chunk);
}
