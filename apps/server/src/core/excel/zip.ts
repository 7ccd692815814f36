import { Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * The few ZIP facts an .xlsx reader needs: the central directory of an in-memory archive and a streamed,
 * inflated view of one entry, so a large worksheet is never held in memory uncompressed. Only "stored"
 * and "deflate" entries exist in OOXML packages; ZIP64 size fields are understood.
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

/** A damaged or unsupported archive. */
export class ZipFormatError extends Error {}

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CENTRAL_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;

function findEndOfCentralDirectory(buf: Buffer): number {
  const min = Math.max(0, buf.length - 22 - 0xffff);
  for (let i = buf.length - 22; i >= min; i--) if (buf.readUInt32LE(i) === EOCD_SIG) return i;
  throw new ZipFormatError('找不到ZIP目录');
}

/** The entries of a ZIP archive held in `buf`, by name. */
export function readZipDirectory(buf: Buffer): Map<string, ZipEntry> {
  const eocd = findEndOfCentralDirectory(buf);
  let count = buf.readUInt16LE(eocd + 10);
  let offset = buf.readUInt32LE(eocd + 16);
  if (offset === 0xffffffff || count === 0xffff) {
    const loc = eocd - 20;
    if (loc < 0 || buf.readUInt32LE(loc) !== ZIP64_LOCATOR_SIG) throw new ZipFormatError('ZIP64目录损坏');
    const z64 = Number(buf.readBigUInt64LE(loc + 8));
    if (z64 < 0 || z64 + 56 > buf.length || buf.readUInt32LE(z64) !== ZIP64_EOCD_SIG) throw new ZipFormatError('ZIP64目录损坏');
    count = Number(buf.readBigUInt64LE(z64 + 32));
    offset = Number(buf.readBigUInt64LE(z64 + 48));
  }
  const entries = new Map<string, ZipEntry>();
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CENTRAL_SIG) throw new ZipFormatError('ZIP目录损坏');
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
    while (e + 4 <= extraEnd) {
      const id = buf.readUInt16LE(e);
      const size = buf.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        if (uncompressedSize === 0xffffffff) {
          uncompressedSize = Number(buf.readBigUInt64LE(q));
          q += 8;
        }
        if (compressedSize === 0xffffffff) {
          compressedSize = Number(buf.readBigUInt64LE(q));
          q += 8;
        }
        if (localHeaderOffset === 0xffffffff) localHeaderOffset = Number(buf.readBigUInt64LE(q));
      }
      e += 4 + size;
    }
    entries.set(name.replace(/\\/g, '/'), { name, method, crc, compressedSize, uncompressedSize, localHeaderOffset });
    p = extraEnd + commentLen;
  }
  return entries;
}

function entryData(buf: Buffer, entry: ZipEntry): Buffer {
  const h = entry.localHeaderOffset;
  if (h + 30 > buf.length || buf.readUInt32LE(h) !== LOCAL_SIG) throw new ZipFormatError(`ZIP条目损坏: ${entry.name}`);
  const start = h + 30 + buf.readUInt16LE(h + 26) + buf.readUInt16LE(h + 28);
  const end = start + entry.compressedSize;
  if (end > buf.length) throw new ZipFormatError(`ZIP条目不完整: ${entry.name}`);
  return buf.subarray(start, end);
}

/** The whole (small) entry, inflated. */
export function readZipEntry(buf: Buffer, entry: ZipEntry): Buffer {
  const data = entryData(buf, entry);
  if (entry.method === 0) return data;
  if (entry.method === 8) return zlib.inflateRawSync(data);
  throw new ZipFormatError(`不支持的压缩方式 ${entry.method}`);
}

/** The entry inflated as a stream of chunks (constant memory for large worksheets). */
export function streamZipEntry(buf: Buffer, entry: ZipEntry): AsyncIterable<Buffer> {
  const data = entryData(buf, entry);
  if (entry.method === 0) return Readable.from([data]);
  if (entry.method !== 8) throw new ZipFormatError(`不支持的压缩方式 ${entry.method}`);
  const inflate = zlib.createInflateRaw({ chunkSize: 256 * 1024 });
  Readable.from(chunksOf(data, 1024 * 1024)).pipe(inflate);
  return inflate;
}

function* chunksOf(data: Buffer, size: number): Generator<Buffer> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

/**
 * Inflate an entry once without keeping it and check its CRC-32 and size, so a damaged upload is refused
 * before any of its rows is used (about a second for a 100,000-row sheet).
 */
export async function verifyZipEntry(buf: Buffer, entry: ZipEntry): Promise<void> {
  let crc = 0;
  let size = 0;
  try {
    for await (const chunk of streamZipEntry(buf, entry)) {
      crc = zlib.crc32(chunk, crc);
      size += chunk.length;
    }
  } catch {
    throw new ZipFormatError(`ZIP条目损坏: ${entry.name}`);
  }
  if (crc >>> 0 !== entry.crc >>> 0 || size !== entry.uncompressedSize) throw new ZipFormatError(`ZIP条目校验失败: ${entry.name}`);
}
