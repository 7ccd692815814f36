import type { GeneratableKind } from '@app/shared/contracts/generator';
import type { FieldDef, ResourceDef } from '@app/shared/resource/types';
import { toSnakeCase } from '@app/shared/resource/types';
import type { ColumnInfo } from './introspect.ts';

/**
 * The generator's model of a table: one column's settings, the generator's configuration, and the resource
 * definition they give (naming, kind inference, the FieldDef of each column). generate.ts prints it into files.
 */

/** '1' fuzzy (LIKE), '2' exact, '' not a filter (spec §3: columnQuery). */
export type ColumnQuery = '' | '1' | '2';

/** One column's generator settings (stored per table in gen_column). */
export interface ColumnSetting {
  columnName: string;
  label: string;
  kind: GeneratableKind;
  columnQuery: ColumnQuery;
  /** Shown as a table column (spec: columnShow). */
  columnShow: boolean;
  /** Shown in the add/edit dialog. */
  formShow: boolean;
  required: boolean;
  dictName: string;
}

export interface GenConfig {
  author: string;
  /** Folder of the definition inside the zip (this project: packages/shared/src/resources). */
  pack: string;
  /** Folder of the migration inside the zip (apps/server/migrations). */
  moduleName: string;
  /** Folder of the web texts inside the zip (apps/web/src/locales). */
  path: string;
  /** Folder of the menu/permission notes inside the zip. */
  apiPath: string;
  /** Kept from the seed's form; nothing is overwritten because nothing is written (see README). */
  cover: boolean;
  /** Table-name prefix left out of the resource name (`acc_` : acc_bonus -> bonus). */
  prefix: string;
  /** Path of the menu directory the screen goes under (`records` = 人事档案, `tools` = 系统工具...). */
  menuParent: string;
  menuIcon: string;
}

export const DEFAULT_GEN_CONFIG: GenConfig = {
  author: 'admin',
  pack: 'packages/shared/src/resources',
  moduleName: 'apps/server/migrations',
  path: 'apps/web/src/locales',
  apiPath: 'generated',
  cover: false,
  prefix: '',
  menuParent: 'records',
  menuIcon: 'TableOutlined',
};

export interface GeneratedFile {
  /** Path inside the zip (and the tab title of the preview). */
  path: string;
  language: 'typescript' | 'json' | 'markdown';
  content: string;
}

export interface GenerateInput {
  table: string;
  /** The table comment (MySQL/PostgreSQL) or the label of a definition that already covers the table. */
  tableLabel: string;
  columns: ColumnInfo[];
  settings: ColumnSetting[];
  config: GenConfig;
  /** Number of the migration file, e.g. 16 -> 0016_<table>.ts (one past the server's last migration). */
  migrationNumber: number;
  /** Today's date for the file headers (YYYY-MM-DD). */
  date: string;
}

const SERVER_SET = new Set(['create_time', 'update_time']);

