import { codedText } from '@app/shared/errors/zodIssues';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import type { RunContext } from '../../core/scheduler/index.ts';
import type { ObjectStore, StoredRef } from '../../core/storage/index.ts';

/**
 * Maintenance jobs (finding M3): a database backup into storage with a retention count, and a storage reconcile
 * that compares the rows pointing at stored objects with the objects themselves.
 */
export const MAINTENANCE_HANDLERS = {
  backup: 'databaseBackupTask.run',
  storageReconcile: 'storageReconcileTask.run',
} as const;

/** Where backups go in the active store; the retention count works on this prefix only. */
export const BACKUP_PREFIX = 'backup/';

export const MAINTENANCE_HANDLER_PARAMS: Record<string, z.ZodType<Record<string, unknown>>> = {
  [MAINTENANCE_HANDLERS.backup]: z.object({
    keep: z.coerce.number(codedText('JOB_PARAM_INT_RANGE', { name: 'keep', min: 1, max: 365 })).int(codedText('JOB_PARAM_INT_RANGE', { name: 'keep', min: 1, max: 365 })).min(1, codedText('JOB_PARAM_INT_RANGE', { name: 'keep', min: 1, max: 365 })).max(365, codedText('JOB_PARAM_INT_RANGE', { name: 'keep', min: 1, max: 365 })).default(14),
  }),
  [MAINTENANCE_HANDLERS.storageReconcile]: z.object({
    deleteOrphans: z.boolean(codedText('JOB_PARAM_TRUE_FALSE', { name: 'deleteOrphans' })).default(false),
  }),
};

/** A backup's key: sortable by time (UTC), so the oldest are the first of a listing. */
function backupKey(dialect: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').replace('.', '-').replace('Z', '');
  return `${BACKUP_PREFIX}${stamp}-${dialect}.${dialect === 'sqlite' ? 'sqlite' : 'sql'}.gz`;
}

/** The first of `names` found on PATH, or null. */
async function onPath(names: string[]): Promise<string | null> {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const name of names) {
      const file = path.join(dir, name);
      try {
        await fsp.access(file, fs.constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
  }
  return null;
}

/** Run a dump tool into a gzip file; its stderr (first lines) becomes the error. Credentials go by environment, never argv. */
async function dumpTo(tool: string, args: string[], env: Record<string, string>, target: string, signal: AbortSignal): Promise<void> {
  const child = spawn(tool, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], signal });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    if (stderr.length < 4000) stderr += c.toString('utf8');
  });
  const exited = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
  await pipeline(child.stdout, zlib.createGzip(), fs.createWriteStream(target, { mode: 0o600 }));
  const code = await exited;
  if (code !== 0) throw new AppError('BACKUP_DUMP_FAILED', { tool: path.basename(tool), reason: stderr.trim().split('\n').slice(0, 3).join(' ').slice(0, 500) || `exit ${code}` });
}

/** pg_dump's arguments from the database URL (a `search_path` option in the URL limits the dump to that schema). */
function pgDumpArgs(url: URL): { args: string[]; env: Record<string, string> } {
  const args = ['--no-owner', '--no-privileges', '-h', url.hostname || '127.0.0.1', '-p', url.port || '5432', '-U', decodeURIComponent(url.username || 'postgres'), '-d', decodeURIComponent(url.pathname.slice(1) || 'postgres')];
  const schema = /search_path=([A-Za-z0-9_]+)/.exec(decodeURIComponent(url.searchParams.get('options') ?? ''))?.[1];
  if (schema) args.push('-n', schema);
  return { args, env: url.password ? { PGPASSWORD: decodeURIComponent(url.password) } : {} };
}

function mariaDumpArgs(url: URL): { args: string[]; env: Record<string, string> } {
  const args = ['--single-transaction', '--routines', '--no-tablespaces', '-h', url.hostname || '127.0.0.1', '-P', url.port || '3306', '-u', decodeURIComponent(url.username || 'root'), decodeURIComponent(url.pathname.slice(1))];
  return { args, env: url.password ? { MYSQL_PWD: decodeURIComponent(url.password) } : {} };
}

