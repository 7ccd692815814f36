import type { FastifyInstance } from 'fastify';
import { deleteStorageFile, deleteStorageFiles, type FILE_SORTABLE, listStorageFiles, storageFileDownload, synchronizeStorage, uploadStorageFile } from '@app/shared/contracts/storage';
import type { Selectable } from 'kysely';
import { isUniqueViolation, likeContains, nowIso } from '../../core/db.ts';
import type { DB } from '../../core/dbTypes.ts';
import { AppError } from '../../core/errors.ts';
import { receiveMultipart, type StoredRef } from '../../core/storage/index.ts';
import { formatBytes } from '../../core/storage/policy.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { listPage, registerDeleteRoutes } from './listing.ts';
import { insertStoredRow } from './storedRows.ts';

/**
 * The storage screen's files (`/api/qiNiuContent`): upload through the app (checked, server-chosen key), list with
 * search by name, download as a URL (signed and short-lived unless the bucket is public), synchronise the bucket
 * into the table, delete one or many. A row keeps the provider, bucket and type it was written with; a delete
 * removes the object first and the row only when the store said it is gone.
 */
const TABLE = 'tool_storage_file';
/** Download links of private buckets and local files live this long (recomputed per request, never stored). */
export const DOWNLOAD_TTL_SECONDS = 300;

type Row = Selectable<DB['tool_storage_file']>;

function toApi(r: Row) {
  const bytes = Number(r.size ?? 0);
  const name = String(r.name ?? '');
  const dot = name.lastIndexOf('.');
  return {
    id: Number(r.id),
    key: name,
    objectKey: String(r.object_key),
    bucket: String(r.bucket ?? ''),
    provider: String(r.provider),
    type: String(r.type ?? ''),
    size: formatBytes(bytes),
    bytes,
    suffix: dot > 0 ? name.slice(dot + 1).toLowerCase() : '',
    contentType: String(r.content_type ?? ''),
    username: String(r.username ?? ''),
    createTime: String(r.create_time ?? ''),
    updateTime: String(r.update_time ?? ''),
  };
}

/** Where a file or picture row's object lives. */
export const refOf = (r: Pick<Row, 'provider' | 'bucket' | 'type'>): StoredRef => ({ provider: r.provider === 's3' ? 's3' : 'local', bucket: String(r.bucket ?? ''), type: String(r.type ?? '') });

export function registerStorageFiles(fastify: FastifyInstance): void {
  const app = fastify;
  const { db, dialect } = app.ctx;
  const sortable: Record<(typeof FILE_SORTABLE)[number], string> = { id: 'id', key: 'name', size: 'size', updateTime: 'update_time', createTime: 'create_time', type: 'type' };

  routeContract(app, listStorageFiles, async (req) => {
      const q = req.query;
      let base = db.selectFrom(TABLE);
      if (q.key) base = base.where(likeContains(dialect, 'name', q.key));
      const { rows, totalElements } = await listPage(base, q, sortable);
      return { content: rows.map(toApi), totalElements };
  });

  routeContract(app, uploadStorageFile, async (req) => {
      const upload = await receiveMultipart(req, 'file');
      const saved = await app.storage.store('file', upload);
      const now = nowIso();
      const row = {
        name: saved.filename,
        object_key: saved.key,
        provider: saved.provider,
        bucket: saved.bucket,
        type: saved.type,
        size: saved.size,
        content_type: saved.contentType,
        username: req.user!.username,
        create_time: now,
        update_time: now,
      };
      const id = await insertStoredRow(app, TABLE, row, saved);
      const url = await (await app.storage.storeFor(saved)).downloadUrl(saved.key, { filename: saved.filename, ttlSeconds: DOWNLOAD_TTL_SECONDS });
      return { id, errno: 0, data: [url] };
  });

  routeContract(app, storageFileDownload, async (req) => {
      const row = await db.selectFrom(TABLE).selectAll().where('id', '=', req.params.id).executeTakeFirst();
      if (!row) throw new AppError('STORAGE_OBJECT_MISSING', {});
      const store = await app.storage.storeFor(refOf(row));
      return { url: await store.downloadUrl(String(row.object_key), { filename: String(row.name), ttlSeconds: DOWNLOAD_TTL_SECONDS }) };
  });

  routeContract(app, synchronizeStorage, async () => {
      const ref = await app.storage.activeRef();
      const store = await app.storage.storeFor(ref);
      const known = new Set(
        (await db.selectFrom(TABLE).select('object_key').where('provider', '=', ref.provider).where('bucket', '=', ref.bucket).execute()).map((r) => r.object_key),
      );
      const seen = new Set<string>();
      let added = 0;
      // pictures and avatars live in the same store but have their own screens
      const ownedElsewhere = /^(avatar|picture|mailImage|dataSource|modelOutput)\//;
      for await (const o of store.list()) {
        if (ownedElsewhere.test(o.key) || o.key.length > 500) continue;
        seen.add(o.key);
        if (known.has(o.key)) continue;
        const now = nowIso();
        try {
          await db
            .insertInto(TABLE)
            .values({
              name: o.key.slice(o.key.lastIndexOf('/') + 1).slice(0, 255),
              object_key: o.key,
              provider: ref.provider,
              bucket: ref.bucket,
              type: ref.type,
              size: o.size,
              content_type: o.contentType,
              username: null,
              create_time: o.updateTime ?? now,
              update_time: o.updateTime ?? now,
            })
            .execute();
          added++;
        } catch (err) {
          if (!isUniqueViolation(err)) throw err; // a concurrent synchronise added it
        }
      }
      // rows whose object is gone are reported, not silently deleted (the user decides)
      const missingRemote = [...known].filter((k) => !seen.has(k) && !ownedElsewhere.test(k)).length;
      return { message: '数据同步成功', added, missingRemote };
  });

  async function deleteRows(ids: number[]): Promise<void> {
    const rows = await db.selectFrom(TABLE).selectAll().where('id', 'in', ids).execute();
    if (rows.length !== ids.length) {
      const found = new Set(rows.map((r) => Number(r.id)));
      throw new AppError('RECORDS_NOT_FOUND', { resource: '文件', ids: ids.filter((i) => !found.has(i)).join(',') });
    }
    // remote first, grouped by where each row lives; a failure keeps every row of that group
    const groups = new Map<string, { ref: StoredRef; rows: Row[] }>();
    for (const r of rows) {
      const ref = refOf(r);
      const k = `${ref.provider}\n${ref.bucket}`;
      if (!groups.has(k)) groups.set(k, { ref, rows: [] });
      groups.get(k)!.rows.push(r);
    }
    for (const { ref, rows: group } of groups.values()) {
      const store = await app.storage.storeFor(ref);
      await store.delete(group.map((r) => String(r.object_key)));
      await db
        .deleteFrom(TABLE)
        .where(
          'id',
          'in',
          group.map((r) => Number(r.id)),
        )
        .execute();
    }
  }

  registerDeleteRoutes(app, { one: deleteStorageFile, many: deleteStorageFiles, remove: deleteRows });
}
