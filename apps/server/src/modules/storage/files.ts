import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import { isUniqueViolation, likeContains, nowIso } from '../../core/db.ts';
import type { DB } from '../../core/dbTypes.ts';
import { AppError } from '../../core/errors.ts';
import { receiveMultipart, type StoredRef } from '../../core/storage/index.ts';
import { formatBytes } from '../../core/storage/policy.ts';
import { idParams, queryText } from '../../crud/routeSchemas.ts';
import { listPage, paging, registerDeleteRoutes, sortSchema } from './listing.ts';
import { insertStoredRow } from './storedRows.ts';

/**
 * The storage screen's files (`/api/qiNiuContent`): upload through the app (checked, server-chosen key), list with
 * search by name, download as a URL (signed and short-lived unless the bucket is public), synchronise the bucket
 * into the table, delete one or many. A row keeps the provider, bucket and type it was written with; a delete
 * removes the object first and the row only when the store said it is gone.
 */
const TABLE = 'tool_storage_file';
// spec §6: the storage file delete and download column answer to PICTURE_ALL or PICTURE_DELETE too
export const FILE_READ = ['STORAGE_ALL', 'STORAGE_SELECT', 'PICTURE_ALL'];
export const FILE_UPLOAD = ['STORAGE_ALL', 'STORAGE_UPLOAD', 'PICTURE_ALL', 'PICTURE_UPLOAD'];
export const FILE_DELETE = ['STORAGE_ALL', 'STORAGE_DELETE', 'PICTURE_ALL', 'PICTURE_DELETE'];
/** Download links of private buckets and local files live this long (recomputed per request, never stored). */
export const DOWNLOAD_TTL_SECONDS = 300;

type Row = Selectable<DB['tool_storage_file']>;

const fileRow = z.object({
  id: z.number(),
  key: z.string(),
  objectKey: z.string(),
  bucket: z.string(),
  provider: z.string(),
  type: z.string(),
  size: z.string(),
  bytes: z.number(),
  suffix: z.string(),
  contentType: z.string(),
  username: z.string(),
  createTime: z.string(),
  updateTime: z.string(),
});

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
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, dialect } = app.ctx;
  const tags = ['存储管理'];
  const sortable: Record<string, string> = { id: 'id', key: 'name', size: 'size', updateTime: 'update_time', createTime: 'create_time', type: 'type' };

  const listQuery = z.object({ ...paging, sort: sortSchema(Object.keys(sortable)), key: queryText('文件名不能超过100个字符') });
  app.get(
    '/api/qiNiuContent',
    { config: { auth: FILE_READ }, schema: { tags, summary: '文件列表（按文件名搜索，分页）', querystring: listQuery, response: { 200: z.object({ content: z.array(fileRow), totalElements: z.number() }) } } },
    async (req) => {
      const q = req.query;
      let base = db.selectFrom(TABLE);
      if (q.key) base = base.where(likeContains(dialect, 'name', q.key));
      const { rows, totalElements } = await listPage(base, q, sortable);
      return { content: rows.map(toApi), totalElements };
    },
  );

  app.post(
    '/api/qiNiuContent',
    {
      config: { auth: FILE_UPLOAD, log: '上传文件' },
      schema: { tags, summary: '上传文件（multipart 字段 file），返回 id 与地址', response: { 200: z.object({ id: z.number(), errno: z.number(), data: z.array(z.string()) }) } },
    },
    async (req) => {
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
    },
  );

  app.get(
    '/api/qiNiuContent/download/:id',
    { config: { auth: FILE_READ }, schema: { tags, summary: '下载地址（私有空间与本地存储为短时签名地址）', params: idParams, response: { 200: z.object({ url: z.string() }) } } },
    async (req) => {
      const row = await db.selectFrom(TABLE).selectAll().where('id', '=', req.params.id).executeTakeFirst();
      if (!row) throw new AppError('STORAGE_OBJECT_MISSING', {});
      const store = await app.storage.storeFor(refOf(row));
      return { url: await store.downloadUrl(String(row.object_key), { filename: String(row.name), ttlSeconds: DOWNLOAD_TTL_SECONDS }) };
    },
  );

  app.post(
    '/api/qiNiuContent/synchronize',
    {
      config: { auth: ['STORAGE_ALL', 'STORAGE_UPLOAD'], log: '同步存储文件' },
      schema: { tags, summary: '同步：把存储空间中尚未登记的文件登记到列表', response: { 200: z.object({ message: z.string(), added: z.number(), missingRemote: z.number() }) } },
    },
    async () => {
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
    },
  );

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

  registerDeleteRoutes(app, {
    path: '/api/qiNiuContent',
    auth: FILE_DELETE,
    tags,
    one: { log: '删除文件', summary: '删除文件（先删存储中的对象）' },
    many: { log: '批量删除文件', summary: '批量删除文件' },
    remove: deleteRows,
  });
}