async function databaseBackup(app: FastifyInstance, ctx: RunContext) {
  const { keep } = MAINTENANCE_HANDLER_PARAMS[MAINTENANCE_HANDLERS.backup].parse(ctx.params) as { keep: number };
  const { dialect, sqlite, url } = app.database;
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dp-backup-'));
  const key = backupKey(dialect);
  const gz = path.join(dir, 'backup.gz');
  try {
    await ctx.progress('备份数据库', 0.1);
    if (dialect === 'sqlite') {
      if (!sqlite) throw new AppError('BACKUP_UNSUPPORTED', { reason: { code: 'BACKUP_REASON_NO_SQLITE' } });
      // SQLite's online backup: a consistent copy while the application keeps writing
      const copy = path.join(dir, 'backup.sqlite');
      await sqlite.backup(copy);
      await pipeline(fs.createReadStream(copy), zlib.createGzip(), fs.createWriteStream(gz, { mode: 0o600 }));
    } else {
      if (!url || !/^(postgres|postgresql|mysql|mariadb):\/\//.test(url)) throw new AppError('BACKUP_UNSUPPORTED', { reason: { code: 'BACKUP_REASON_URL_UNKNOWN' } });
      const parsed = new URL(url);
      const tool = dialect === 'postgres' ? await onPath(['pg_dump']) : await onPath(['mariadb-dump', 'mysqldump']);
      if (!tool) throw new AppError('BACKUP_TOOL_MISSING', { tool: dialect === 'postgres' ? 'pg_dump' : 'mariadb-dump' });
      const { args, env } = dialect === 'postgres' ? pgDumpArgs(parsed) : mariaDumpArgs(parsed);
      await dumpTo(tool, args, env, gz, ctx.signal);
    }
    await ctx.progress('写入存储', 0.6);
    const { size } = await fsp.stat(gz);
    const store = await app.storage.active();
    await store.put(key, fs.createReadStream(gz), { contentType: 'application/gzip', size });
    // retention: the newest `keep` backups stay (keys sort by time)
    const keys: string[] = [];
    for await (const o of store.list(BACKUP_PREFIX)) keys.push(o.key);
    keys.sort();
    const old = keys.slice(0, Math.max(0, keys.length - keep));
    if (old.length) await store.delete(old);
    return { summary: `已备份到 ${store.kind === 's3' ? '对象存储' : '本地存储'} ${key}（${(size / 1024).toFixed(1)} KB），保留最近 ${keep} 份，删除旧备份 ${old.length} 份`, outputCount: 1 };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/** A row that points at a stored object. */
interface ObjectRow {
  table: string;
  id: number;
  key: string;
  ref: StoredRef;
}

const LOCAL_REF: StoredRef = { provider: 'local', bucket: '', type: '本地' };

function refOf(provider: unknown, bucket: unknown, type: unknown): StoredRef {
  return provider === 's3' ? { provider: 's3', bucket: String(bucket ?? ''), type: String(type ?? '私有') } : LOCAL_REF;
}

function refFromJson(text: unknown): StoredRef {
  if (typeof text !== 'string' || !text) return LOCAL_REF;
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    return refOf(v.provider, v.bucket, v.type);
  } catch {
    return LOCAL_REF;
  }
}

/** Prefixes whose every object has a row in one of the tables read below (avatars and mail images are kept by other records). */
const RECONCILED_PREFIXES = ['file/', 'picture/', 'modelOutput/', 'dataSource/'];

async function objectRows(app: FastifyInstance): Promise<ObjectRow[]> {
  const db = app.ctx.db;
  const out: ObjectRow[] = [];
  for (const r of await db.selectFrom('tool_storage_file').select(['id', 'object_key', 'provider', 'bucket', 'type']).execute()) out.push({ table: '存储文件', id: Number(r.id), key: r.object_key, ref: refOf(r.provider, r.bucket, r.type) });
  for (const r of await db.selectFrom('tool_picture').select(['id', 'object_key', 'provider', 'bucket', 'type']).execute()) out.push({ table: '图片', id: Number(r.id), key: r.object_key, ref: refOf(r.provider, r.bucket, r.type) });
  for (const r of await db.selectFrom('model_output').select(['id', 'storage_key', 'provider', 'bucket', 'type']).execute()) out.push({ table: '模型数据', id: Number(r.id), key: r.storage_key, ref: refOf(r.provider, r.bucket, r.type) });
  for (const r of await db.selectFrom('data_source_upload').select(['id', 'storage_key', 'storage_ref']).execute()) out.push({ table: '数据源上传', id: Number(r.id), key: r.storage_key, ref: refFromJson(r.storage_ref) });
  for (const r of await db.selectFrom('data_origin').select(['id', 'file_key', 'file_ref']).where('file_key', 'is not', null).execute()) {
    if (r.file_key) out.push({ table: '数据源', id: Number(r.id), key: r.file_key, ref: refFromJson(r.file_ref) });
  }
  return out;
}

async function storageReconcile(app: FastifyInstance, ctx: RunContext) {
  const { deleteOrphans } = MAINTENANCE_HANDLER_PARAMS[MAINTENANCE_HANDLERS.storageReconcile].parse(ctx.params) as { deleteOrphans: boolean };
  const rows = await objectRows(app);
  // one listing per store a row names (its provider and bucket), plus the active store for orphans
  const activeRef = await app.storage.activeRef();
  const storeId = (r: StoredRef) => (r.provider === 's3' ? `s3:${r.bucket}` : 'local');
  const listings = new Map<string, { store: ObjectStore | null; keys: Set<string>; error?: string }>();
  const listingOf = async (ref: StoredRef) => {
    const id = storeId(ref);
    let l = listings.get(id);
    if (!l) {
      l = { store: null, keys: new Set() };
      try {
        l.store = await app.storage.storeFor(ref);
        for (const prefix of RECONCILED_PREFIXES) for await (const o of l.store.list(prefix)) l.keys.add(o.key);
      } catch (err) {
        l.error = (err as Error).message;
      }
      listings.set(id, l);
    }
    return l;
  };
  await listingOf(activeRef);
  const missing: ObjectRow[] = [];
  const unreadable = new Set<string>();
  const referenced = new Map<string, Set<string>>();
  for (const r of rows) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const l = await listingOf(r.ref);
    if (l.error) {
      unreadable.add(`${storeId(r.ref)}（${l.error}）`);
      continue;
    }
    const id = storeId(r.ref);
    if (!referenced.has(id)) referenced.set(id, new Set());
    referenced.get(id)?.add(r.key);
    if (!l.keys.has(r.key)) missing.push(r);
  }
  const orphans: { storeId: string; key: string }[] = [];
  for (const [id, l] of listings) {
    if (l.error) continue;
    const known = referenced.get(id) ?? new Set();
    for (const key of l.keys) if (!known.has(key)) orphans.push({ storeId: id, key });
  }
  let deleted = 0;
  if (deleteOrphans && orphans.length) {
    for (const [id, l] of listings) {
      const keys = orphans.filter((o) => o.storeId === id).map((o) => o.key);
      if (keys.length && l.store) {
        await l.store.delete(keys);
        deleted += keys.length;
      }
    }
  }
  const sample = <T>(items: T[], show: (t: T) => string) => items.slice(0, 20).map(show).join('，') + (items.length > 20 ? ` 等 ${items.length} 项` : '');
  const parts = [`检查记录 ${rows.length} 条`, `对象丢失 ${missing.length} 条${missing.length ? `：${sample(missing, (m) => `${m.table}#${m.id} ${m.key}`)}` : ''}`];
  parts.push(`无记录的对象 ${orphans.length} 个${orphans.length ? `：${sample(orphans, (o) => `${o.storeId} ${o.key}`)}` : ''}${deleteOrphans ? `，已删除 ${deleted} 个` : orphans.length ? '（仅报告；参数 deleteOrphans=true 时删除）' : ''}`);
  if (unreadable.size) parts.push(`无法读取的存储：${[...unreadable].join('，')}`);
  return { summary: parts.join('；'), calcCount: rows.length, outputCount: missing.length + orphans.length };
}

export function registerMaintenanceHandlers(app: FastifyInstance): void {
  app.scheduler.registerHandler({
    name: MAINTENANCE_HANDLERS.backup,
    title: '数据库备份：SQLite 在线备份或 pg_dump/mariadb-dump，压缩后存入存储，保留最近 keep 份',
    timeoutMs: 2 * 60 * 60_000,
    run: (ctx) => databaseBackup(app, ctx),
  });
  app.scheduler.registerHandler({
    name: MAINTENANCE_HANDLERS.storageReconcile,
    title: '存储核对：列出对象已丢失的记录和没有记录的对象（deleteOrphans=true 时删除后者）',
    timeoutMs: 60 * 60_000,
    run: (ctx) => storageReconcile(app, ctx),
  });
}
