import type { FastifyInstance } from 'fastify';
import { publicImage, storedObject } from '@app/shared/contracts/storage';
import { AppError } from '../../core/errors.ts';
import { sendObject } from '../../core/storage/index.ts';
import { PUBLIC_IMAGE_PURPOSES } from '../../core/storage/service.ts';
import { routeContract } from '../../crud/registerContract.ts';

/**
 * The local store's two routes, from their contracts (contracts/storage.ts), registered with the storage plugin in
 * app.ts so every area that hands out links or images finds them:
 * - `GET /api/storage/object?key&name&exp&sig`: a signed, expiring link (what `downloadUrl` gives for local files);
 * - `GET /api/storage/public/<purpose>/<yyyy-MM>/<uuid>.<png|jpg|gif|webp>`: raster images of avatars, pictures
 *   and mail images by their unguessable key, for img tags and e-mails that carry no token.
 * Everything served from our origin is `nosniff` with a sandboxing CSP; anything but a raster image is an attachment.
 */
export function registerStoredFileRoutes(app: FastifyInstance): void {
  routeContract(app, storedObject, async (req, reply) => {
    const { key, name } = app.storage.verifyLocalLink(req.query);
    const body = await app.storage.local.get(key);
    return sendObject(reply, body, key, name);
  });

  routeContract(app, publicImage, async (req, reply) => {
    const { purpose, month, file } = req.params;
    const isPublicImage = (PUBLIC_IMAGE_PURPOSES as readonly string[]).includes(purpose) && /^\d{4}-\d{2}$/.test(month) && /^[0-9a-f-]{36}\.(png|jpg|gif|webp)$/.test(file);
    if (!isPublicImage) throw new AppError('STORAGE_OBJECT_MISSING', {});
    const key = `${purpose}/${month}/${file}`;
    const body = await app.storage.local.get(key);
    reply.header('cache-control', 'public, max-age=86400, immutable');
    return sendObject(reply, body, key, file);
  });
}
