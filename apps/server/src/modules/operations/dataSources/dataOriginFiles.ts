import fs from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { nowIso } from '../../../core/db.ts';
import { AppError } from '../../../core/errors.ts';
import type { ReceivedUpload } from '../../../core/storage/index.ts';
import { openExcelRead } from './fileSource.ts';
import { storageOf, uploadMaxBytes } from './read.ts';

/** A file source's stored file: the upload (`/dataOrigin/upload`) and its deletion with the source. */

export async function deleteStoredFile(app: FastifyInstance, key: string, ref: string | null): Promise<void> {
  try {
    const storage = storageOf(app);
    const store = ref ? await storage.storeFor(JSON.parse(ref)) : await storage.active();
    await store.delete([key]);
    await app.ctx.db.deleteFrom('data_source_upload').where('storage_key', '=', key).execute();
  } catch (err) {
    // the row is gone either way; an object left behind is found by the storage screen's synchronisation
    app.log.warn({ err: (err as Error).message, key }, 'data-source file not deleted');
  }
}

const DATA_FILE_EXTENSIONS = ['csv', 'xls', 'xlsx'];

/** The multipart upload: checked by the storage plugin (extension, magic bytes), capped, a workbook opened once. */
export async function receiveUpload(app: FastifyInstance, req: FastifyRequest) {
  if (!req.isMultipart()) throw new AppError('UPLOAD_REQUIRED', {});
  const storage = storageOf(app);
  const max = uploadMaxBytes(app);
  const file = await req.file({ limits: { fileSize: max, files: 1 } });
  if (!file) throw new AppError('UPLOAD_REQUIRED', {});
  if (file.fieldname !== 'file') {
    file.file.resume();
    throw new AppError('UPLOAD_FIELD', {});
  }
  const ext = (file.filename.split('.').pop() ?? '').toLowerCase();
  if (!DATA_FILE_EXTENSIONS.includes(ext) || !file.filename.includes('.')) {
    file.file.resume();
    throw new AppError('DATASOURCE_FILE_TYPE', {});
  }
  let upload: ReceivedUpload;
  try {
    upload = await storage.receive('dataSource', file.filename, file.file);
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' || file.file.truncated) throw new AppError('UPLOAD_TOO_LARGE', { max: `${Math.round(max / 1024 / 1024)}MB` });
    throw err;
  }
  try {
    if (file.file.truncated || upload.size > max) throw new AppError('UPLOAD_TOO_LARGE', { max: `${Math.round(max / 1024 / 1024)}MB` });
    if (ext !== 'csv') {
      // a workbook that cannot be opened or has no header is refused now, not at save
      const reader = await openExcelRead(await fs.readFile(upload.file), { limit: 1 });
      await reader.close();
    }
    const saved = await storage.store('dataSource', upload);
    await app.ctx.db
      .insertInto('data_source_upload')
      .values({
        storage_key: saved.key,
        storage_ref: JSON.stringify({ provider: saved.provider, bucket: saved.bucket, type: saved.type }),
        file_name: upload.filename,
        extension: ext,
        size: saved.size,
        owner_id: req.user!.id,
        create_time: nowIso(),
      })
      .execute();
    return { path: saved.key, url: saved.key, fileName: upload.filename, size: saved.size, message: '上传文件成功' };
  } catch (err) {
    await upload.discard().catch(() => undefined);
    throw err;
  }
}

