import fs from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  type CustomSaveBody,
  createCustomDatasource,
  type customRow,
  DATA_SOURCE_CODES,
  type DataOriginSaveBody,
  dataOriginDetails,
  type dataOriginDetailsAnswer,
  dataOriginForTask,
  type dataOriginRow,
  deleteCustomDatasource,
  deleteDataOrigin,
  listCustomDatasources,
  listDataOrigins,
  listDatasets,
  saveDataOrigin,
  testDataOriginConnection,
  updateCustomDatasource,
  uploadDataOriginFile,
} from '@app/shared/contracts/operations/dataSources';
import { hasPermission } from '@app/shared/resource';
import type { CurrentUser } from '../../../core/context.ts';
import { insertReturningId, nowIso } from '../../../core/db.ts';
import { AppError } from '../../../core/errors.ts';
import { maskSecret, nextBoundSecret, secretTargetChanged } from '../../../core/secrets.ts';
import type { ReceivedUpload } from '../../../core/storage/index.ts';
import { DATASETS, datasetColumnNames, datasetFields, datasetOf, projectionTableData } from './datasets.ts';
import { openExcelRead } from './fileSource.ts';
import { isCsv, openDataOrigin, sqlFieldsOf, storageOf, uploadMaxBytes } from './read.ts';
import { routeContract } from '../../../crud/registerContract.ts';
import { testSqlSource } from './sqlSource.ts';
import { customFromRow, type DataOriginValues, dataOriginFromRow, findCustom, loadCustom, loadDataOrigin } from './store.ts';
import {
  CHARACTER_ENCODINGS,
  type CharacterEncoding,
  type CustomDatasourceRecord,
  DATA_SOURCE_TYPES,
  type DataOriginRecord,
  type DataSourceType,
  PREVIEW_ROWS,
  SQL_KINDS,
  type SqlKind,
  type TableField,
} from './types.ts';

/**
 * The data-source endpoints of spec §7 "Data" (design §2.5): the `/dataOrigin` manager, the upload, the
 * `/customDatasource` list, plus a test-connection action and the dataset catalogue the custom-source dialog
 * needs. Lists are 1-based (`pageNumber`/`pageSize`) as the spec's data-source list is. A save of a SQL source
 * connects and runs the query for one row first; a save of a file source reads the whole file once (header,
 * encoding, row count), so a broken source is refused at save, not at 2 a.m. in a task.
 */

const { create: CREATE, edit: EDIT } = DATA_SOURCE_CODES;

const blank = (v: unknown): v is null | undefined | '' => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const trimmed = (v: string | null | undefined) => (blank(v) ? null : v!.trim());

function requirePermission(user: CurrentUser, codes: readonly string[]): void {
  if (!hasPermission(user.permissions, codes)) throw new AppError('FORBIDDEN', {});
}

function encodingOf(v: string | null | undefined): CharacterEncoding {
  const e = trimmed(v)?.toUpperCase();
  if (!e) throw new AppError('DATASOURCE_ENCODING_REQUIRED', {});
  const found = CHARACTER_ENCODINGS.find((x) => x === e || (x === 'UTF-8' && e === 'UTF8'));
  if (!found) throw new AppError('BAD_REQUEST', {}, { characterEncoding: `字符编码只能是 ${CHARACTER_ENCODINGS.join('、')}` });
  return found;
}

function toApi(r: DataOriginRecord, customName: string | null): z.infer<typeof dataOriginRow> {
  return {
    id: r.id,
    dataName: r.dataName,
    code: r.code,
    type: r.type,
    dbKind: r.dbKind,
    dataBaseSite: r.dbSite,
    dataBasePort: r.dbPort,
    dataBaseUser: r.dbUser,
    dataBasePassWord: maskSecret(r.dbPasswordSealed),
    hasPassword: Boolean(r.dbPasswordSealed),
    dataBaseName: r.dbName,
    query: r.query,
    url: r.fileKey,
    fileName: r.fileName,
    characterEncoding: r.characterEncoding,
    customDatabase: r.customDatasourceId,
    customDatabaseName: customName,
    tableData: r.tableData,
    rowCount: r.rowCount,
    createBy: r.createBy,
    createTime: r.createTime,
    updateTime: r.updateTime,
  };
}

