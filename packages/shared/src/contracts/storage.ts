import { z } from 'zod';
import { pageSchema, sizeSchema } from '../resource/index.ts';
import { defineContract } from './contract.ts';
import { idSchema, queryText } from './schemas.ts';
import { codedIssue, codedText } from '../errors/zodIssues.ts';

/**
 * 存储管理 and 图床管理 (spec §7): the storage configuration (SecretKey write-only), the file list with uploads through
 * the app, signed download links, 同步 and deletes, direct-upload tokens, and the pictures. Server:
 * apps/server/src/modules/storage; screens: apps/web/src/modules/tools/storage.
 */
const storageTags = ['存储管理'] as const;
const pictureTags = ['图床管理'] as const;

/** Qiniu Kodo's zones (an S3 endpoint, when given, takes precedence); the bucket's access type. */
export const STORAGE_ZONES = ['华东', '华北', '华南', '北美', '东南亚'] as const;
export type StorageZone = (typeof STORAGE_ZONES)[number];
export const BUCKET_TYPES = ['公开', '私有'] as const;

// spec §6: the storage file delete and download column answer to PICTURE_ALL or PICTURE_DELETE too
export const STORAGE_CODES = {
  configRead: ['STORAGE_ALL', 'STORAGE_SELECT', 'STORAGE_EDIT'],
  configEdit: ['STORAGE_ALL', 'STORAGE_EDIT'],
  fileRead: ['STORAGE_ALL', 'STORAGE_SELECT', 'PICTURE_ALL'],
  fileUpload: ['STORAGE_ALL', 'STORAGE_UPLOAD', 'PICTURE_ALL', 'PICTURE_UPLOAD'],
  fileDelete: ['STORAGE_ALL', 'STORAGE_DELETE', 'PICTURE_ALL', 'PICTURE_DELETE'],
  synchronize: ['STORAGE_ALL', 'STORAGE_UPLOAD'],
  pictureRead: ['PICTURE_ALL', 'PICTURE_SELECT', 'PICTURE_UPLOAD', 'PICTURE_DELETE'],
  pictureUpload: ['PICTURE_ALL', 'PICTURE_UPLOAD'],
  pictureDelete: ['PICTURE_ALL', 'PICTURE_DELETE'],
} as const;

/** `sort=field,dir` (repeatable, up to 5) over the listed fields; default newest first. */
export function sortSchema(fields: readonly string[]) {
  return z
    .union([z.string().max(40), z.array(z.string().max(40)).max(5)])
    .optional()
    .transform((raw, ctx) => {
      const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
      const out: [string, 'asc' | 'desc'][] = [];
      for (const s of list) {
        if (!s) continue;
        const [field, dir = 'asc'] = s.split(',').map((x) => x.trim());
        if (!fields.includes(field)) {
          ctx.addIssue(codedIssue('SORT_FIELD', { value: field.slice(0, 40) }, s));
          return z.NEVER;
        }
        const d = dir.toLowerCase();
        if (d !== 'asc' && d !== 'desc') {
          ctx.addIssue(codedIssue('SORT_DIRECTION', { value: dir.slice(0, 20) }, s));
          return z.NEVER;
        }
        out.push([field, d]);
      }
      return out;
    });
}

/**
 * Batch delete body: a JSON array of 1..1000 ids. An empty array is the spec's "at least one selected row"
 * ('请至少选择一条记录'), not a generic bad request.
 */
export const selectedIds = z
  .array(z.unknown(), codedText('DELETE_IDS_REQUIRED'))
  .max(1000, codedText('DELETE_TOO_MANY'))
  .refine((a) => a.length > 0, codedText('STORAGE_SELECT_ONE'))
  .pipe(z.array(idSchema()))
  .transform((ids) => [...new Set(ids)]);

const idParams = z.object({ id: idSchema() });
const paging = { page: pageSchema, size: sizeSchema };
const nothing = z.object({});

export const FILE_SORTABLE = ['id', 'key', 'size', 'updateTime', 'createTime', 'type'] as const;
export const PICTURE_SORTABLE = ['id', 'filename', 'size', 'createTime'] as const;

