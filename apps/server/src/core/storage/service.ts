import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Selectable } from 'kysely';
import { storedObject } from '@app/shared/contracts/storage';
import type { DB, TypedDb } from '../dbTypes.ts';
import { AppError } from '../errors.ts';
import type { SecretBox } from '../secrets.ts';
import { LocalStore } from './localStore.ts';
import { type CheckedUpload, checkUpload, formatBytes, SNIFF_BYTES, type UploadPolicy, uploadPolicies } from './policy.ts';
import { OUTBOUND_POLICIES } from '../net/outboundGuard.ts';
import { type BucketType, S3Store, type Zone } from './s3Store.ts';
import type { ObjectStore, Storage, StoragePurpose } from './types.ts';

/** The storage configuration row (`tool_storage_config`, id 1), the secret still sealed. */
export interface StorageConfigRow {
  provider: 'local' | 's3';
  accessKey: string;
  /** Sealed with the secret box; never leaves the server. */
  sealedSecretKey: string;
  bucket: string;
  host: string;
  zone: Zone;
  type: BucketType;
  endpoint: string | null;
}

/** Where a stored object lives: the provider, bucket and bucket type its row was written with. */
export interface StoredRef {
  provider: 'local' | 's3';
  bucket: string;
  type: string;
}

/** A checked upload spooled to a temporary file (deleted by `discard` or when stored). */
export interface ReceivedUpload extends CheckedUpload {
  file: string;
  size: number;
  /** The client's name (base name only), kept for display and Content-Disposition. */
  filename: string;
  /** The first bytes (up to SNIFF_BYTES), for readers such as image-size. */
  head: Buffer;
  discard(): Promise<void>;
}

/** A stored upload: the server-chosen key and where it went. */
export interface SavedObject extends StoredRef {
  key: string;
  size: number;
  contentType: string;
  extension: string;
  filename: string;
  head: Buffer;
}

/** The routes the links point at (their contracts: storedObject, publicImage `<prefix>/:purpose/:month/:file`). */
export const LOCAL_LINK_ROUTE = storedObject.path;
export const PUBLIC_IMAGE_ROUTE = '/api/storage/public';
/** Purposes whose raster images are served publicly by their unguessable key (img tags and e-mails send no token). */
export const PUBLIC_IMAGE_PURPOSES: readonly StoragePurpose[] = ['avatar', 'picture', 'mailImage'];

/** What `app.storage` offers: the contract of types.ts plus the upload path every module shares. */
export interface StorageService extends Storage {
  readonly local: LocalStore;
  readonly policies: Record<StoragePurpose, UploadPolicy>;
  /** Extension and magic bytes agree, extension allowed for `purpose`; throws a 400 AppError otherwise. */
  checkUpload(purpose: StoragePurpose, filename: string, firstBytes: Buffer): Promise<CheckedUpload>;
  /** Stream an upload to a temporary file, checking type first and size all along (nothing is kept on failure). */
  receive(purpose: StoragePurpose, filename: string, source: Readable): Promise<ReceivedUpload>;
  /** receive + store under a new server-chosen key in the active store. */
  save(purpose: StoragePurpose, filename: string, source: Readable): Promise<SavedObject>;
  /** Store an already received upload in the active store under a new key. */
  store(purpose: StoragePurpose, upload: ReceivedUpload): Promise<SavedObject>;
  /** The store a row was written to (its provider and bucket), with the current credentials. */
  storeFor(ref: StoredRef): Promise<ObjectStore>;
  /** The ref the active configuration writes new objects with. */
  activeRef(): Promise<StoredRef>;
  /** A URL for an image that works in an img tag: public route (local), `host/key` (公开), presigned (私有). */
  imageUrl(ref: StoredRef, key: string, filename: string): Promise<string>;
  readConfig(): Promise<StorageConfigRow | null>;
  /** A signed, expiring link to the local download route. */
  signLocalLink(key: string, filename: string, ttlSeconds: number): string;
  /** The key and name of a valid local link, or a 403 AppError. */
  verifyLocalLink(query: { key?: string; name?: string; exp?: string | number; sig?: string }): { key: string; name: string };
}

