import type { FieldDef, FieldKind, ResourceDef } from '@app/shared/resource/types';
import { toSnakeCase } from '@app/shared/resource/types';
import type { ColumnInfo } from './introspect.ts';

/**
 * The code generator's output: *this project's* artefacts for one table (issue 12 item 6) — a resource
 * definition (`defineResource`, field kinds of FIELD_KINDS), a Kysely migration built with the project's
 * TableSpec vocabulary, the menu row and permission codes the definition implies (the start-up sync creates them
 * from its `menu` and `permission`), and the field-label texts for the definition's `labels` and the web's menu.json. Pure: it
 * only returns texts; nothing is ever written into the server's source tree (the screen previews them and
 * offers them as a zip).
 */

/** Field kinds the generator offers (`ref` needs a target resource chosen by hand, so it is not offered). */
export const GENERATABLE_KINDS = ['string', 'text', 'int', 'money', 'ratio', 'date', 'month', 'datetime', 'bool', 'dict', 'idCard', 'phone', 'email'] as const satisfies readonly FieldKind[];
export type GeneratableKind = (typeof GENERATABLE_KINDS)[number];

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

// ---- printing ------------------------------------------------------------------------------------------------

/**
 * Every text of the generated files comes from someone else: the generator's settings, the database's table and
 * column names and comments (a hostile `COMMENT ON COLUMN` can carry anything). So nothing is printed raw (N7):
 * - into a string: JSON string quoting (every control character, quote and backslash escaped, and U+2028/2029,
 *   which end a line in older parsers), shown as a single-quoted literal like the project's own code;
 * - into a comment or the README: on one line, with `*` `/` never adjacent, so no text ends the comment;
 * - as an identifier: only what {@link isIdentifier} accepts (the routes refuse other column names).
 */
export function q(s: string): string {
  const json = JSON.stringify(s).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `'${json.slice(1, -1).replace(/\\.|'/g, (m) => (m === '\\"' ? '"' : m === "'" ? "\\'" : m))}'`;
}