export const storageConfigAnswer = z.object({
  provider: z.enum(['local', 's3']),
  accessKey: z.string(),
  /** `******` when one is stored, '' otherwise; never the secret. */
  secretKey: z.string(),
  hasSecret: z.boolean(),
  bucket: z.string(),
  host: z.string(),
  zone: z.enum(STORAGE_ZONES),
  type: z.enum(BUCKET_TYPES),
  endpoint: z.string(),
});
export type StorageConfig = z.infer<typeof storageConfigAnswer>;

const text = (label: string, max: number) =>
  z
    .string(codedText('FIELD_NOT_TEXT', { label }))
    .max(max, codedText('FIELD_TOO_LONG', { label, max }))
    .refine((s) => !s.includes('\u0000'), codedText('FIELD_NUL', { label }))
    .optional()
    .nullable();

export const storageConfigBody = z.object({
  provider: z.enum(['local', 's3'], codedText('STORAGE_PROVIDER_INVALID')).optional(),
  accessKey: text('AccessKey', 200),
  secretKey: text('SecretKey', 200),
  bucket: text('空间名称', 100),
  host: text('外链域名', 255),
  zone: z.enum(STORAGE_ZONES, codedText('STORAGE_ZONE_INVALID')).optional().nullable(),
  type: z.enum(BUCKET_TYPES, codedText('STORAGE_BUCKET_TYPE_INVALID')).optional().nullable(),
  endpoint: text('服务地址', 255),
});

