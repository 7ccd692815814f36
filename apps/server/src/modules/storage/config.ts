import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { saveStorageConfig, storageConfig } from '@app/shared/contracts/storage';
import { nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { maskSecret, nextBoundSecret, secretTargetChanged } from '../../core/secrets.ts';
import { OUTBOUND_POLICIES } from '../../core/net/outboundGuard.ts';
import { remoteError, S3Store, type Zone } from '../../core/storage/s3Store.ts';
import { routeContract } from '../../crud/registerContract.ts';

/**
 * The storage configuration (`GET/PUT /api/qiNiuConfig`): local disk, or an S3-compatible bucket (Qiniu Kodo by
 * zone, or any endpoint given). The secret key is sealed at rest and write-only: a read shows `******`, a save
 * with an empty or masked value keeps the stored one while endpoint, zone, bucket and AccessKey are unchanged. A save of a bucket first proves the settings work (put and
 * delete a 0-byte `.probe/<uuid>`), so a typo is a clear 400 instead of failed uploads later.
 */

const isHttpUrl = (v: string) => {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
};

export function registerStorageConfig(fastify: FastifyInstance): void {
  const app = fastify;
  const { db, secrets } = app.ctx;

  routeContract(app, storageConfig, async () => {
      const cfg = await app.storage.readConfig();
      return {
        provider: cfg?.provider ?? 'local',
        accessKey: cfg?.accessKey ?? '',
        secretKey: maskSecret(cfg?.sealedSecretKey),
        hasSecret: !!cfg?.sealedSecretKey,
        bucket: cfg?.bucket ?? '',
        host: cfg?.host ?? '',
        zone: cfg?.zone ?? '华东',
        type: cfg?.type ?? '私有',
        endpoint: cfg?.endpoint ?? '',
      };
  });

  routeContract(app, saveStorageConfig, async (req, reply) => {
      const body = req.body;
      const provider = body.provider ?? 's3';
      const stored = await app.storage.readConfig();
      const row = {
        provider,
        access_key: (body.accessKey ?? '').trim(),
        secret_key: '',
        bucket: (body.bucket ?? '').trim(),
        host: (body.host ?? '').trim().replace(/\/+$/, ''),
        zone: body.zone ?? '华东',
        type: body.type ?? null,
        endpoint: (body.endpoint ?? '').trim().replace(/\/+$/, '') || null,
        update_time: nowIso(),
      };
      // the stored SecretKey signs only for the endpoint, bucket and AccessKey it was given with (finding N1's
      // pattern): a changed target needs it typed again; a local save simply forgets it
      const storedSecret = stored ? { sealed: stored.sealedSecretKey, target: storageTarget(stored.endpoint, stored.zone, stored.bucket, stored.accessKey) } : undefined;
      const target = storageTarget(row.endpoint, row.zone, row.bucket, row.access_key);
      let sealedSecret: string;
      try {
        sealedSecret = nextBoundSecret(secrets, storedSecret, body.secretKey, target, (changed) => secretTargetChanged('STORAGE_TARGET_CHANGED', 'secretKey', changed)) ?? '';
      } catch (err) {
        if (provider === 's3') throw err;
        sealedSecret = '';
      }
      row.secret_key = sealedSecret;
      if (provider === 's3') {
        const required: [string, string][] = [
          ['accessKey', 'AccessKey'],
          ['bucket', '空间名称'],
          ['host', '外链域名'],
        ];
        for (const [field, label] of required) {
          if (!row[field === 'accessKey' ? 'access_key' : (field as 'bucket' | 'host')]) throw new AppError('FIELD_REQUIRED', { label }, { [field]: { code: 'FIELD_REQUIRED', params: { label } } });
        }
        if (!sealedSecret) throw new AppError('FIELD_REQUIRED', { label: 'SecretKey' }, { secretKey: { code: 'FIELD_REQUIRED', params: { label: 'SecretKey' } } });
        if (!row.type) throw new AppError('STORAGE_BUCKET_TYPE_REQUIRED', {}, { type: { code: 'STORAGE_BUCKET_TYPE_REQUIRED' } });
        if (!isHttpUrl(row.host)) throw new AppError('STORAGE_HOST_INVALID', {}, { host: { code: 'STORAGE_HOST_INVALID' } });
        if (row.endpoint && !isHttpUrl(row.endpoint)) throw new AppError('STORAGE_HOST_INVALID', {}, { endpoint: { code: 'STORAGE_HOST_INVALID' } });
        await probe(
          new S3Store(
            {
              accessKey: row.access_key,
              secretKey: secrets.open(sealedSecret),
              bucket: row.bucket,
              host: row.host,
              zone: row.zone as Zone,
              type: row.type as '公开' | '私有',
              endpoint: row.endpoint,
            },
            OUTBOUND_POLICIES.storage(app.ctx.config.storageEndpointAllowlist ?? []),
          ),
        );
      }
      await db.transaction().execute(async (trx) => {
        const exists = await trx.selectFrom('tool_storage_config').select('id').where('id', '=', 1).executeTakeFirst();
        if (exists) await trx.updateTable('tool_storage_config').set(row).where('id', '=', 1).execute();
        else await trx.insertInto('tool_storage_config').values({ id: 1, ...row }).execute();
      });
      return reply.code(204).send();
  });
}

/** What a stored SecretKey is bound to, keyed by the form's field names; the zone counts only without an endpoint. */
function storageTarget(endpoint: string | null | undefined, zone: string | null | undefined, bucket: string | null | undefined, accessKey: string | null | undefined) {
  const url = (endpoint ?? '').trim().replace(/\/+$/, '');
  return { endpoint: url, zone: url ? '' : (zone ?? '华东'), bucket: bucket ?? '', accessKey: accessKey ?? '' };
}

/**
 * Put and delete a 0-byte object: the credentials, bucket and endpoint work, or a 400 that never carries the
 * peer's text (finding N6): the guard's refusal, a known S3 error code, or one message for everything else
 * (refused, reset, timed out, not HTTP, not S3, a 404 of some web server), so the probe tells no port from another.
 */
async function probe(store: S3Store): Promise<void> {
  const key = `.probe/${crypto.randomUUID()}`;
  try {
    await store.put(key, Buffer.alloc(0), { contentType: 'application/octet-stream' });
    await store.delete([key]);
  } catch (err) {
    const failure = remoteError(err);
    if (failure.code?.startsWith('OUTBOUND_')) throw failure;
    if (failure.code === 'STORAGE_REMOTE_FAILED' && failure.params?.reason) throw new AppError('STORAGE_CONFIG_TEST_FAILED', { reason: String(failure.params.reason) });
    throw new AppError('STORAGE_CONFIG_UNREACHABLE', {});
  } finally {
    await store.close();
  }
}