/** A text on one line that cannot close a block comment: line breaks become spaces, `*` + `/` become `* /`. */
export function commentText(s: string): string {
  // other control characters too: a comment is read by people, and a NUL or an ESC has no business there
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
  return s.replace(/[\r\n\u2028\u2029\u0085\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]+/g, ' ').replace(/\*(?=\/)/g, '* ');
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
export const isIdentifier = (s: string) => IDENTIFIER.test(s);

function printValue(v: unknown): string {
  if (typeof v === 'string') return q(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(printValue).join(', ')}]`;
  if (v && typeof v === 'object') {
    return `{ ${Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => `${isIdentifier(k) ? k : q(k)}: ${printValue(x)}`)
      .join(', ')} }`;
  }
  return 'null';
}

/** `packages/shared/src/resources/<name>.ts` */
function definitionFile(input: GenerateInput, def: ResourceDef): string {
  const constName = `${def.name}Resource`;
  const lines = [
    "import { defineResource } from '../resource/types.ts';",
    '',
    '/**',
    ` * ${commentText(`${def.label} (table ${input.table}): generated by the code generator on ${input.date} for ${input.config.author || 'admin'}.`)}`,
    ' * Review labels, kinds and required flags, then list it in resources/index.ts (RESOURCE_DEFINITIONS); its menu row and',
    ` * permission codes ${def.permission}_ALL/_SELECT/_CREATE/_EDIT/_DELETE are created by the start-up sync.`,
    ' */',
    `export const ${constName} = defineResource({`,
    `  name: ${q(def.name)},`,
    `  table: ${q(def.table)},`,
    `  permission: ${q(def.permission)},`,
    `  label: ${q(def.label)},`,
    `  menu: ${printValue(def.menu)},`,
  ];
  if (def.defaultSort) lines.push(`  defaultSort: ${printValue(def.defaultSort)},`);
  lines.push('  fields: [');
  for (const f of def.fields) lines.push(`    ${printValue(f)},`);
  lines.push('  ],', '});', '');
  return lines.join('\n');
}

/** The TableSpec call of a column (tableBuilder.ts), so the migration makes what the kinds expect. */
function columnCall(c: ColumnInfo, f: FieldDef): string {
  const o: string[] = [];
  if (c.notNull && !c.primaryKey) o.push('notNull: true');
  // defaults in the API's terms (TableSpec turns a boolean into 1/0; money is fen in the table already)
  if (f.defaultValue !== undefined && f.defaultValue !== null) o.push(`default: ${f.kind === 'money' ? Number(c.defaultValue) : printValue(f.defaultValue)}`);
  const opts = o.length ? `, { ${o.join(', ')} }` : '';
  const col = q(c.columnName);
  switch (f.kind) {
    case 'int':
      return `.int(${col}${opts})`;
    case 'money':
      return `.money(${col}${opts})`;
    case 'ratio':
      return `.ratio(${col}${opts})`;
    case 'bool':
      return `.bool(${col}${opts})`;
    case 'date':
      return `.date(${col}${opts})`;
    case 'month':
      return `.month(${col}${opts})`;
    case 'datetime':
      return `.datetime(${col}${opts})`;
    case 'text':
      return `.text(${col}${opts})`;
    case 'idCard':
      return `.string(${col}, ${c.maxLength ?? 18}${opts})`;
    case 'phone':
      return `.string(${col}, ${c.maxLength ?? 20}${opts})`;
    case 'email':
      return `.string(${col}, ${c.maxLength ?? 100}${opts})`;
    default:
      return `.string(${col}, ${c.maxLength ?? 255}${opts})`;
  }
}

/** `apps/server/migrations/NNNN_<table>.ts` */
function migrationFile(input: GenerateInput, def: ResourceDef, migrationName: string): string {
  const byColumn = new Map(def.fields.map((f) => [f.column ?? toSnakeCase(f.name), f]));
  const calls: string[] = [];
  for (const c of input.columns) {
    if (c.primaryKey && c.autoIncrement && c.columnName === 'id') {
      calls.push('.id()');
      continue;
    }
    const f = byColumn.get(c.columnName);
    if (f) calls.push(columnCall(c, f));
  }
  // the generated file's own template-literal parameter, spelled so that it is not one here
  const table = `$${'{table}'}`;
  return [
    "import { sql } from 'kysely';",
    "import { createTable } from '../src/core/tableBuilder.ts';",
    "import type { MigrationContext } from './index.ts';",
    '',
    '/**',
    ` * ${commentText(`${def.label} (${input.table}), generated by the code generator on ${input.date} for ${input.config.author || 'admin'}.`)}`,
    ` * List it in migrations/index.ts as ['${migrationName}', m${migrationName.slice(0, 4)}.up].`,
    ' * The table was read from a database where it already exists: there this migration leaves it alone; on',
    ' * every other database it creates it. Indexes and unique constraints are not carried over: add them here.',
    ' */',
    'export async function up({ db, dialect }: MigrationContext): Promise<void> {',
    `  if (await tableExists(db, dialect, ${q(input.table)})) return;`,
    `  await createTable(db, dialect, ${q(input.table)}, (t) =>`,
    `    t${calls.join('\n      ')},`,
    '  );',
    '}',
    '',
    "async function tableExists(db: MigrationContext['db'], dialect: MigrationContext['dialect'], table: string): Promise<boolean> {",
    '  const found =',
    "    dialect === 'sqlite'",
    `      ? await sql<{ n: number }>\`select count(*) as n from sqlite_master where type = 'table' and name = ${table}\`.execute(db)`,
    "      : dialect === 'postgres'",
    `        ? await sql<{ n: number }>\`select count(*) as n from information_schema.tables where table_schema = current_schema() and table_name = ${table}\`.execute(db)`,
    `        : await sql<{ n: number }>\`select count(*) as n from information_schema.tables where table_schema = database() and table_name = ${table}\`.execute(db);`,
    '  return Number(found.rows[0]?.n ?? 0) > 0;',
    '}',
    '',
  ].join('\n');
}

function menuFile(def: ResourceDef, migrationName: string, config: GenConfig): string {
  const codes = ['ALL', 'SELECT', 'CREATE', 'EDIT', 'DELETE'].map((a) => `${def.permission}_${a}`);
  return `${JSON.stringify(
    {
      resource: def.name,
      table: def.table,
      migration: migrationName,
      menu: {
        name: def.label,
        parent: def.menu?.parent ?? null,
        path: def.menu?.path,
        component: `crud/${def.name}`,
        icon: def.menu?.icon,
        titles: def.menu?.titles,
      },
      permissions: codes.map((code, i) => ({ name: code, alias: i === 0 ? def.label : `${def.label}${['', '查询', '新增', '编辑', '删除'][i]}`, parent: i === 0 ? null : codes[0] })),
      routes: [`GET /api/${def.name}`, `GET /api/${def.name}/{id}`, `POST /api/${def.name}`, `PUT /api/${def.name}`, `DELETE /api/${def.name}`],
      author: config.author,
    },
    null,
    2,
  )}\n`;
}

function readme(input: GenerateInput, def: ResourceDef, files: { definition: string; migration: string; menu: string; locales: string }, migrationName: string): string {
  // the README tells a developer what to copy where: the database's and the settings' texts stay on their line
  const label = commentText(def.label);
  return [
    `# ${label}（${commentText(input.table)}）`,
    '',
    `由代码生成器于 ${input.date} 生成（作者：${commentText(input.config.author || 'admin')}）。Generated by the code generator; nothing was written into the server.`,
    '',
    '## 使用步骤 / Steps',
    '',
    `1. 将 \`${files.definition}\` 复制到 \`packages/shared/src/resources/\`，并在 \`resources/index.ts\` 的 RESOURCE_DEFINITIONS 中加入 \`${def.name}Resource\`。`,
    `2. 将 \`${files.migration}\` 复制到 \`apps/server/migrations/\`，并在 \`migrations/index.ts\` 中登记 \`['${migrationName}', …up]\`（编号若已被占用请顺延）。`,
    `3. 重启服务：迁移建表（已存在则跳过），启动同步根据定义创建菜单「${label}」（${def.menu?.parent ? `${def.menu.parent} › ` : ''}${def.menu?.path}）及权限 ${def.permission}_ALL/_SELECT/_CREATE/_EDIT/_DELETE（见 \`${files.menu}\`）。`,
    `4. 把 \`${files.locales}/{en,es,ja}/fields.${def.name}.json\` 中的字段文字写进定义的 \`labels\`（en/es/ja 各一份），菜单文字合并进 web 的 \`menu.json\`；这些是根据列名生成的英文草稿，西班牙语和日语需要翻译。`,
    '',
    'Copy the definition and the migration, list them in their index files and restart: the routes, the screen (generic CRUD page), the menu row and the permission codes follow from the definition. The field texts go into `labels` in the definition (en/es/ja); they are English drafts made from the column names: translate the es/ja ones.',
    '',
  ].join('\n');
}

/** All files of a table, in the order the preview shows them. */
export function generateFiles(input: GenerateInput): GeneratedFile[] {
  const def = definitionOf(input);
  const migrationName = `${String(input.migrationNumber).padStart(4, '0')}_${input.table.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const dir = (d: string, fallback: string) => (d.trim() || fallback).replace(/\\/g, '/').replace(/^\/+|\/+$/g, '');
  const paths = {
    definition: `${dir(input.config.pack, DEFAULT_GEN_CONFIG.pack)}/${def.name}.ts`,
    migration: `${dir(input.config.moduleName, DEFAULT_GEN_CONFIG.moduleName)}/${migrationName}.ts`,
    menu: `${dir(input.config.apiPath, DEFAULT_GEN_CONFIG.apiPath)}/${def.name}.menu.json`,
    locales: dir(input.config.path, DEFAULT_GEN_CONFIG.path),
  };
  const labels = (lang: 'en' | 'es' | 'ja') => ({
    fields: {
      [def.name]: {
        _label: def.menu?.titles[lang] ?? def.name,
        ...Object.fromEntries(def.fields.map((f) => [f.name, f.name === 'id' ? 'ID' : humanise(f.column ?? toSnakeCase(f.name))])),
      },
    },
    menu: { [def.label]: def.menu?.titles[lang] ?? def.name },
  });
  const localeFiles: GeneratedFile[] = (['en', 'es', 'ja'] as const).flatMap((lang) => {
    const l = labels(lang);
    return [
      { path: `${paths.locales}/${lang}/fields.${def.name}.json`, language: 'json' as const, content: `${JSON.stringify(l.fields, null, 2)}\n` },
      { path: `${paths.locales}/${lang}/menu.${def.name}.json`, language: 'json' as const, content: `${JSON.stringify(l.menu, null, 2)}\n` },
    ];
  });
  return [
    { path: paths.definition, language: 'typescript', content: definitionFile(input, def) },
    { path: paths.migration, language: 'typescript', content: migrationFile(input, def, migrationName) },
    { path: paths.menu, language: 'json', content: menuFile(def, migrationName, input.config) },
    ...localeFiles,
    { path: `${commentText(def.label).replace(/[\\/:*?"<>|]/g, '_')}-说明.md`, language: 'markdown', content: readme(input, def, paths, migrationName) },
  ];
}