export function createStorageService(opts: {
  db: TypedDb;
  secrets: SecretBox;
  dataDir: string;
  linkSecret: Buffer;
  fileMaxBytes?: number;
  /** STORAGE_ENDPOINT_ALLOWLIST: an S3 endpoint may be loopback or private only when listed. */
  endpointAllowlist?: readonly string[];
}): StorageService {
  const { db, secrets } = opts;
  const root = path.join(opts.dataDir, 'storage');
  const tmpDir = path.join(root, '.tmp');
  // domain-separated from the token secret it is derived from
  const linkKey = crypto.createHmac('sha256', opts.linkSecret).update('storage-download-link-v1').digest();
  const policies = uploadPolicies(opts.fileMaxBytes);

  const signLocalLink = (key: string, filename: string, ttlSeconds: number) => {
    const exp = Math.floor(Date.now() / 1000) + Math.floor(ttlSeconds);
    const sig = crypto.createHmac('sha256', linkKey).update(`${key}\n${filename}\n${exp}`).digest('base64url');
    const q = new URLSearchParams({ key, name: filename, exp: String(exp), sig });
    return `${LOCAL_LINK_ROUTE}?${q}`;
  };
  const local = new LocalStore(root, signLocalLink);

  // one client per distinct settings (rows of another bucket or type reuse theirs); a few at most
  const s3Stores = new Map<string, S3Store>();
  const s3StoreOf = (cfg: StorageConfigRow, bucket = cfg.bucket): S3Store => {
    const secretKey = secrets.open(cfg.sealedSecretKey);
    const settings = { accessKey: cfg.accessKey, secretKey, bucket, host: cfg.host, zone: cfg.zone, type: cfg.type, endpoint: cfg.endpoint };
    const fingerprint = crypto.createHash('sha256').update(JSON.stringify(settings)).digest('hex');
    const known = s3Stores.get(fingerprint);
    if (known) return known;
    // dropped, not destroyed: a request may still be using one
    if (s3Stores.size >= 8) s3Stores.clear();
    const store = new S3Store(settings, OUTBOUND_POLICIES.storage(opts.endpointAllowlist ?? []));
    s3Stores.set(fingerprint, store);
    return store;
  };

  async function readConfig(): Promise<StorageConfigRow | null> {
    let row: Selectable<DB['tool_storage_config']> | undefined;
    try {
      row = await db.selectFrom('tool_storage_config').selectAll().where('id', '=', 1).executeTakeFirst();
    } catch {
      return null; // not migrated (a tool that builds the app without migrations): local storage
    }
    if (!row) return null;
    return {
      provider: row.provider === 's3' ? 's3' : 'local',
      accessKey: String(row.access_key ?? ''),
      sealedSecretKey: String(row.secret_key ?? ''),
      bucket: String(row.bucket ?? ''),
      host: String(row.host ?? ''),
      zone: (row.zone ?? '华东') as Zone,
      type: (row.type ?? '私有') as BucketType,
      endpoint: row.endpoint || null,
    };
  }

  async function active(): Promise<ObjectStore> {
    const cfg = await readConfig();
    return cfg?.provider === 's3' ? s3StoreOf(cfg) : local;
  }

  async function activeRef(): Promise<StoredRef> {
    const cfg = await readConfig();
    return cfg?.provider === 's3' ? { provider: 's3', bucket: cfg.bucket, type: cfg.type } : { provider: 'local', bucket: '', type: '本地' };
  }

  async function storeFor(ref: StoredRef): Promise<ObjectStore> {
    if (ref.provider === 'local') return local;
    const cfg = await readConfig();
    if (cfg?.provider !== 's3' || !cfg.accessKey) throw new AppError('STORAGE_REMOTE_FAILED', { reason: { code: 'STORAGE_S3_NOT_CONFIGURED' } });
    // the row's own bucket type decides signing: a file written private stays signed after a switch to 公开
    return s3StoreOf({ ...cfg, type: ref.type === '公开' ? '公开' : '私有' }, ref.bucket);
  }

  function newKey(purpose: StoragePurpose, extension: string): string {
    const ext = extension.replace(/^\./, '').toLowerCase();
    if (!/^[a-z0-9]{1,10}$/.test(ext)) throw new AppError('STORAGE_NAME_INVALID', {});
    const now = new Date();
    const month = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
    return `${purpose}/${month}/${crypto.randomUUID()}.${ext}`;
  }

  async function receive(purpose: StoragePurpose, filename: string, source: Readable): Promise<ReceivedUpload> {
    await fsp.mkdir(tmpDir, { recursive: true });
    const file = path.join(tmpDir, `${crypto.randomUUID()}.upload`);
    const out = fs.createWriteStream(file, { mode: 0o600 });
    const headParts: Buffer[] = [];
    let headLength = 0;
    let checked: CheckedUpload | undefined;
    let size = 0;
    const discard = () => fsp.rm(file, { force: true });
    const tooLarge = (max: number) => new AppError('UPLOAD_TOO_LARGE', { max: formatBytes(max) });
    try {
      for await (const raw of source) {
        const chunk = raw as Buffer;
        size += chunk.length;
        if (!checked) {
          headParts.push(chunk);
          headLength += chunk.length;
          if (headLength >= SNIFF_BYTES) checked = await checkUpload(purpose, filename, Buffer.concat(headParts).subarray(0, SNIFF_BYTES), policies);
        }
        // the purpose's cap is known only after the check; before it, only the largest cap applies
        if (checked && size > checked.maxBytes) throw tooLarge(checked.maxBytes);
        if (!out.write(chunk)) await once(out, 'drain');
      }
      if ((source as { truncated?: boolean }).truncated) throw tooLarge(checked?.maxBytes ?? policies[purpose].maxBytes);
      if (!checked) checked = await checkUpload(purpose, filename, Buffer.concat(headParts), policies);
      if (size > checked.maxBytes) throw tooLarge(checked.maxBytes);
      out.end();
      await finished(out);
    } catch (err) {
      // the write stream may still be opening its file: remove it only once the stream is closed
      if (!out.closed) {
        const closed = once(out, 'close');
        out.destroy();
        await closed;
      }
      await discard();
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(policies[purpose].maxBytes);
      throw err;
    }
    const head = Buffer.concat(headParts).subarray(0, SNIFF_BYTES);
    return { ...checked, file, size, filename: path.basename(filename.replace(/\\/g, '/')).slice(0, 255), head, discard };
  }

  async function store(purpose: StoragePurpose, upload: ReceivedUpload): Promise<SavedObject> {
    const ref = await activeRef();
    const target = await storeFor(ref);
    const key = newKey(purpose, upload.extension);
    try {
      if (target instanceof LocalStore) await target.adopt(key, upload.file);
      else await target.put(key, fs.createReadStream(upload.file), { contentType: upload.contentType, size: upload.size });
    } finally {
      await upload.discard();
    }
    return { ...ref, key, size: upload.size, contentType: upload.contentType, extension: upload.extension, filename: upload.filename, head: upload.head };
  }

  async function imageUrl(ref: StoredRef, key: string, filename: string): Promise<string> {
    const purpose = key.split('/')[0] as StoragePurpose;
    if (ref.provider === 'local' && PUBLIC_IMAGE_PURPOSES.includes(purpose)) return `${PUBLIC_IMAGE_ROUTE}/${key.split('/').map(encodeURIComponent).join('/')}`;
    const target = await storeFor(ref);
    // private buckets: the longest a presigned URL may live, since pictures are embedded elsewhere
    return target.downloadUrl(key, { filename, ttlSeconds: ref.provider === 'local' ? 3600 : 7 * 24 * 3600 });
  }

  function verifyLocalLink(q: { key?: string; name?: string; exp?: string | number; sig?: string }) {
    const invalid = () => new AppError('STORAGE_LINK_INVALID', {});
    if (!q.key || q.name === undefined || q.exp === undefined || !q.sig) throw invalid();
    const exp = Number(q.exp);
    if (!Number.isInteger(exp) || exp < Date.now() / 1000) throw invalid();
    const expected = crypto.createHmac('sha256', linkKey).update(`${q.key}\n${q.name}\n${exp}`).digest();
    const given = Buffer.from(q.sig, 'base64url');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw invalid();
    return { key: q.key, name: q.name };
  }

  return {
    local,
    policies,
    active,
    activeRef,
    storeFor,
    newKey,
    checkUpload: (purpose, filename, firstBytes) => checkUpload(purpose, filename, firstBytes, policies),
    receive,
    save: async (purpose, filename, source) => store(purpose, await receive(purpose, filename, source)),
    store,
    imageUrl,
    readConfig,
    signLocalLink,
    verifyLocalLink,
  };
}