export function camelCase(snake: string): string {
  return snake.toLowerCase().replace(/[_\s-]+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** 'staff_name' -> 'Staff name' (draft texts for the other UI languages). */
export function humanise(snake: string): string {
  const words = snake.replace(/[_-]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : snake;
}

/** The resource's API name: table without the configured prefix, camelCase; always a valid identifier. */
export function resourceNameOf(table: string, prefix: string): string {
  const stripped = prefix && table.startsWith(prefix) && table.length > prefix.length ? table.slice(prefix.length) : table;
  let name = camelCase(stripped).replace(/[^A-Za-z0-9]/g, '');
  if (!/^[A-Za-z]/.test(name)) name = `t${name}`;
  return name;
}

export const permissionOf = (name: string) => name.replace(/[^A-Za-z0-9]/g, '').toUpperCase();

/**
 * The kind a column most likely holds, from its type as this project's migrations write them (tableBuilder.ts:
 * money bigint fen, ratios numeric(12,6), dates varchar(10), months varchar(7), times varchar(32), booleans
 * smallint) and a few column names.
 */
export function inferKind(c: ColumnInfo): GeneratableKind {
  const name = c.columnName.toLowerCase();
  const t = c.baseType;
  if (t === 'bigint') return 'money';
  if (['numeric', 'decimal', 'real', 'double', 'float', 'float4', 'float8'].includes(t)) return 'ratio';
  if (['smallint', 'tinyint', 'boolean', 'bool', 'bit'].includes(t)) return 'bool';
  if (['integer', 'int', 'mediumint', 'serial'].includes(t)) return 'int';
  if (t === 'date') return 'date';
  if (['timestamp', 'timestamptz', 'datetime'].includes(t)) return 'datetime';
  if (['text', 'mediumtext', 'longtext', 'clob'].includes(t)) return 'text';
  // text columns, by this project's conventions: dates varchar(10), months varchar(7), times varchar(32)
  if (c.maxLength === 10 && /date|born|day|warn|start|end|time/.test(name)) return 'date';
  if (c.maxLength === 7 && /month/.test(name)) return 'month';
  if (c.maxLength === 32 && /_time$|^time$/.test(name)) return 'datetime';
  if (SERVER_SET.has(name)) return 'datetime';
  if (/(^|_)id_?card$/.test(name)) return 'idCard';
  if (/(^|_)(phone|mobile|tel)$/.test(name)) return 'phone';
  if (/(^|_)e?mail$/.test(name)) return 'email';
  return 'string';
}

/** Default settings of a column: inferred kind, the known label, list and form shown, NOT NULL = required. */
export function defaultSetting(c: ColumnInfo, knownLabel?: string, knownDict?: string): ColumnSetting {
  const serverSet = c.autoIncrement || SERVER_SET.has(c.columnName);
  const kind = knownDict ? 'dict' : inferKind(c);
  return {
    columnName: c.columnName,
    label: knownLabel || c.columnComment || (c.columnName === 'id' ? 'ID' : humanise(c.columnName)),
    kind,
    columnQuery: '',
    columnShow: c.columnName !== 'id' && c.columnName !== 'update_time',
    formShow: !serverSet,
    // NOT NULL without a default: the client must send it
    required: c.notNull && c.defaultValue === null && !serverSet,
    dictName: knownDict ?? '',
  };
}

/** The FieldDef a column setting gives (what the generated definition file spells out). */
export function fieldOf(c: ColumnInfo, s: ColumnSetting): FieldDef {
  const name = camelCase(c.columnName);
  const f: FieldDef = { name, kind: s.dictName ? 'dict' : s.kind, label: s.label || c.columnName };
  if (toSnakeCase(name) !== c.columnName) f.column = c.columnName;
  const serverSet = c.autoIncrement || SERVER_SET.has(c.columnName);
  if (serverSet) f.readOnly = true;
  if (f.kind === 'dict') f.dict = s.dictName || toSnakeCase(name);
  if (s.required && !serverSet) f.required = true;
  if ((f.kind === 'string' || f.kind === 'dict') && c.maxLength) f.maxLength = c.maxLength;
  if (s.columnQuery === '1') f.filter = ['string', 'text', 'dict', 'idCard', 'phone', 'email'].includes(f.kind) ? 'like' : 'eq';
  if (s.columnQuery === '2') f.filter = 'eq';
  if (f.filter) f.search = true;
  if (c.defaultValue !== null && !serverSet) {
    // in the API's terms: booleans, numbers, yuan for money (the table holds fen)
    const d = c.defaultValue;
    f.defaultValue = f.kind === 'bool' ? Number(d) !== 0 : f.kind === 'money' ? Number(d) / 100 : ['int', 'ratio'].includes(f.kind) ? Number(d) : String(d);
  }
  if (!s.columnShow) f.list = false;
  if (!s.formShow && !serverSet) f.form = false;
  return f;
}

/** The definition object for a table (also what the tests compare the generated file with). */
export function definitionOf(input: GenerateInput): ResourceDef {
  const name = resourceNameOf(input.table, input.config.prefix);
  const byName = new Map(input.settings.map((s) => [s.columnName, s]));
  const fields = input.columns.map((c) => fieldOf(c, byName.get(c.columnName) ?? defaultSetting(c)));
  const def: ResourceDef = {
    name,
    table: input.table,
    permission: permissionOf(name),
    label: input.tableLabel || name,
    menu: {
      parent: input.config.menuParent || undefined,
      path: name,
      icon: input.config.menuIcon || 'TableOutlined',
      titles: { en: humanise(toSnakeCase(name)), es: humanise(toSnakeCase(name)), ja: humanise(toSnakeCase(name)) },
    },
    defaultSort: input.columns.some((c) => c.columnName === 'id') ? [['id', 'desc']] : undefined,
    fields,
  };
  if (!def.defaultSort) delete def.defaultSort;
  if (!def.menu?.parent) delete def.menu?.parent;
  return def;
}
