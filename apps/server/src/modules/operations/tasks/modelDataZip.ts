import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';
import type Yazl from 'yazl';
import { onFirstUse } from '../../../core/onFirstUse.ts';
import { AppError } from '../../../core/errors.ts';
import { attachmentDisposition } from '../../../core/excel/writeXlsx.ts';
import { sendStream } from '../../../core/sendStream.ts';
import { LocalStore } from '../../../core/storage/localStore.ts';
import type { S3Store } from '../../../core/storage/s3Store.ts';
import type { ObjectStore } from '../../../core/storage/types.ts';

/** One output file of all.zip: where it is stored and the name it gets inside the zip. */
export interface ZipOutput {
  group_name: string;
  file_name: string;
  storage_key: string;
  /** The store the file was written to (its row's own store, not necessarily the active one). */
  store: ObjectStore;
}

/** The note added to all.zip when a file could not be read at its turn (named in the zip's root). */
export const MISSING_NOTE_NAME = '未能导出的文件.txt';
/** At most this many names in the refusal's message; the rest are counted. */
const yazl = onFirstUse<typeof Yazl>('yazl');
const NAMES_IN_MESSAGE = 10;
/** Existence checks run side by side (a HEAD request each on S3). */
const CHECKS_AT_ONCE = 8;

const safeName = (s: string) => s.replace(/[\\/:*?"<>|]/g, '_');
export const entryName = (f: Pick<ZipOutput, 'group_name' | 'file_name'>) => `${safeName(String(f.group_name))}/${safeName(String(f.file_name))}`;

async function exists(store: ObjectStore, key: string): Promise<boolean> {
  if (store instanceof LocalStore) return (await store.stat(key)) !== null;
  return (await (store as S3Store).head(key)) !== null;
}

/**
 * Refuse (404, every missing file named) before anything is sent when a selected output is no longer in its
 * store: a clear JSON answer the screen shows, instead of a download that breaks half-way.
 */
export async function checkOutputsExist(files: ZipOutput[]): Promise<void> {
  const missing: string[] = [];
  for (let i = 0; i < files.length; i += CHECKS_AT_ONCE) {
    const batch = files.slice(i, i + CHECKS_AT_ONCE);
    const found = await Promise.all(batch.map((f) => exists(f.store, String(f.storage_key))));
    batch.forEach((f, j) => {
      if (!found[j]) missing.push(entryName(f));
    });
  }
  if (!missing.length) return;
  const shown = missing.slice(0, NAMES_IN_MESSAGE).join('、');
  throw new AppError('MODELDATA_FILES_MISSING', { files: missing.length > NAMES_IN_MESSAGE ? `${shown} … (${missing.length})` : shown });
}

/**
 * Stream all.zip: entries added one after another as the previous one is consumed, so one stored object is open
 * at a time and memory stays flat however many files (xlsx is already compressed: stored, not deflated).
 *
 * A file that cannot be opened at its turn (removed since the check) is left out and named in a note file at
 * the end of the zip. A file that fails while its bytes are being copied cannot be taken back out of a zip
 * already on the wire: that download is cut (the client sees an incomplete file, never a valid zip with a
 * truncated workbook), the failure is logged, and the server goes on serving.
 */
export function sendOutputsZip(app: FastifyInstance, reply: FastifyReply, files: ZipOutput[]): FastifyReply {
  const zip = new (yazl().ZipFile)();
  const out = zip.outputStream as unknown as Readable;
  const fail = (err: unknown) => {
    app.log.error({ err }, 'all.zip failed');
    out.destroy(err as Error);
  };
  // yazl reports a broken entry on the ZipFile itself; unheard, that 'error' would end the process
  zip.on('error', fail);
  reply.header('content-type', 'application/zip').header('content-disposition', attachmentDisposition('all.zip'));
  (async () => {
    const leftOut: string[] = [];
    for (const f of files) {
      if (out.destroyed) return; // the client went away
      let body: Readable;
      try {
        body = await f.store.get(String(f.storage_key));
      } catch (err) {
        app.log.warn({ err, key: f.storage_key }, 'all.zip: a stored file could not be opened, left out');
        leftOut.push(`${entryName(f)}：${err instanceof AppError ? err.message : (err as Error).message}`);
        continue;
      }
      await new Promise<void>((resolve, reject) => {
        const settle = (err?: unknown) => {
          out.off('close', clientGone);
          if (err) reject(err);
          else resolve();
        };
        // the download was cut (client gone or failed): stop reading this file, add no more
        const clientGone = () => {
          body.destroy();
          settle();
        };
        body.once('end', () => settle());
        // `on`, not `once`: a second 'error' after the first must not go unheard
        body.on('error', (err) => settle(err));
        out.once('close', clientGone);
        zip.addReadStream(body, entryName(f), { compress: false });
      });
    }
    if (leftOut.length) {
      const note = ['以下文件在导出时无法读取，未包含在本压缩包中：', ...leftOut, ''].join('\r\n');
      zip.addBuffer(Buffer.from(`\ufeff${note}`, 'utf8'), MISSING_NOTE_NAME);
    }
    zip.end();
  })().catch(fail);
  return sendStream(reply, out, 'all.zip');
}
