import type { Readable } from 'node:stream';

/**
 * The storage contract (issue 12 item 1). One plugin stores every file the application keeps: avatars,
 * pictures, the storage screen's files, data-source uploads and model outputs. Local disk under `DATA_DIR` by
 * default; S3-compatible object storage (Qiniu Kodo, MinIO, OSS, COS) when the storage configuration
 * (`/api/qiNiuConfig`) selects it. Keys are chosen by the server (`<purpose>/<yyyy-MM>/<uuid><ext>`), never by a
 * client. Upload safety (extension and magic bytes agree, allow-list and size cap per purpose) is checked by
 * `checkUpload` before anything is stored.
 */
export type StoragePurpose = 'avatar' | 'picture' | 'file' | 'dataSource' | 'modelOutput' | 'mailImage';

export interface StoredObject {
  key: string;
  size: number;
  contentType: string;
  updateTime?: string;
}

export interface ObjectStore {
  /** 'local' or 's3'. */
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer | Readable, opts: { contentType: string; size?: number }): Promise<StoredObject>;
  /** A stream of the object's bytes; throws a 404 AppError when missing. */
  get(key: string): Promise<Readable>;
  delete(keys: string[]): Promise<void>;
  list(prefix?: string): AsyncIterable<StoredObject>;
  /**
   * A URL a browser can download from: for a private bucket a signed URL valid `ttlSeconds`; for local storage
   * the application's own download route. `filename` becomes the Content-Disposition name.
   */
  downloadUrl(key: string, opts: { filename: string; ttlSeconds?: number }): Promise<string>;
}

export interface Storage {
  /** The store the current configuration selects (local when none is configured). */
  active(): Promise<ObjectStore>;
  /** A new server-chosen key for `purpose` keeping the file's (checked) extension. */
  newKey(purpose: StoragePurpose, extension: string): string;
}

// The implementation is `app.storage` (core/storage/index.ts, a StorageService): it adds `checkUpload`,
// `receive`/`save`/`store` (spooled, checked uploads under server-chosen keys), `storeFor(row)` and `imageUrl`.
