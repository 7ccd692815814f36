import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Readable } from 'node:stream';
import { AppError } from '../errors.ts';
import { sendStream } from '../sendStream.ts';
import { contentDisposition, contentTypeOfKey, servesInline } from './policy.ts';
import { createStorageService, type ReceivedUpload, type StorageService } from './service.ts';
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
 * The storage plugin: decorates `app.storage`. The local store's two file routes are registered from their contracts
 * by modules/storage/storedFileRoutes.ts (core stays below crud).
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