function customToApi(r: CustomDatasourceRecord): z.infer<typeof customRow> {
  return { ...r, datasetName: datasetOf(r.dataset)?.label ?? r.dataset };
}

/** Guards other modules add (a task that uses the source): a message when the source may not be deleted. */
type DeleteGuard = (id: number) => Promise<string | null>;
const deleteGuards = new WeakMap<FastifyInstance, DeleteGuard[]>();

/** Lets another module refuse deleting a data source it still uses (409 with the guard's message). */
export function addDataSourceDeleteGuard(app: FastifyInstance, guard: DeleteGuard): void {
  const root = app;
  const list = deleteGuards.get(root) ?? [];
  list.push(guard);
  deleteGuards.set(root, list);
}

/** Tasks referencing the source (model_task of the task module, when that table exists). */
async function usedByTask(app: FastifyInstance, id: number): Promise<boolean> {
  try {
    const row = await app.ctx.db.selectFrom('model_task').select('id').where('data_id', '=', id).limit(1).executeTakeFirst();
    return Boolean(row);
  } catch {
    return false; // the task tables are not there (yet)
  }
}

export function registerDataSourceRoutes(fastify: FastifyInstance): void {
  const app = fastify;
  const db = app.ctx.db;

  async function customNames(ids: (number | null)[]): Promise<Map<number, string>> {
    const wanted = [...new Set(ids.filter((x): x is number => x !== null))];
    if (!wanted.length) return new Map();
    const rows = await db.selectFrom('custom_datasource').select(['id', 'name']).where('id', 'in', wanted).execute();
    return new Map(rows.map((r) => [Number(r.id), String(r.name)]));
  }

  // ---- /dataOrigin ------------------------------------------------------------------------------------------

  routeContract(app, listDataOrigins, async (req) => {
      const { pageNumber = 1, pageSize = 10, dataName, type } = req.query;
      let qb = db.selectFrom('data_origin');
      if (dataName) qb = qb.where('data_name', 'like', `%${dataName.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      if (type) qb = qb.where('type', '=', type);
      const total = Number(((await qb.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst()) as { n: number } | undefined)?.n ?? 0);
      const rows = total
        ? await qb
            .selectAll()
            .orderBy('id', 'desc')
            .limit(pageSize)
            .offset((pageNumber - 1) * pageSize)
            .execute()
        : [];
      const records = rows.map(dataOriginFromRow);
      const names = await customNames(records.map((r) => r.customDatasourceId));
      return { content: records.map((r) => toApi(r, r.customDatasourceId ? (names.get(r.customDatasourceId) ?? null) : null)), totalElements: total };
  });

  routeContract(app, dataOriginDetails, async (req) => {
      const source = await loadDataOrigin(db, req.query.id!);
      const names = await customNames([source.customDatasourceId]);
      const out: z.infer<typeof dataOriginDetailsAnswer> = { ...toApi(source, source.customDatasourceId ? (names.get(source.customDatasourceId) ?? null) : null), pvData: [] };
      // the preview is read now, as the caller (a custom source shows only what they may see), never stored
      try {
        const reader = await openDataOrigin(app, source, req.user!, { limit: PREVIEW_ROWS });
        try {
          for await (const row of reader.rows) out.pvData.push(row);
          if (reader.fields.length) out.tableData = reader.fields.map((fieldName) => source.tableData.find((t) => t.fieldName === fieldName) ?? { fieldName });
        } finally {
          await reader.close();
        }
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        out.pvError = err.message;
      }
      return out;
  });

  routeContract(app, dataOriginForTask, async (req) => {
      const s = await loadDataOrigin(db, req.query.id!);
      return { id: s.id, dataName: s.dataName, type: s.type, tableData: s.tableData };
  });

  routeContract(app, saveDataOrigin, async (req, reply) => {
      const body = req.body;
      const user = req.user!;
      const existing = body.id ? await loadDataOrigin(db, body.id) : undefined;
      // the spec's messages for an incomplete form first (the route admits CREATE or EDIT holders), then
      // the right for what this save does, before anything connects or reads a file
      checkCommonFields(body);
      requirePermission(user, existing ? EDIT : CREATE);
      const values = await checkedSource(app, req, body, existing);
      const now = nowIso();
      if (values.code) {
        const clash = await db.selectFrom('data_origin').select('id').where('code', '=', values.code).executeTakeFirst();
        if (clash && Number(clash.id) !== existing?.id) throw new AppError('DATASOURCE_CODE_TAKEN', {});
      }
      if (existing) {
        await db.updateTable('data_origin').set({ ...values, update_time: now }).where('id', '=', existing.id).execute();
        if (existing.fileKey && existing.fileKey !== values.file_key) await deleteStoredFile(app, existing.fileKey, existing.fileRef);
        const saved = await loadDataOrigin(db, existing.id);
        return toApi(saved, null);
      }
      const id = await insertReturningId(db, app.ctx.dialect, 'data_origin', { ...values, owner_id: user.id, create_by: user.username, create_time: now, update_time: now });
      reply.status(201);
      return toApi(await loadDataOrigin(db, id), null);
  });

  routeContract(app, testDataOriginConnection, async (req) => {
      const body = req.body;
      // a test by id may use the stored password, which only an editor of the source may have sent anywhere
      if (body.id) requirePermission(req.user!, EDIT);
      const existing = body.id ? await loadDataOrigin(db, body.id) : undefined;
      const conn = sqlConnection(app, body, existing);
      const { fields } = await testSqlSource(conn.fields, conn.query, app.ctx.config.dataSourceHostAllowlist ?? []);
      return { message: '连接成功', fields };
  });

  routeContract(app, deleteDataOrigin, async (req) => {
      const source = await loadDataOrigin(db, req.body.id);
      if (await usedByTask(app, source.id)) throw new AppError('DATASOURCE_IN_USE', {});
      for (const guard of deleteGuards.get(fastify) ?? []) {
        const why = await guard(source.id);
        if (why) throw new AppError(409, why, 'DATASOURCE_IN_USE');
      }
      await db.deleteFrom('data_origin').where('id', '=', source.id).execute();
      if (source.fileKey) await deleteStoredFile(app, source.fileKey, source.fileRef);
      return { message: '删除成功' };
  });

  routeContract(app, uploadDataOriginFile, async (req) => receiveUpload(app, req));

  // ---- /customDatasource ------------------------------------------------------------------------------------

  routeContract(app, listCustomDatasources, async (req) => {
      const { pageNumber = 1, pageSize = 10, name } = req.query;
      let qb = db.selectFrom('custom_datasource');
      if (name) qb = qb.where('name', 'like', `%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      const total = Number(((await qb.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst()) as { n: number } | undefined)?.n ?? 0);
      const rows = total
        ? await qb
            .selectAll()
            .orderBy('id', 'desc')
            .limit(pageSize)
            .offset((pageNumber - 1) * pageSize)
            .execute()
        : [];
      return { content: rows.map((r) => customToApi(customFromRow(r))), totalElements: total };
  });

  routeContract(app, listDatasets, async () =>
    DATASETS.map((ds) => {
      const names = datasetColumnNames(ds);
      return { key: ds.key, label: ds.label, fields: datasetFields(ds).map((f) => ({ field: f.name, fieldName: names.get(f.name)!, type: f.kind })) };
    }),
  );

  async function saveCustom(body: CustomSaveBody, user: CurrentUser, existing?: CustomDatasourceRecord) {
    const name = trimmed(body.name);
    if (!name) throw new AppError('DATASOURCE_NAME_REQUIRED', {});
    const characterEncoding = encodingOf(body.characterEncoding);
    const ds = datasetOf(trimmed(body.dataset) ?? '');
    if (!ds) throw new AppError('CUSTOM_DATASOURCE_DATASET', { value: trimmed(body.dataset) ?? '' });
    // fields by API name, or by the column name the list shows
    const byColumn = new Map([...datasetColumnNames(ds)].map(([field, col]) => [col, field]));
    const fields = (body.tableData ?? []).map((t) => t.field ?? byColumn.get(t.fieldName ?? '') ?? t.fieldName ?? '').filter(Boolean);
    if (!fields.length) throw new AppError('CUSTOM_DATASOURCE_FIELDS_REQUIRED', {});
    const tableData = projectionTableData(ds, fields);
    const clash = await db.selectFrom('custom_datasource').select('id').where('name', '=', name).executeTakeFirst();
    if (clash && Number(clash.id) !== existing?.id) throw new AppError('CUSTOM_DATASOURCE_NAME_TAKEN', {});
    const now = nowIso();
    const values = { name, dataset: ds.key, character_encoding: characterEncoding, table_data: JSON.stringify(tableData), update_time: now };
    if (existing) {
      await db.updateTable('custom_datasource').set(values).where('id', '=', existing.id).execute();
      // the data sources built on it show the new column list
      await db.updateTable('data_origin').set({ table_data: JSON.stringify(tableData), update_time: now }).where('custom_datasource_id', '=', existing.id).execute();
      return existing.id;
    }
    return insertReturningId(db, app.ctx.dialect, 'custom_datasource', { ...values, create_by: user.username, create_time: now });
  }

  routeContract(app, createCustomDatasource, async (req, reply) => {
      const id = await saveCustom(req.body, req.user!);
      reply.status(201);
      return customToApi(await loadCustom(db, id));
  });

  routeContract(app, updateCustomDatasource, async (req) => {
      if (!req.body.id) throw new AppError('ID_REQUIRED', {});
      const existing = await loadCustom(db, req.body.id);
      await saveCustom(req.body, req.user!, existing);
      return customToApi(await loadCustom(db, existing.id));
  });

  routeContract(app, deleteCustomDatasource, async (req) => {
      const existing = await loadCustom(db, req.body.id);
      const used = await db.selectFrom('data_origin').select('id').where('custom_datasource_id', '=', existing.id).limit(1).executeTakeFirst();
      if (used) throw new AppError('CUSTOM_DATASOURCE_IN_USE', {});
      await db.deleteFrom('custom_datasource').where('id', '=', existing.id).execute();
      return { message: '删除成功' };
  });
}

// ---- save checks ---------------------------------------------------------------------------------------------

function sqlConnection(app: FastifyInstance, body: Pick<DataOriginSaveBody, 'dbKind' | 'dataBaseSite' | 'dataBasePort' | 'dataBaseUser' | 'dataBasePassWord' | 'dataBaseName' | 'query'>, existing?: DataOriginRecord) {
  const kind = (trimmed(body.dbKind) ?? 'mysql').toLowerCase();
  if (!(SQL_KINDS as readonly string[]).includes(kind)) throw new AppError('BAD_REQUEST', {}, { dbKind: '数据库类型只能是 mysql（含 MariaDB）或 postgres' });
  const need = (v: string | null, label: string, field: string) => {
    if (!v) throw new AppError('DATASOURCE_SQL_FIELD_REQUIRED', { label }, { [field]: `请填写${label}` });
    return v;
  };
  const site = need(trimmed(body.dataBaseSite), '数据库地址', 'dataBaseSite');
  const port = Number(body.dataBasePort ?? (kind === 'postgres' ? 5432 : 3306));
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new AppError('BAD_REQUEST', {}, { dataBasePort: '端口必须是1到65535之间的整数' });
  const user = need(trimmed(body.dataBaseUser), '数据库账号', 'dataBaseUser');
  const database = need(trimmed(body.dataBaseName), '数据库名称', 'dataBaseName');
  const query = need(trimmed(body.query), '查询语句或表名', 'query');
  // the password typed now, or (empty / the mask) the stored one, but only to the target it was given for:
  // a test never needs the secret sent back, and a changed target never receives the stored one (finding N1)
  const target = sqlTarget(kind, site, port, user, database);
  const stored = existing?.type === 'sql' ? { sealed: existing.dbPasswordSealed, target: sqlTarget(existing.dbKind ?? '', existing.dbSite ?? '', existing.dbPort, existing.dbUser ?? '', existing.dbName ?? '') } : undefined;
  const sealed = nextBoundSecret(app.ctx.secrets, stored, body.dataBasePassWord, target, (changed) => secretTargetChanged('DATASOURCE_TARGET_CHANGED', 'dataBasePassWord', changed));
  const fields = sqlFieldsOf(app, { dbKind: kind as SqlKind, dbSite: site, dbPort: port, dbUser: user, dbName: database, dbPasswordSealed: sealed });
  return { kind: kind as SqlKind, site, port, user, database, query, sealed, fields };
}

/** What a stored data-source password is bound to, keyed by the form's field names (host names are case-blind). */
function sqlTarget(kind: string, site: string, port: number | null, user: string, database: string) {
  return { dbKind: kind.toLowerCase(), dataBaseSite: site.trim().toLowerCase(), dataBasePort: port, dataBaseUser: user, dataBaseName: database };
}

/** Type, name and encoding: the spec's messages (数据源类型必填, 数据源名称必填, 字符编码必填). */
function checkCommonFields(body: DataOriginSaveBody): void {
  const type = trimmed(body.type);
  if (!type) throw new AppError('DATASOURCE_TYPE_REQUIRED', {});
  if (!(DATA_SOURCE_TYPES as readonly string[]).includes(type)) throw new AppError('BAD_REQUEST', {}, { type: `数据源类型只能是 ${DATA_SOURCE_TYPES.join('、')}` });
  if (!trimmed(body.dataName)) throw new AppError('DATASOURCE_NAME_REQUIRED', {});
  encodingOf(body.characterEncoding);
}

/** The column values of a checked save; throws the spec's messages for missing fields. */
async function checkedSource(app: FastifyInstance, req: FastifyRequest, body: DataOriginSaveBody, existing?: DataOriginRecord): Promise<DataOriginValues> {
  const type = trimmed(body.type) as DataSourceType | null;
  if (!type) throw new AppError('DATASOURCE_TYPE_REQUIRED', {});
  if (!(DATA_SOURCE_TYPES as readonly string[]).includes(type)) throw new AppError('BAD_REQUEST', {}, { type: `数据源类型只能是 ${DATA_SOURCE_TYPES.join('、')}` });
  const dataName = trimmed(body.dataName);
  if (!dataName) throw new AppError('DATASOURCE_NAME_REQUIRED', {});
  const characterEncoding = encodingOf(body.characterEncoding);
  const base: DataOriginValues = {
    data_name: dataName,
    code: trimmed(body.code),
    type,
    character_encoding: characterEncoding,
    db_kind: null,
    db_site: null,
    db_port: null,
    db_user: null,
    db_password_enc: null,
    db_name: null,
    query: null,
    file_key: null,
    file_ref: null,
    file_name: null,
    custom_datasource_id: null,
  };
  const user = req.user!;
  if (type === 'sql') {
    const c = sqlConnection(app, body, existing?.type === 'sql' ? existing : undefined);
    const { fields } = await testSqlSource(c.fields, c.query, app.ctx.config.dataSourceHostAllowlist ?? []);
    return {
      ...base,
      db_kind: c.kind,
      db_site: c.site,
      db_port: c.port,
      db_user: c.user,
      db_password_enc: c.sealed,
      db_name: c.database,
      query: c.query,
      table_data: JSON.stringify(fields.map((fieldName) => ({ fieldName }))),
      row_count: null,
    };
  }
  if (type === 'custom') {
    if (!body.customDatabase) throw new AppError('CUSTOM_DATASOURCE_REQUIRED', {});
    const custom = await findCustom(app.ctx.db, body.customDatabase);
    if (!custom) throw new AppError('CUSTOM_DATASOURCE_NOT_FOUND', {});
    return { ...base, custom_datasource_id: custom.id, table_data: JSON.stringify(custom.tableData), row_count: null };
  }
  // csv / xls: an upload of this user, or the file the source already has
  const url = trimmed(body.url);
  if (!url) throw new AppError('DATASOURCE_UPLOAD_UNKNOWN', {});
  let fileName: string;
  let fileRef: string | null;
  if (existing?.fileKey === url) {
    fileName = existing.fileName ?? url;
    fileRef = existing.fileRef;
  } else {
    const upload = await app.ctx.db.selectFrom('data_source_upload').selectAll().where('storage_key', '=', url).where('owner_id', '=', user.id).executeTakeFirst();
    if (!upload) throw new AppError('DATASOURCE_UPLOAD_UNKNOWN', {});
    fileName = String(upload.file_name);
    fileRef = (upload.storage_ref as string | null) ?? null;
  }
  const csv = isCsv(fileName) || isCsv(url);
  if (type === 'csv' ? !csv : csv) throw new AppError('DATASOURCE_TYPE_FILE', { type, ext: csv ? 'csv' : 'Excel' });
  const probe: DataOriginRecord = {
    ...(existing ?? ({} as DataOriginRecord)),
    id: existing?.id ?? 0,
    dataName,
    type,
    characterEncoding,
    fileKey: url,
    fileRef,
    fileName,
    tableData: [],
  };
  // read the whole file once: header, encoding and every row checked, rows counted
  const reader = await openDataOrigin(app, probe, user);
  let rowCount = 0;
  try {
    for await (const _row of reader.rows) rowCount++;
  } finally {
    await reader.close();
  }
  const tableData: TableField[] = reader.fields.map((fieldName) => ({ fieldName }));
  return { ...base, file_key: url, file_ref: fileRef, file_name: fileName, table_data: JSON.stringify(tableData), row_count: rowCount };
}

async function deleteStoredFile(app: FastifyInstance, key: string, ref: string | null): Promise<void> {
  try {
    const storage = storageOf(app);
    const store = ref ? await storage.storeFor(JSON.parse(ref)) : await storage.active();
    await store.delete([key]);
    await app.ctx.db.deleteFrom('data_source_upload').where('storage_key', '=', key).execute();
  } catch (err) {
    // the row is gone either way; an object left behind is found by the storage screen's synchronisation
    app.log.warn({ err: (err as Error).message, key }, 'data-source file not deleted');
  }
}

const DATA_FILE_EXTENSIONS = ['csv', 'xls', 'xlsx'];

/** The multipart upload: checked by the storage plugin (extension, magic bytes), capped, a workbook opened once. */
async function receiveUpload(app: FastifyInstance, req: FastifyRequest) {
  if (!req.isMultipart()) throw new AppError('UPLOAD_REQUIRED', {});
  const storage = storageOf(app);
  const max = uploadMaxBytes(app);
  const file = await req.file({ limits: { fileSize: max, files: 1 } });
  if (!file) throw new AppError('UPLOAD_REQUIRED', {});
  if (file.fieldname !== 'file') {
    file.file.resume();
    throw new AppError('UPLOAD_FIELD', {});
  }
  const ext = (file.filename.split('.').pop() ?? '').toLowerCase();
  if (!DATA_FILE_EXTENSIONS.includes(ext) || !file.filename.includes('.')) {
    file.file.resume();
    throw new AppError('DATASOURCE_FILE_TYPE', {});
  }
  let upload: ReceivedUpload;
  try {
    upload = await storage.receive('dataSource', file.filename, file.file);
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' || file.file.truncated) throw new AppError('UPLOAD_TOO_LARGE', { max: `${Math.round(max / 1024 / 1024)}MB` });
    throw err;
  }
  try {
    if (file.file.truncated || upload.size > max) throw new AppError('UPLOAD_TOO_LARGE', { max: `${Math.round(max / 1024 / 1024)}MB` });
    if (ext !== 'csv') {
      // a workbook that cannot be opened or has no header is refused now, not at save
      const reader = await openExcelRead(await fs.readFile(upload.file), { limit: 1 });
      await reader.close();
    }
    const saved = await storage.store('dataSource', upload);
    await app.ctx.db
      .insertInto('data_source_upload')
      .values({
        storage_key: saved.key,
        storage_ref: JSON.stringify({ provider: saved.provider, bucket: saved.bucket, type: saved.type }),
        file_name: upload.filename,
        extension: ext,
        size: saved.size,
        owner_id: req.user!.id,
        create_time: nowIso(),
      })
      .execute();
    return { path: saved.key, url: saved.key, fileName: upload.filename, size: saved.size, message: '上传文件成功' };
  } catch (err) {
    await upload.discard().catch(() => undefined);
    throw err;
  }
}
