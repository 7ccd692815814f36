import type { S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { AppError } from '../errors.ts';
import { contentDisposition, contentTypeOfKey, servesInline } from './policy.ts';
import type { ObjectStore, StoredObject } from './types.ts';

/**
 * S3-compatible object storage: Qiniu Kodo through its S3 endpoint (the zone decides which), or MinIO, OSS, COS
 * through an endpoint override. Private buckets only ever yield presigned URLs, computed per request (never
 * stored: they expire); public buckets yield `<host>/<key>`. Objects that must not render in a browser are
 * written with `Content-Disposition: attachment`, so even a public URL downloads them.
 */

/** Spec §9 zones → Kodo S3 regions (developer.qiniu.com/kodo/4088; verify before a release). */
export const ZONES = {
  华东: 'cn-east-1',
  华北: 'cn-north-1',
  华南: 'cn-south-1',
  北美: 'us-north-1',
  东南亚: 'ap-southeast-1',
} as const;
export type Zone = keyof typeof ZONES;
export const ZONE_NAMES = Object.keys(ZONES) as Zone[];
/** Spec §9 bucket types. */
export const BUCKET_TYPES = ['公开', '私有'] as const;
export type BucketType = (typeof BUCKET_TYPES)[number];

export interface S3Settings {
  accessKey: string;
  secretKey: string;
  bucket: string;
  /** The bound domain public URLs are built on (Qiniu needs one). */
  host: string;
  zone: Zone;
  type: BucketType;
  /** Any S3-compatible endpoint instead of Kodo's (MinIO, OSS, COS, tests); path-style addressing then. */
  endpoint?: string | null;
}

/** Longest presigned URL S3 accepts is 7 days; we never hand out more than one hour for files. */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

type S3Sdk = typeof import('@aws-sdk/client-s3') & Pick<typeof import('@aws-sdk/s3-request-presigner'), 'getSignedUrl'>;
let sdkLoading: Promise<S3Sdk> | undefined;
/**
 * The AWS SDK, loaded when the first S3 store is used: it is ~7 MB of heap and ~30 MB of memory that
 * installations keeping their files on the local disk (the default) never need.
 */
function loadSdk(): Promise<S3Sdk> {
  sdkLoading ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]).then(([s3, presigner]) => ({ ...s3, getSignedUrl: presigner.getSignedUrl }));
  return sdkLoading;
}

export class S3Store implements ObjectStore {
  readonly kind = 's3' as const;
  #connection: Promise<{ client: S3Client; sdk: S3Sdk }> | undefined;

  constructor(readonly settings: S3Settings) {}

