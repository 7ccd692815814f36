import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors.ts';
import { contentTypeOfKey } from './policy.ts';
import type { ObjectStore, StoredObject } from './types.ts';

/**
 * Local disk under `<DATA_DIR>/storage`. Writes go to a temporary file in the same folder tree and are renamed
 * into place, so a reader never sees half a file. Keys are checked to stay inside the root: no `..`, no
 * absolute paths, no backslashes (keys are server-chosen, but synchronised rows and old links pass through here).
 */
export class LocalStore implements ObjectStore {
  readonly kind = 'local' as const;
  readonly root: string;

  constructor(
    root: string,
    /** Builds the signed link to the app's own download route. */
    private readonly link: (key: string, filename: string, ttlSeconds: number) => string,
  ) {
    this.root = path.resolve(root);
  }

  /** The file of a key, or a 400 for anything that could leave the root. */
  pathOf(key: string): string {
    if (!isSafeKey(key)) throw new AppError('STORAGE_NAME_INVALID', {});
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep)) throw new AppError('STORAGE_NAME_INVALID', {});
    return file;
  }

  async put(key: string, body: Buffer | Readable, opts: { contentType: string; size?: number }): Promise<StoredObject> {
    const file = this.pathOf(key);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const tmp = path.join(this.root, '.tmp', `${crypto.randomUUID()}.part`);
    await fsp.mkdir(path.dirname(tmp), { recursive: true });
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, fs.createWriteStream(tmp, { mode: 0o640 }));
      await fsp.rename(tmp, file);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    const stat = await fsp.stat(file);
    return { key, size: stat.size, contentType: opts.contentType, updateTime: stat.mtime.toISOString() };
  }

  /** Move a spooled upload (a file under the root's `.tmp`) into place without copying it. */
  async adopt(key: string, spooled: string): Promise<StoredObject> {
    const file = this.pathOf(key);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    try {
      await fsp.rename(spooled, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await pipeline(fs.createReadStream(spooled), fs.createWriteStream(file, { mode: 0o640 }));
    }
    const stat = await fsp.stat(file);
    return { key, size: stat.size, contentType: contentTypeOfKey(key), updateTime: stat.mtime.toISOString() };
  }

  async get(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    try {
      const handle = await fsp.open(file, 'r');
      return handle.createReadStream();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'EISDIR') throw new AppError('STORAGE_OBJECT_MISSING', {});
      throw err;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const s = await fsp.stat(this.pathOf(key));
      return s.isFile() ? { key, size: s.size, contentType: contentTypeOfKey(key), updateTime: s.mtime.toISOString() } : null;
    } catch {
      return null;
    }
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) await fsp.rm(this.pathOf(key), { force: true });
  }

  async *list(prefix = ''): AsyncIterable<StoredObject> {
    const walk = async function* (dir: string, rel: string): AsyncGenerator<StoredObject> {
      let entries: fs.Dirent[];
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      entries.sort((a, b) => a.name.localeCompare(b.name));
      for (const e of entries) {
        if (e.name.startsWith('.')) continue; // .tmp, .probe
        const key = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) yield* walk(path.join(dir, e.name), key);
        else if (e.isFile() && key.startsWith(prefix)) {
          const s = await fsp.stat(path.join(dir, e.name));
          yield { key, size: s.size, contentType: contentTypeOfKey(key), updateTime: s.mtime.toISOString() };
        }
      }
    };
    yield* walk(this.root, '');
  }

  async downloadUrl(key: string, opts: { filename: string; ttlSeconds?: number }): Promise<string> {
    this.pathOf(key);
    return this.link(key, opts.filename, opts.ttlSeconds ?? 300);
  }
}

/** Relative keys of plain segments: letters, digits, `-_.`, CJK and spaces; no empty, `.` or `..` segment. */
export function isSafeKey(key: string): boolean {
  if (!key || key.length > 512 || key.startsWith('/') || key.includes('\\') || key.includes('\u0000')) return false;
  return key.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..' && !/[<>:"|?*]/.test(seg) && ![...seg].some((c) => c.charCodeAt(0) < 0x20));
}
