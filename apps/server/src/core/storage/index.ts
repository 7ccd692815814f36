import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Readable } from 'node:stream';
import { publicImage, storedObject } from '@app/shared/contracts/storage';
import { routeContract } from '../../crud/registerContract.ts';
import { AppError } from '../errors.ts';
import { sendStream } from '../sendStream.ts';
import { contentDisposition, contentTypeOfKey, servesInline } from './policy.ts';
import { createStorageService, PUBLIC_IMAGE_PURPOSES, type ReceivedUpload, type StorageService } from './service.ts';
import type { StoragePurpose } from './types.ts';

export type { ReceivedUpload, SavedObject, StorageService, StoredRef } from './service.ts';
export type { ObjectStore, Storage, StoragePurpose, StoredObject } from './types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every file the application keeps goes through here (core/storage). */
    storage: StorageService;
  }
}

/**
 * The storage plugin: decorates `app.storage` and serves the local store's two routes —
 * - `GET /api/storage/object?key&name&exp&sig`: a signed, expiring link (what `downloadUrl` gives for local files);
 * - `GET /api/storage/public/<purpose>/<yyyy-MM>/<uuid>.<png|jpg|gif|webp>`: raster images of avatars, pictures
 *   and mail images by their unguessable key, for img tags and e-mails that carry no token.
 * Everything served from our origin is `nosniff` with a sandboxing CSP; anything but a raster image is an attachment.
 */
async function storagePlugin(fastify: FastifyInstance, opts: { fileMaxBytes?: number }): Promise<void> {
  const { config, db, secrets, keys } = fastify.ctx;
  const service = createStorageService({
    db,
    secrets,
    dataDir: config.dataDir,
    linkSecret: keys.tokenSecret,
    fileMaxBytes: opts.fileMaxBytes,
    endpointAllowlist: config.storageEndpointAllowlist,
  });
  fastify.decorate('storage', service);

  routeContract(fastify, storedObject, async (req, reply) => {
    const { key, name } = service.verifyLocalLink(req.query);
    const body = await service.local.get(key);
    return sendObject(reply, body, key, name);
  });

  routeContract(fastify, publicImage, async (req, reply) => {
    const { purpose, month, file } = req.params;
    const isPublicImage = (PUBLIC_IMAGE_PURPOSES as readonly string[]).includes(purpose) && /^\d{4}-\d{2}$/.test(month) && /^[0-9a-f-]{36}\.(png|jpg|gif|webp)$/.test(file);
    if (!isPublicImage) throw new AppError('STORAGE_OBJECT_MISSING', {});
    const key = `${purpose}/${month}/${file}`;
    const body = await service.local.get(key);
    reply.header('cache-control', 'public, max-age=86400, immutable');
    return sendObject(reply, body, key, file);
  });
}

/** Stream a stored object with the headers that keep the browser from running it. */
export function sendObject(reply: FastifyReply, body: Readable, key: string, filename: string): FastifyReply {
  const inline = servesInline(key);
  reply
    .type(contentTypeOfKey(key))
    .header('content-disposition', contentDisposition(filename, inline))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox");
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-store');
  return sendStream(reply, body, `stored file ${key}`);
}

export const registerStorage = fp(storagePlugin, { name: 'storage', fastify: '5.x', dependencies: ['ctx'] });

/**
 * The one file of a multipart request (field `file`), checked and spooled for `purpose`: what every upload route
 * (storage screen, pictures, avatars, data sources) calls. The caller stores it (`app.storage.store`) or discards it.
 */
export async function receiveMultipart(req: FastifyRequest, purpose: StoragePurpose): Promise<ReceivedUpload> {
  if (!req.isMultipart()) throw new AppError('UPLOAD_REQUIRED', {});
  const storage = req.server.storage;
  const file = await req.file({ limits: { fileSize: storage.policies[purpose].maxBytes, files: 1 } });
  if (!file) throw new AppError('UPLOAD_REQUIRED', {});
  if (file.fieldname !== 'file') {
    file.file.resume();
    throw new AppError('UPLOAD_FIELD', {});
  }
  return storage.receive(purpose, file.filename, file.file);
}
