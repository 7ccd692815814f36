import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { uploadToken } from '@app/shared/contracts/storage';
import { AppError } from '../../core/errors.ts';
import type { S3Store, Zone } from '../../core/storage/s3Store.ts';
import { extensionOf } from '../../core/storage/policy.ts';
import { routeContract } from '../../crud/registerContract.ts';

/**
 * Direct uploads (`GET /qiniu/upload/token`, design §3.3): the browser sends a file straight to the bucket.
 * - Qiniu Kodo: an upload token `AK:urlsafeB64(HMAC-SHA1(SK, policy)):policy` computed with node:crypto (no SDK),
 *   the policy scoped to ONE server-chosen key (`bucket:key`), with Kodo's own size and MIME limits.
 * - Other S3 providers (an endpoint is configured): a presigned PUT of one server-chosen key.
 * - Local storage: no token; the answer names the app's own upload route.
 * The bucket cannot check magic bytes, so a direct upload is registered in the file list only by 同步, and the
 * allow-list of the storage screen applies to the key's extension.
 */

const UPLOAD_HOSTS: Record<Zone, string> = {
  华东: 'https://up-z0.qiniup.com',
  华北: 'https://up-z1.qiniup.com',
  华南: 'https://up-z2.qiniup.com',
  北美: 'https://up-na0.qiniup.com',
  东南亚: 'https://up-as0.qiniup.com',
};
const TOKEN_TTL_SECONDS = 3600;

const urlSafe = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');

/** Qiniu's upload token for a put policy (developer.qiniu.com/kodo/1208). */
export function qiniuUploadToken(accessKey: string, secretKey: string, policy: Record<string, unknown>): string {
  const encodedPolicy = urlSafe(Buffer.from(JSON.stringify(policy)).toString('base64'));
  const sign = urlSafe(crypto.createHmac('sha1', secretKey).update(encodedPolicy).digest('base64'));
  return `${accessKey}:${sign}:${encodedPolicy}`;
}

export function registerUploadToken(fastify: FastifyInstance): void {
  const app = fastify;
  routeContract(app, uploadToken, async (req) => {
      const cfg = await app.storage.readConfig();
      const deadline = Math.floor(Date.now() / 1000) + TOKEN_TTL_SECONDS;
      if (cfg?.provider !== 's3') return { provider: 'local' as const, method: 'POST' as const, uploadUrl: '/api/qiNiuContent', key: '', token: '', deadline };
      const filename = req.query.filename ?? '';
      const ext = extensionOf(filename || 'x');
      const policy = app.storage.policies.file;
      if (!ext || !policy.extensions.includes(ext)) throw new AppError('STORAGE_TYPE_NOT_ALLOWED', { ext: ext || filename.slice(0, 40) });
      const key = app.storage.newKey('file', ext === 'jpeg' ? 'jpg' : ext);
      if (cfg.endpoint) {
        const store = (await app.storage.storeFor({ provider: 's3', bucket: cfg.bucket, type: cfg.type })) as S3Store;
        const uploadUrl = await store.uploadUrl(key, 'application/octet-stream', TOKEN_TTL_SECONDS);
        return { provider: 's3' as const, method: 'PUT' as const, uploadUrl, key, token: '', deadline };
      }
      const token = qiniuUploadToken(cfg.accessKey, app.ctx.secrets.open(cfg.sealedSecretKey), {
        scope: `${cfg.bucket}:${key}`,
        deadline,
        fsizeLimit: policy.maxBytes,
        // Kodo detects the type from the content itself; HTML, SVG and scripts are not on this list
        detectMime: 1,
        mimeLimit: 'image/png;image/jpeg;image/gif;image/webp;application/pdf;application/zip;application/vnd.ms-excel;application/vnd.openxmlformats-officedocument.*;application/msword;text/plain;text/csv',
      });
      return { provider: 'qiniu' as const, method: 'POST' as const, uploadUrl: UPLOAD_HOSTS[cfg.zone] ?? UPLOAD_HOSTS.华东, key, token, deadline };
  });
}
