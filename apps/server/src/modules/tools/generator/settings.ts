import { RESOURCES } from '@app/shared/resources/index';
import { columnOf, type ResourceDef } from '@app/shared/resource/types';
import type { Selectable } from 'kysely';
import { nowIso } from '../../../core/db.ts';
import type { DB, TypedDb } from '../../../core/dbTypes.ts';
import { GENERATABLE_KINDS, type GeneratableKind } from '@app/shared/contracts/generator';
import { type ColumnQuery, type ColumnSetting, DEFAULT_GEN_CONFIG, defaultSetting, type GenConfig } from './definition.ts';
import type { ColumnInfo } from './introspect.ts';

/**
 * What the generator remembers: its one configuration row (`gen_config`) and each table's column settings
 * (`gen_column`). A column without a stored row gets defaults: the inferred kind, and the label and dictionary
 * of a shipped definition that already covers the table (so 员工姓名, not "Staff name", for accounts_staff).
 */

type ColumnRow = Selectable<DB['gen_column']>;

const bool = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';

/** The shipped definition whose table this is, if any. */
export function definitionOfTable(table: string): ResourceDef | undefined {
  return Object.values(RESOURCES).find((d) => d.table === table);
}

export async function readGenConfig(db: TypedDb): Promise<GenConfig> {
  const row = await db.selectFrom('gen_config').selectAll().orderBy('id').limit(1).executeTakeFirst();
  if (!row) return { ...DEFAULT_GEN_CONFIG };
  const s = (v: string | null, d: string) => v ?? d;
  return {
    author: s(row.author, DEFAULT_GEN_CONFIG.author),
    pack: s(row.pack, DEFAULT_GEN_CONFIG.pack),
    moduleName: s(row.module_name, DEFAULT_GEN_CONFIG.moduleName),
    path: s(row.path, DEFAULT_GEN_CONFIG.path),
    apiPath: s(row.api_path, DEFAULT_GEN_CONFIG.apiPath),
    cover: bool(row.cover),
    prefix: s(row.prefix, ''),
    menuParent: s(row.menu_parent, ''),
    menuIcon: s(row.menu_icon, DEFAULT_GEN_CONFIG.menuIcon),
  };
}

export async function saveGenConfig(db: TypedDb, c: GenConfig): Promise<void> {
  const values = {
    author: c.author,
    pack: c.pack,
    module_name: c.moduleName,
    path: c.path,
    api_path: c.apiPath,
    cover: c.cover ? 1 : 0,
    prefix: c.prefix,
    menu_parent: c.menuParent,
    menu_icon: c.menuIcon,
    update_time: nowIso(),
  };
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('gen_config').select('id').orderBy('id').limit(1).executeTakeFirst();
    if (row) await trx.updateTable('gen_config').set(values).where('id', '=', row.id).execute();
    else await trx.insertInto('gen_config').values({ ...values, create_time: values.update_time }).execute();
  });
}

/** A column's setting as the API shows it, with what introspection found. */
export interface ColumnView extends ColumnSetting {
  columnType: string;
  columnComment: string;
  notNull: boolean;
  primaryKey: boolean;
  autoIncrement: boolean;
  maxLength: number | null;
  /** A setting is stored for this column (otherwise these are the defaults). */
  stored: boolean;
}

const KINDS = new Set<string>(GENERATABLE_KINDS);

function storedSetting(r: ColumnRow): Partial<ColumnSetting> {
  const q = r.column_query ?? '';
  return {
    label: r.label ?? undefined,
    kind: KINDS.has(String(r.kind)) ? (String(r.kind) as GeneratableKind) : undefined,
    columnQuery: (['1', '2'].includes(q) ? q : '') as ColumnQuery,
    columnShow: bool(r.column_show),
    formShow: bool(r.form_show),
    required: bool(r.required),
    dictName: r.dict_name ?? '',
  };
}

/** Every column of the table with its stored setting or the defaults. */
export async function columnSettings(db: TypedDb, table: string, columns: ColumnInfo[]): Promise<ColumnView[]> {
  const rows = await db.selectFrom('gen_column').selectAll().where('table_name', '=', table).execute();
  const byColumn = new Map(rows.map((r) => [r.column_name, r]));
  const known = definitionOfTable(table);
  const knownField = (column: string) => known?.fields.find((f) => columnOf(f) === column);
  return columns.map((c) => {
    const f = knownField(c.columnName);
    const base = defaultSetting(c, f?.label, f?.kind === 'dict' ? f.dict : undefined);
    const r = byColumn.get(c.columnName);
    const stored = r ? storedSetting(r) : {};
    const setting: ColumnSetting = { ...base, ...Object.fromEntries(Object.entries(stored).filter(([, v]) => v !== undefined)) };
    return {
      ...setting,
      columnType: c.columnType,
      columnComment: c.columnComment,
      notNull: c.notNull,
      primaryKey: c.primaryKey,
      autoIncrement: c.autoIncrement,
      maxLength: c.maxLength,
      stored: !!r,
    };
  });
}

/** Replace the table's stored column settings (one transaction). */
export async function saveColumnSettings(db: TypedDb, table: string, settings: ColumnSetting[], columns: ColumnInfo[]): Promise<void> {
  const position = new Map(columns.map((c) => [c.columnName, c.position]));
  const now = nowIso();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('gen_column').where('table_name', '=', table).execute();
    if (!settings.length) return;
    await trx
      .insertInto('gen_column')
      .values(
        settings.map((s) => ({
          table_name: table,
          column_name: s.columnName,
          label: s.label,
          kind: s.kind,
          column_query: s.columnQuery,
          column_show: s.columnShow ? 1 : 0,
          form_show: s.formShow ? 1 : 0,
          required: s.required ? 1 : 0,
          dict_name: s.dictName,
          sort: position.get(s.columnName) ?? 0,
          create_time: now,
          update_time: now,
        })),
      )
      .execute();
  });
}