  /** The SDK and this store's client, made on first use. */
  s3(): Promise<{ client: S3Client; sdk: S3Sdk }> {
    this.#connection ??= loadSdk().then((sdk) => {
      const region = ZONES[this.settings.zone] ?? 'cn-east-1';
      const endpoint = this.settings.endpoint || `https://s3.${region}.qiniucs.com`;
      const client = new sdk.S3Client({
        region,
        endpoint,
        forcePathStyle: !!this.settings.endpoint,
        credentials: { accessKeyId: this.settings.accessKey, secretAccessKey: this.settings.secretKey },
        // Kodo and most S3 look-alikes reject the newer default checksums on PutObject
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        maxAttempts: 2,
      });
      return { client, sdk };
    });
    return this.#connection;
  }

  /** Closes the client's connections (a store made for one check). */
  async close(): Promise<void> {
    if (this.#connection) (await this.#connection).client.destroy();
  }

  get bucket(): string {
    return this.settings.bucket;
  }

  get isPrivate(): boolean {
    return this.settings.type !== '公开';
  }

  async put(key: string, body: Buffer | Readable, opts: { contentType: string; size?: number }): Promise<StoredObject> {
    const size = Buffer.isBuffer(body) ? body.length : opts.size;
    const { client, sdk } = await this.s3();
    await this.call(() =>
      client.send(
        new sdk.PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ContentLength: size,
          ContentType: opts.contentType,
          ...(servesInline(key) ? {} : { ContentDisposition: 'attachment' }),
        }),
      ),
    );
    return { key, size: size ?? 0, contentType: opts.contentType, updateTime: new Date().toISOString() };
  }

  async get(key: string): Promise<Readable> {
    const { client, sdk } = await this.s3();
    const res = await this.call(() => client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key })));
    return res.Body as Readable;
  }

  async head(key: string): Promise<StoredObject | null> {
    const { client, sdk } = await this.s3();
    try {
      const res = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: Number(res.ContentLength ?? 0), contentType: res.ContentType ?? contentTypeOfKey(key), updateTime: res.LastModified?.toISOString() };
    } catch (err) {
      if (isMissing(err)) return null;
      throw remoteError(err);
    }
  }

  async delete(keys: string[]): Promise<void> {
    const { client, sdk } = await this.s3();
    for (let i = 0; i < keys.length; i += 1000) {
      const chunk = keys.slice(i, i + 1000);
      const res = await this.call(() =>
        client.send(new sdk.DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: chunk.map((Key) => ({ Key })), Quiet: true } })),
      );
      // a key already gone counts as deleted; anything else stops the caller from dropping its rows
      const failed = (res.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length) throw new AppError('STORAGE_REMOTE_FAILED', { reason: `${failed[0].Key}: ${failed[0].Code ?? ''} ${failed[0].Message ?? ''}`.trim() });
    }
  }

  async *list(prefix?: string): AsyncIterable<StoredObject> {
    const { client, sdk } = await this.s3();
    let token: string | undefined;
    do {
      const res = await this.call(() =>
        client.send(new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix || undefined, ContinuationToken: token, MaxKeys: 1000 })),
      );
      for (const o of res.Contents ?? []) {
        if (!o.Key || o.Key.startsWith('.probe/')) continue;
        yield { key: o.Key, size: Number(o.Size ?? 0), contentType: contentTypeOfKey(o.Key), updateTime: o.LastModified?.toISOString() };
      }
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
  }

  /** Public bucket: `<host>/<key>`. Private: a presigned GET (the only kind of URL a private bucket ever yields). */
  async downloadUrl(key: string, opts: { filename: string; ttlSeconds?: number }): Promise<string> {
    if (!this.isPrivate) return `${this.settings.host.replace(/\/+$/, '')}/${key.split('/').map(encodeURIComponent).join('/')}`;
    const inline = servesInline(key);
    const { client, sdk } = await this.s3();
    const command = new sdk.GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: contentDisposition(opts.filename, inline),
      ResponseContentType: contentTypeOfKey(key),
    });
    const expiresIn = Math.min(Math.max(opts.ttlSeconds ?? 300, 1), MAX_PRESIGN_SECONDS);
    return sdk.getSignedUrl(client, command, { expiresIn });
  }

  /** A presigned PUT of one server-chosen key (direct uploads to non-Qiniu providers). */
  async uploadUrl(key: string, contentType: string, ttlSeconds: number): Promise<string> {
    const { client, sdk } = await this.s3();
    return sdk.getSignedUrl(client, new sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }), { expiresIn: ttlSeconds });
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw remoteError(err);
    }
  }
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** The provider's failure as a clear message (never the credentials: the SDK's messages do not carry them). */
export function remoteError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isMissing(err) && (err as { name?: string }).name !== 'NoSuchBucket') return new AppError('STORAGE_OBJECT_MISSING', {});
  const e = err as { name?: string; message?: string; code?: string };
  // (the SDK's service exceptions carry `$fault`; tested by shape so that this needs no SDK loaded)
  const serviceError = typeof (err as { $fault?: unknown })?.$fault === 'string';
  const reason = serviceError ? `${e.name}: ${e.message}` : `${e?.code ?? e?.name ?? 'Error'}: ${e?.message ?? String(err)}`;
  return new AppError('STORAGE_REMOTE_FAILED', { reason: reason.slice(0, 200) });
}
