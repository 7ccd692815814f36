import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { CurrentUser } from '../../../core/context.ts';
import { AppError } from '../../../core/errors.ts';
import type { StorageService } from '../../../core/storage/index.ts';
import type { ObjectStore } from '../../../core/storage/types.ts';
import { datasetOf, openDatasetRead } from './datasets.ts';
import { openCsvRead, openExcelRead } from './fileSource.ts';
import { openSqlRead, type SqlConnectionFields } from './sqlSource.ts';
import { loadCustom, loadDataOrigin } from './store.ts';
import {
  type DataOriginRecord,
  type DataSourceReader,
  type OpenOptions,
  PREVIEW_ROWS,
  SQL_PREVIEW_TIMEOUT_MS,
  SQL_ROW_CAP,
  SQL_STATEMENT_TIMEOUT_MS,
} from './types.ts';

/**
 * The one way to read a data source's rows (the model tasks call it; the details preview too):
 *
 *   const src = await openDataSource(app, dataId, owner, { signal, limit });
 *   try { for await (const row of src.rows) … } finally { await src.close(); }
 *
 * `fields` are the column names, and each row is an object keyed by them. Rows stream: a SQL source through a
 * cursor, a CSV through an incremental decoder, a workbook row by row, a custom source in keyset pages; 100,000
 * rows are never held at once. `owner` is whose rights apply (custom sources read with their data scope).
 * Errors are AppErrors with the user's message (wrong encoding, no header, refused query, connection failed).
 */
export async function openDataSource(app: FastifyInstance, id: number, owner: CurrentUser, opts: OpenOptions = {}): Promise<DataSourceReader> {
  const source = await loadDataOrigin(app.ctx.db, id);
  return openDataOrigin(app, source, owner, opts);
}

/** The storage plugin (core/storage); a clear error while none is configured. */
export function storageOf(app: FastifyInstance): StorageService {
  const storage = (app as { storage?: StorageService }).storage;
  if (!storage) throw new AppError('DATASOURCE_STORAGE_UNAVAILABLE', {});
  return storage;
}

/** Largest uploaded file a source may use (`DATASOURCE_UPLOAD_MAX`, default 50 MB). */
export function uploadMaxBytes(app: FastifyInstance): number {
  return app.ctx.config.dataSourceUploadMax ?? 50 * 1024 * 1024;
}

async function readWhole(stream: Readable, max: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += buf.length;
    if (size > max) {
      stream.destroy();
      throw new AppError('UPLOAD_TOO_LARGE', { max: `${Math.round(max / 1024 / 1024)}MB` });
    }
    parts.push(buf);
  }
  return Buffer.concat(parts);
}

/** The sealed password opened; a password sealed under another key is a clear message, not a 500. */
export function sqlFieldsOf(app: FastifyInstance, source: Pick<DataOriginRecord, 'dbKind' | 'dbSite' | 'dbPort' | 'dbUser' | 'dbName' | 'dbPasswordSealed'>): SqlConnectionFields {
  let password = '';
  try {
    password = source.dbPasswordSealed ? app.ctx.secrets.open(source.dbPasswordSealed) : '';
  } catch {
    throw new AppError('DATASOURCE_PASSWORD_UNREADABLE', {});
  }
  return {
    kind: source.dbKind ?? 'mysql',
    host: source.dbSite ?? '',
    port: source.dbPort ?? (source.dbKind === 'postgres' ? 5432 : 3306),
    user: source.dbUser ?? '',
    password,
    database: source.dbName ?? '',
  };
}

/** Opens an already loaded source (the routes have the row at hand). */
export async function openDataOrigin(app: FastifyInstance, source: DataOriginRecord, owner: CurrentUser, opts: OpenOptions = {}): Promise<DataSourceReader> {
  switch (source.type) {
    case 'sql': {
      const preview = opts.limit !== undefined && opts.limit <= PREVIEW_ROWS;
      return openSqlRead(sqlFieldsOf(app, source), source.query ?? '', {
        allowlist: app.ctx.config.dataSourceHostAllowlist ?? [],
        timeoutMs: preview ? SQL_PREVIEW_TIMEOUT_MS : SQL_STATEMENT_TIMEOUT_MS,
        limit: opts.limit,
        cap: SQL_ROW_CAP,
        signal: opts.signal,
      });
    }
    case 'csv':
    case 'xls': {
      if (!source.fileKey) throw new AppError('DATASOURCE_UPLOAD_UNKNOWN', {});
      const storage = storageOf(app);
      const store: ObjectStore = source.fileRef ? await storage.storeFor(JSON.parse(source.fileRef)) : await storage.active();
      const stream = await store.get(source.fileKey);
      if (isCsv(source.fileName ?? source.fileKey)) return openCsvRead(stream, source.characterEncoding, opts);
      return openExcelRead(await readWhole(stream, uploadMaxBytes(app)), opts);
    }
    case 'custom': {
      const custom = await loadCustom(app.ctx.db, source.customDatasourceId ?? 0);
      const ds = datasetOf(custom.dataset);
      if (!ds) throw new AppError('CUSTOM_DATASOURCE_DATASET', { value: custom.dataset });
      return openDatasetRead(app.ctx.db, ds, custom.tableData, owner, opts);
    }
    default:
      throw new AppError('DATASOURCE_TYPE_REQUIRED', {});
  }
}

export const isCsv = (name: string) => /\.csv$/i.test(name);

export type { DataSourceReader, OpenOptions } from './types.ts';
