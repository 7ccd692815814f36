import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { sendStream } from '../../core/sendStream.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { uploadOwnAvatar } from '@app/shared/contracts/userCentre';

/**
 * Avatars: uploaded by their owner, checked by content (not by the name or the declared type), stored through
 * app.storage as `avatar/<random>.<ext>` (local disk or the configured bucket) and served publicly by that random
 * name only, through this app (so a private bucket needs no URL). Avatars of releases before the storage plugin
 * are still read from `<dataDir>/avatars/`.
 */

export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;
const AVATAR_NAME = /^[0-9a-f]{32}\.(png|jpg|gif|webp)$/;
const CONTENT_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/** The image type of a file by its magic bytes, or null when it is not PNG, JPEG, GIF or WebP. */
export function detectImageType(buf: Buffer): 'png' | 'jpg' | 'gif' | 'webp' | null {
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpg';
  if (buf.length >= 6 && (buf.subarray(0, 6).toString('latin1') === 'GIF87a' || buf.subarray(0, 6).toString('latin1') === 'GIF89a')) return 'gif';
  if (buf.length >= 12 && buf.subarray(0, 4).toString('latin1') === 'RIFF' && buf.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return null;
}

/** The file of a stored avatar name, or null for anything that is not one of our generated names. */
export function avatarPath(dataDir: string, name: string): string | null {
  return AVATAR_NAME.test(name) ? path.join(dataDir, 'avatars', name) : null;
}

export function registerAvatars(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { config, db } = app.ctx;

  /** The avatar's object in storage: `avatar/<name>` in the active store (local disk or the bucket). */
  const keyOf = (name: string) => `avatar/${name}`;

  /** Remove an old avatar wherever it may be: the active store, the local store, the pre-storage folder. */
  async function removeAvatar(name: string): Promise<void> {
    const legacy = avatarPath(config.dataDir, name);
    if (!legacy) return;
    await fsp.rm(legacy, { force: true });
    await app.storage.local.delete([keyOf(name)]);
    const active = await app.storage.active();
    if (active.kind !== 'local') await active.delete([keyOf(name)]).catch(() => undefined);
  }

  routeContract(app, uploadOwnAvatar, async (req) => {
    if (!req.isMultipart()) throw new AppError('AVATAR_REQUIRED');
    let data: Buffer;
    try {
      const file = await req.file({ limits: { fileSize: MAX_AVATAR_BYTES, files: 1 } });
      if (file?.fieldname !== 'file') throw new AppError('AVATAR_REQUIRED');
      data = await file.toBuffer();
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('AVATAR_TOO_LARGE');
      throw err;
    }
    // the content decides the type (the declared name and type do not), and so the stored extension
    const type = detectImageType(data);
    if (!type) throw new AppError('AVATAR_TYPE');
    const name = `${crypto.randomBytes(16).toString('hex')}.${type}`;
    const store = await app.storage.active();
    await store.put(keyOf(name), data, { contentType: CONTENT_TYPES[type] });
    const user = req.user!;
    let previous: string | null = null;
    try {
      previous = await db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('sys_user').select('avatar').where('id', '=', user.id).executeTakeFirst();
        await trx.updateTable('sys_user').set({ avatar: name }).where('id', '=', user.id).execute();
        return (row?.avatar as string | null) ?? null;
      });
    } catch (err) {
      await store.delete([keyOf(name)]).catch(() => undefined);
      throw err;
    }
    if (previous) await removeAvatar(previous);
    return { avatar: name };
  });

  // Public like the reference (img tags send no token); names are unguessable and checked strictly.
  const avatarSchema = { tags: ['个人中心'], summary: '头像图片', params: z.object({ name: z.string().max(100) }) };
  app.get('/avatar/:name', { config: { auth: 'public' }, schema: avatarSchema }, async (req, reply) => {
    const name = req.params.name;
    const legacy = avatarPath(config.dataDir, name);
    if (!legacy) throw new AppError('AVATAR_NOT_FOUND');
    // the active store, then local disk (avatars kept before a switch to a bucket), then the old avatars folder
    let body: Readable | null = null;
    for (const store of [await app.storage.active(), app.storage.local]) {
      try {
        body = await store.get(keyOf(name));
        break;
      } catch (err) {
        if ((err as { status?: number }).status !== 404) throw err;
      }
    }
    if (!body && fs.existsSync(legacy)) body = fs.createReadStream(legacy);
    if (!body) throw new AppError('AVATAR_NOT_FOUND');
    reply
      .type(CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)])
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=86400')
      .header('content-security-policy', "default-src 'none'");
    return sendStream(reply, body, `avatar ${name}`);
  });
}
