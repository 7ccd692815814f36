import fsp from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { deletePicture, deletePictures, listPictures, type PICTURE_SORTABLE, uploadPicture } from '@app/shared/contracts/storage';
import { imageSize } from 'image-size';
import type { Selectable } from 'kysely';
import { likeContains, nowIso } from '../../core/db.ts';
import type { DB } from '../../core/dbTypes.ts';
import { AppError } from '../../core/errors.ts';
import { receiveMultipart } from '../../core/storage/index.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { refOf } from './files.ts';
import { listPage, registerDeleteRoutes } from './listing.ts';
import { insertStoredRow } from './storedRows.ts';

/**
 * Pictures (`/api/pictures`, the 图床): PNG, JPEG, GIF or WebP checked by content, width and height read with
 * image-size, stored through app.storage under `picture/`, listed with search by file name and with URLs that work
 * in an img tag (public route for local files, `host/key` for a public bucket, presigned for a private one).
 */
const TABLE = 'tool_picture';

type Row = Selectable<DB['tool_picture']>;

export function registerPictures(fastify: FastifyInstance): void {
  const app = fastify;
  const { db, dialect } = app.ctx;
  const sortable: Record<(typeof PICTURE_SORTABLE)[number], string> = { id: 'id', filename: 'filename', size: 'size', createTime: 'create_time' };

  const toApi = async (r: Row) => ({
    id: Number(r.id),
    filename: String(r.filename),
    username: String(r.username ?? ''),
    url: await app.storage.imageUrl(refOf(r), String(r.object_key), String(r.filename)).catch(() => ''),
    size: Number(r.size ?? 0),
    width: Number(r.width ?? 0),
    height: Number(r.height ?? 0),
    createTime: String(r.create_time ?? ''),
  });

  routeContract(app, listPictures, async (req) => {
      const q = req.query;
      const search = q.filename ?? q.blurry;
      let base = db.selectFrom(TABLE);
      if (search) base = base.where(likeContains(dialect, 'filename', search));
      const { rows, totalElements } = await listPage(base, q, sortable);
      return { content: await Promise.all(rows.map(toApi)), totalElements };
  });

  routeContract(app, uploadPicture, async (req, reply) => {
      const upload = await receiveMultipart(req, 'picture');
      let dims: { width: number; height: number };
      try {
        // the whole file (≤ 10 MB): a JPEG's size marker may follow a large EXIF block
        const d = imageSize(await fsp.readFile(upload.file));
        if (!d.width || !d.height) throw new Error('no size');
        dims = { width: d.width, height: d.height };
      } catch {
        await upload.discard();
        throw new AppError('PICTURE_UNREADABLE', {});
      }
      const saved = await app.storage.store('picture', upload);
      const now = nowIso();
      const row = {
        filename: saved.filename,
        object_key: saved.key,
        provider: saved.provider,
        bucket: saved.bucket,
        type: saved.type,
        size: saved.size,
        width: dims.width,
        height: dims.height,
        username: req.user!.username,
        create_time: now,
        update_time: now,
      };
      const id = await insertStoredRow(app, TABLE, row, saved);
      return reply.code(201).send(await toApi({ id, ...row }));
  });

  async function removePictures(ids: number[]): Promise<void> {
    const rows = await db.selectFrom(TABLE).selectAll().where('id', 'in', ids).execute();
    if (rows.length !== ids.length) {
      const found = new Set(rows.map((r) => Number(r.id)));
      throw new AppError('RECORDS_NOT_FOUND', { resource: '图片', ids: ids.filter((i) => !found.has(i)).join(',') });
    }
    // the object first: a row is dropped only once its picture is gone (or was already)
    for (const r of rows) {
      await (await app.storage.storeFor(refOf(r))).delete([String(r.object_key)]);
      await db.deleteFrom(TABLE).where('id', '=', Number(r.id)).execute();
    }
  }

  registerDeleteRoutes(app, { one: deletePicture, many: deletePictures, remove: removePictures });
}
