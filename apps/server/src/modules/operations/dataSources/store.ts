import type { Insertable, Selectable } from 'kysely';
import type { DB, TypedDb } from '../../../core/dbTypes.ts';
import { AppError } from '../../../core/errors.ts';
import {
  CHARACTER_ENCODINGS,
  type CharacterEncoding,
  type CustomDatasourceRecord,
  type DataOriginRecord,
  type DataSourceType,
  type SqlKind,
  type TableField,
} from './types.ts';

/** Reading and mapping the data-source tables (migration 0011). */

/** The rows as the database gives them. */
export type DataOriginDbRow = Selectable<DB['data_origin']>;
export type CustomDatasourceDbRow = Selectable<DB['custom_datasource']>;
/** The columns a save of a data source sets (owner and times are added by the route). */
export type DataOriginValues = Omit<Insertable<DB['data_origin']>, 'id' | 'owner_id' | 'create_by' | 'create_time' | 'update_time'>;

const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
const num = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));

export function parseTableData(text: unknown): TableField[] {
  if (typeof text !== 'string' || !text) return [];
  try {
    const parsed = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((f) => f && typeof f.fieldName === 'string') : [];
  } catch {
    return [];
  }
}

function encodingOf(v: unknown): CharacterEncoding {
  return (CHARACTER_ENCODINGS as readonly string[]).includes(String(v)) ? (v as CharacterEncoding) : 'UTF-8';
}

export function dataOriginFromRow(r: DataOriginDbRow): DataOriginRecord {
  return {
    id: Number(r.id),
    dataName: String(r.data_name ?? ''),
    code: str(r.code),
    type: String(r.type) as DataSourceType,
    dbKind: (str(r.db_kind) as SqlKind | null) ?? null,
    dbSite: str(r.db_site),
    dbPort: num(r.db_port),
    dbUser: str(r.db_user),
    dbPasswordSealed: str(r.db_password_enc),
    dbName: str(r.db_name),
    query: str(r.query),
    fileKey: str(r.file_key),
    fileRef: str(r.file_ref),
    fileName: str(r.file_name),
    characterEncoding: encodingOf(r.character_encoding),
    customDatasourceId: num(r.custom_datasource_id),
    tableData: parseTableData(r.table_data),
    rowCount: num(r.row_count),
    ownerId: num(r.owner_id),
    createBy: str(r.create_by),
    createTime: str(r.create_time),
    updateTime: str(r.update_time),
  };
}

export function customFromRow(r: CustomDatasourceDbRow): CustomDatasourceRecord {
  return {
    id: Number(r.id),
    name: String(r.name ?? ''),
    dataset: String(r.dataset ?? ''),
    characterEncoding: encodingOf(r.character_encoding),
    tableData: parseTableData(r.table_data),
    createBy: str(r.create_by),
    createTime: str(r.create_time),
    updateTime: str(r.update_time),
  };
}

export async function findDataOrigin(db: TypedDb, id: number): Promise<DataOriginRecord | undefined> {
  const row = await db.selectFrom('data_origin').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? dataOriginFromRow(row) : undefined;
}

export async function loadDataOrigin(db: TypedDb, id: number): Promise<DataOriginRecord> {
  const found = await findDataOrigin(db, id);
  if (!found) throw new AppError('DATASOURCE_NOT_FOUND', {});
  return found;
}

export async function findCustom(db: TypedDb, id: number): Promise<CustomDatasourceRecord | undefined> {
  const row = await db.selectFrom('custom_datasource').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? customFromRow(row) : undefined;
}

export async function loadCustom(db: TypedDb, id: number): Promise<CustomDatasourceRecord> {
  const found = await findCustom(db, id);
  if (!found) throw new AppError('CUSTOM_DATASOURCE_NOT_FOUND', {});
  return found;
}
