import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DataOriginSaveBody } from '@app/shared/contracts/operations/dataSources';
import { AppError } from '../../../core/errors.ts';
import { nextBoundSecret, secretTargetChanged } from '../../../core/secrets.ts';
import { isCsv, openDataOrigin, sqlFieldsOf } from './read.ts';
import { testSqlSource } from './sqlSource.ts';
import { type DataOriginValues, findCustom } from './store.ts';
import { CHARACTER_ENCODINGS, type CharacterEncoding, DATA_SOURCE_TYPES, type DataOriginRecord, type DataSourceType, SQL_KINDS, type SqlKind, type TableField } from './types.ts';

/**
 * The checks of a data-source save (routes.ts) and of a custom data source's name and encoding (customRoutes.ts): the
 * spec's messages for missing fields, the SQL connection (and the stored password's binding to its target), and a
 * file source read once whole.
 */

export const blank = (v: unknown): v is null | undefined | '' => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
export const trimmed = (v: string | null | undefined) => (blank(v) ? null : v!.trim());

export function encodingOf(v: string | null | undefined): CharacterEncoding {
  const e = trimmed(v)?.toUpperCase();
  if (!e) throw new AppError('DATASOURCE_ENCODING_REQUIRED', {});
  const found = CHARACTER_ENCODINGS.find((x) => x === e || (x === 'UTF-8' && e === 'UTF8'));
  if (!found) throw new AppError('BAD_REQUEST', {}, { characterEncoding: { code: 'DATASOURCE_ENCODING_INVALID', params: { encodings: CHARACTER_ENCODINGS.join('、') } } });
  return found;
}

export function sqlConnection(app: FastifyInstance, body: Pick<DataOriginSaveBody, 'dbKind' | 'dataBaseSite' | 'dataBasePort' | 'dataBaseUser' | 'dataBasePassWord' | 'dataBaseName' | 'query'>, existing?: DataOriginRecord) {
  const kind = (trimmed(body.dbKind) ?? 'mysql').toLowerCase();
  if (!(SQL_KINDS as readonly string[]).includes(kind)) throw new AppError('BAD_REQUEST', {}, { dbKind: { code: 'DATASOURCE_DB_KIND_INVALID' } });
  const need = (v: string | null, label: string, field: string) => {
    if (!v) throw new AppError('DATASOURCE_SQL_FIELD_REQUIRED', { label }, { [field]: { code: 'DATASOURCE_SQL_FIELD_REQUIRED', params: { label } } });
    return v;
  };
  const site = need(trimmed(body.dataBaseSite), '数据库地址', 'dataBaseSite');
  const port = Number(body.dataBasePort ?? (kind === 'postgres' ? 5432 : 3306));
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new AppError('BAD_REQUEST', {}, { dataBasePort: { code: 'DATASOURCE_PORT_INVALID' } });
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
export function checkCommonFields(body: DataOriginSaveBody): void {
  const type = trimmed(body.type);
  if (!type) throw new AppError('DATASOURCE_TYPE_REQUIRED', {});
  if (!(DATA_SOURCE_TYPES as readonly string[]).includes(type)) throw new AppError('BAD_REQUEST', {}, { type: { code: 'DATASOURCE_TYPE_ONE_OF', params: { types: DATA_SOURCE_TYPES.join('、') } } });
  if (!trimmed(body.dataName)) throw new AppError('DATASOURCE_NAME_REQUIRED', {});
  encodingOf(body.characterEncoding);
}

/** The column values of a checked save; throws the spec's messages for missing fields. */
export async function checkedSource(app: FastifyInstance, req: FastifyRequest, body: DataOriginSaveBody, existing?: DataOriginRecord): Promise<DataOriginValues> {
  const type = trimmed(body.type) as DataSourceType | null;
  if (!type) throw new AppError('DATASOURCE_TYPE_REQUIRED', {});
  if (!(DATA_SOURCE_TYPES as readonly string[]).includes(type)) throw new AppError('BAD_REQUEST', {}, { type: { code: 'DATASOURCE_TYPE_ONE_OF', params: { types: DATA_SOURCE_TYPES.join('、') } } });
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
