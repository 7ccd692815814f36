import type { S3Client } from '@aws-sdk/client-s3';
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { AppError } from '../errors.ts';
import { guardedLookup, type OutboundPolicy, resolveOutbound } from '../net/outboundGuard.ts';
import { contentDisposition, contentTypeOfKey, servesInline } from './policy.ts';
import type { ObjectStore, StoredObject } from './types.ts';

/**
 * S3-compatible object storage: Qiniu Kodo through its S3 endpoint (the zone decides which), or MinIO, OSS, COS
 * through an endpoint override. Private buckets only ever yield presigned URLs, computed per request (never
 * stored: they expire); public buckets yield `<host>/<key>`. Objects that must not render in a browser are
 * written with `Content-Disposition: attachment`, so even a public URL downloads them.
 * Every connection goes through the outbound guard (core/net/outboundGuard.ts, STORAGE_ENDPOINT_ALLOWLIST): the
 * endpoint's name is resolved and checked for each new connection and the socket goes to the checked address.
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

// a silent port or a stalled provider ends in an error (the generic one) instead of a request that never returns
const CONNECT_TIMEOUT_MS = 10_000;
const IDLE_TIMEOUT_MS = 60_000;

export class S3Store implements ObjectStore {
  readonly kind = 's3' as const;
  #connection: Promise<{ client: S3Client; sdk: S3Sdk }> | undefined;

  /** `outbound`: where the endpoint may be (OUTBOUND_POLICIES.storage with STORAGE_ENDPOINT_ALLOWLIST). */
  constructor(
    readonly settings: S3Settings,
    private readonly outbound: OutboundPolicy,
  ) {}

  /** The SDK and this store's client, made on first use (again after a failed check: DNS may come back). */
  s3(): Promise<{ client: S3Client; sdk: S3Sdk }> {
    this.#connection ??= this.connect().catch((err) => {
      this.#connection = undefined;
      throw err;
    });
    return this.#connection;
  }

  private async connect(): Promise<{ client: S3Client; sdk: S3Sdk }> {
    const region = ZONES[this.settings.zone] ?? 'cn-east-1';
    const endpoint = this.settings.endpoint || `https://s3.${region}.qiniucs.com`;
    // checked here as well as in the agents' lookup: Node connects to an address literal without a lookup
    await resolveOutbound(new URL(endpoint).hostname, this.outbound);
    const lookup = guardedLookup(this.outbound);
    return loadSdk().then((sdk) => {
      const client = new sdk.S3Client({
        region,
        endpoint,
        forcePathStyle: !!this.settings.endpoint,
        credentials: { accessKeyId: this.settings.accessKey, secretAccessKey: this.settings.secretKey },
        // Kodo and most S3 look-alikes reject the newer default checksums on PutObject
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        maxAttempts: 2,
        requestHandler: {
          httpAgent: new http.Agent({ keepAlive: true, lookup }),
          httpsAgent: new https.Agent({ keepAlive: true, lookup }),
          connectionTimeout: CONNECT_TIMEOUT_MS,
          requestTimeout: IDLE_TIMEOUT_MS,
        },
      });
      return { client, sdk };
    });
  }

  /** Closes the client's connections (a store made for one check). */
  async close(): Promise<void> {
    const connection = await this.#connection?.catch(() => undefined);
    connection?.client.destroy();
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
      // the key is ours; of the provider's answer only a known S3 error code, never its message
      if (failed.length) throw new AppError('STORAGE_REMOTE_FAILED', { reason: `${failed[0].Key}: ${knownS3Code(failed[0].Code) ?? 'Error'}` });
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

/**
 * S3 error codes a message may name: fixed words of the protocol that tell the user what to fix (credentials,
 * bucket, region, clock). A code is matched against this list, never copied from the answer.
 */
const S3_ERROR_CODES = [
  'AccessDenied',
  'AllAccessDisabled',
  'AccountProblem',
  'AuthorizationHeaderMalformed',
  'EntityTooLarge',
  'InternalError',
  'InvalidAccessKeyId',
  'InvalidArgument',
  'InvalidBucketName',
  'InvalidRequest',
  'MethodNotAllowed',
  'NoSuchBucket',
  'NotImplemented',
  'PermanentRedirect',
  'RequestTimeTooSkewed',
  'ServiceUnavailable',
  'SignatureDoesNotMatch',
  'SlowDown',
] as const;

/** The list's own copy of `code` when it is a known S3 error code, else null. */
function knownS3Code(code: unknown): string | null {
  return S3_ERROR_CODES.find((c) => c === code) ?? null;
}

/** The known S3 error code of an SDK service exception (an answer in the S3 error format), else null. */
export function s3ErrorCode(err: unknown): string | null {
  // (the SDK's service exceptions carry `$fault`; tested by shape so that this needs no SDK loaded)
  const serviceError = typeof (err as { $fault?: unknown })?.$fault === 'string';
  return serviceError ? knownS3Code((err as { name?: unknown }).name) : null;
}

/**
 * The provider's failure as a clear message without the peer's text (finding N6): a known S3 error code, or
 * one generic message for everything else (refused, reset, timed out, not HTTP, not S3), so that the answer
 * does not tell an open port from a closed one. The guard's refusals pass as they are.
 */
export function remoteError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isMissing(err) && (err as { name?: string }).name !== 'NoSuchBucket') return new AppError('STORAGE_OBJECT_MISSING', {});
  const code = s3ErrorCode(err);
  return code ? new AppError('STORAGE_REMOTE_FAILED', { reason: code }) : new AppError('STORAGE_REMOTE_UNREACHABLE', {});
}