export const storageFileRow = z.object({
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
export type StorageFile = z.infer<typeof storageFileRow>;

export const pictureRow = z.object({
  id: z.number(),
  filename: z.string(),
  username: z.string(),
  url: z.string(),
  size: z.number(),
  width: z.number(),
  height: z.number(),
  createTime: z.string(),
});
export type Picture = z.infer<typeof pictureRow>;

export const storageConfig = defineContract({
  method: 'GET',
  path: '/api/qiNiuConfig',
  auth: STORAGE_CODES.configRead,
  summary: '存储配置（SecretKey 只显示掩码）',
  tags: storageTags,
  response: storageConfigAnswer,
});

export const saveStorageConfig = defineContract({
  method: 'PUT',
  path: '/api/qiNiuConfig',
  auth: STORAGE_CODES.configEdit,
  summary: '保存存储配置（保存对象存储前先测试连接）',
  log: '修改存储配置',
  tags: storageTags,
  body: storageConfigBody,
});

export const listStorageFiles = defineContract({
  method: 'GET',
  path: '/api/qiNiuContent',
  auth: STORAGE_CODES.fileRead,
  summary: '文件列表（按文件名搜索，分页）',
  tags: storageTags,
  query: z.object({ ...paging, sort: sortSchema(FILE_SORTABLE), key: queryText({ code: 'TEXT_TOO_LONG', params: { label: '文件名', max: 100 } }) }),
  response: z.object({ content: z.array(storageFileRow), totalElements: z.number() }),
});

/** multipart, field `file`: the server checks the content and chooses the key. */
export const uploadStorageFile = defineContract({
  method: 'POST',
  path: '/api/qiNiuContent',
  auth: STORAGE_CODES.fileUpload,
  summary: '上传文件（multipart 字段 file），返回 id 与地址',
  log: '上传文件',
  tags: storageTags,
  response: z.object({ id: z.number(), errno: z.number(), data: z.array(z.string()) }),
});

export const storageFileDownload = defineContract({
  method: 'GET',
  path: '/api/qiNiuContent/download/:id',
  auth: STORAGE_CODES.fileRead,
  summary: '下载地址（私有空间与本地存储为短时签名地址）',
  tags: storageTags,
  params: idParams,
  response: z.object({ url: z.string() }),
});

export const synchronizeStorage = defineContract({
  method: 'POST',
  path: '/api/qiNiuContent/synchronize',
  auth: STORAGE_CODES.synchronize,
  summary: '同步：把存储空间中尚未登记的文件登记到列表',
  log: '同步存储文件',
  tags: storageTags,
  response: z.object({ message: z.string(), added: z.number(), missingRemote: z.number() }),
});

export const deleteStorageFile = defineContract({
  method: 'DELETE',
  path: '/api/qiNiuContent/:id',
  auth: STORAGE_CODES.fileDelete,
  summary: '删除文件（先删存储中的对象）',
  log: '删除文件',
  tags: storageTags,
  params: idParams,
  response: nothing,
});

export const deleteStorageFiles = defineContract({
  method: 'DELETE',
  path: '/api/qiNiuContent',
  auth: STORAGE_CODES.fileDelete,
  summary: '批量删除文件',
  log: '批量删除文件',
  tags: storageTags,
  body: selectedIds,
  response: nothing,
});

export const uploadToken = defineContract({
  method: 'GET',
  path: '/qiniu/upload/token',
  auth: STORAGE_CODES.fileUpload,
  summary: '直传凭证（七牛上传凭证或预签名 PUT，限定一个服务端生成的 key）',
  tags: storageTags,
  query: z.object({ filename: z.string().max(255, codedText('TEXT_TOO_LONG', { label: '文件名', max: 255 })).optional() }),
  response: z.object({
    provider: z.enum(['local', 'qiniu', 's3']),
    method: z.enum(['POST', 'PUT']),
    uploadUrl: z.string(),
    key: z.string(),
    token: z.string(),
    deadline: z.number(),
  }),
});

export const listPictures = defineContract({
  method: 'GET',
  path: '/api/pictures',
  auth: STORAGE_CODES.pictureRead,
  summary: '图片列表（按文件名搜索，分页）',
  tags: pictureTags,
  // the spec notes the old screen sent the name filter under another key: `filename` and `blurry` both search it
  query: z.object({
    ...paging,
    sort: sortSchema(PICTURE_SORTABLE),
    filename: queryText({ code: 'TEXT_TOO_LONG', params: { label: '文件名', max: 100 } }),
    blurry: queryText({ code: 'TEXT_TOO_LONG', params: { label: '文件名', max: 100 } }),
  }),
  response: z.object({ content: z.array(pictureRow), totalElements: z.number() }),
});

/** multipart, field `file`: PNG/JPG/GIF/WebP checked by content, at most 10 MB. */
export const uploadPicture = defineContract({
  method: 'POST',
  path: '/api/pictures',
  auth: STORAGE_CODES.pictureUpload,
  summary: '上传图片（multipart 字段 file；PNG/JPG/GIF/WebP，最大 10MB）',
  log: '上传图片',
  tags: pictureTags,
  created: true,
  response: pictureRow,
});

export const deletePicture = defineContract({
  method: 'DELETE',
  path: '/api/pictures/:id',
  auth: STORAGE_CODES.pictureDelete,
  summary: '删除图片',
  log: '删除图片',
  tags: pictureTags,
  params: idParams,
  response: nothing,
});

export const deletePictures = defineContract({
  method: 'DELETE',
  path: '/api/pictures',
  auth: STORAGE_CODES.pictureDelete,
  summary: '批量删除图片（至少选择一条）',
  log: '批量删除图片',
  tags: pictureTags,
  body: selectedIds,
  response: nothing,
});

// ---- 本地存储的文件 (files answer; public: the link itself is the permission) -----------------------------------

const linkText = (max: number) => z.string().max(max).optional();

/**
 * A file of the local store by a signed, expiring link (what the server's `downloadUrl` hands out for local
 * files): the signature over key, name and expiry is the permission, so the route is public.
 */
export const storedObject = defineContract({
  method: 'GET',
  path: '/api/storage/object',
  auth: 'public',
  summary: '下载本地存储的文件（签名且有时效的链接）',
  tags: storageTags,
  query: z.object({ key: linkText(512), name: linkText(255), exp: linkText(20), sig: linkText(100) }),
});

/**
 * A raster image of an avatar, a picture or a mail image by its unguessable key
 * (`<purpose>/<yyyy-MM>/<uuid>.<png|jpg|gif|webp>`), for img tags and e-mails that carry no token: public.
 */
export const publicImage = defineContract({
  method: 'GET',
  path: '/api/storage/public/:purpose/:month/:file',
  auth: 'public',
  summary: '公开图片（头像、图床、邮件图片）',
  tags: storageTags,
  params: z.object({ purpose: z.string().max(20), month: z.string().max(7), file: z.string().max(60) }),
});
