import type { ErrorCode } from '../errors/catalogue.ts';

/**
 * The resource definition: one object per business resource from which the server builds validation,
 * routes and Excel sheets and the web app builds tables, search bars and forms.
 */

/** How a field is stored, validated and shown. */
export type FieldKind =
  | 'string' // short text (varchar)
  | 'text' // long text
  | 'int' // whole number
  | 'money' // yuan on the wire (<= 2 decimals), integer fen in the database
  | 'ratio' // a rate such as 0.08, exact decimal with <= 6 places
  | 'date' // YYYY-MM-DD
  | 'month' // YYYY-MM
  | 'datetime' // ISO 8601, set by the server
  | 'bool'
  | 'dict' // a value of the dictionary named in `dict`
  | 'ref' // id of a row of another resource (`ref`)
  | 'refMany' // ids of rows of another resource, kept in a link table (`ref` names it, `links` the table)
  | 'idCard'
  | 'phone'
  | 'email';

export type FilterMode = 'like' | 'eq';

export interface FieldDef {
  /** API name (the spec's spelling, e.g. `bamk`). */
  name: string;
  /** Database column; snake_case of `name` when omitted. */
  column?: string;
  kind: FieldKind;
  /** Chinese label; also the Excel header. Other languages: the resource's `labels`. */
  label: string;
  /** Required on create/update; a string is the message shown (default `${label}不能为空`). */
  required?: boolean | string;
  maxLength?: number;
  min?: number;
  max?: number;
  /** Dictionary name for `dict` fields (labels shown, values stored). */
  dict?: string;
  /** Resource name for `ref` fields and the field shown for it. */
  ref?: { resource: string; labelField: string };
  /**
   * `refMany` fields: the link table holding (owner id, target id) pairs. Rows carry the linked rows as
   * `[{id, ...show}]` (`show`: API names of the target's fields, sorted by `orderBy`, default id); bodies give
   * `[{id}]` or `[id]` and replace the whole set.
   */
  links?: { table: string; ownerColumn: string; targetColumn: string; show?: string[]; orderBy?: [string, 'asc' | 'desc'][] };
  /** Declared list filter: fuzzy (`like`, LIKE with escaped wildcards) or exact (`eq`). */
  filter?: FilterMode;
  /** Offered in the search bar's field chooser. */
  search?: boolean;
  sortable?: boolean;
  /** Shown as a table column (default true). */
  list?: boolean;
  /** Shown in the expandable row detail (default: true when not in list). */
  detail?: boolean;
  /** Shown in the add/edit dialog (default true unless readOnly). */
  form?: boolean;
  /** Included in Excel export/import/template (default true unless readOnly/secret). */
  excel?: boolean;
  /** Set by the server; never accepted from the client. */
  readOnly?: boolean;
  /** Never sent to the client (password hashes, keys). */
  secret?: boolean;
  /** Default value for a new row (in the form and when the client omits it). */
  defaultValue?: string | number | boolean | null;
  /** Section of the dialog (e.g. 个人信息). */
  section?: string;
  /** Column width in the table, px. */
  width?: number;
  /** Extra validation pattern. */
  pattern?: { regex: RegExp; message: string };
  /**
   * A `required` field that is optional after all when the `ref` field `field` points to a row whose label is one of
   * `labels` (the e-mail of a user whose job is 普通员工: employee logins have none). The body schema leaves it
   * optional; the server's generic write path and the web form apply the rule with the referenced row's label.
   */
  optionalWhen?: { field: string; labels: readonly string[] };
  /** Form control span (24 = whole row, default 12 in two-column dialogs, 24 in one-column). */
  span?: number;
}

export type CrudAction = 'list' | 'create' | 'edit' | 'delete' | 'import' | 'export';

export interface ExcelOptions {
  /** File name (without extension) of exports, e.g. 员工信息. */
  fileName: string;
  /** File name of the import template, e.g. 员工信息模板. */
  templateName: string;
  /** Field(s) that identify an existing row on re-import (update instead of duplicate). */
  importKey?: string[];
  /**
   * How an import writes (the import dialog says which, finding S8): 'chunked' (default) commits 500 rows at a
   * time and reports bad rows while saving the good ones, an interrupted import keeps the chunks written;
   * 'allOrNothing' writes only when every row is valid, in one transaction.
   */
  importMode?: 'chunked' | 'allOrNothing';
}

/**
 * Largest Excel file an import accepts, in bytes: the server's multipart limit, and the web's check before
 * uploading (one constant so the two never disagree).
 */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
/** MAX_IMPORT_BYTES as shown in messages ("50MB"). */
export const MAX_IMPORT_SIZE_LABEL = `${MAX_IMPORT_BYTES / (1024 * 1024)}MB`;

/** A language other than Chinese -> `_label` (the resource) or a field name -> its label in that language. */
export type ResourceLabels = Record<'en' | 'es' | 'ja', Record<string, string>>;

export interface ResourceDef {
  /** API path segment: `/api/<name>`. */
  name: string;
  table: string;
  /** Permission prefix, e.g. `ACCENTRY` gives ACCENTRY_ALL/_SELECT/_CREATE/_EDIT/_DELETE. */
  permission: string;
  /** Override the codes per action (ADMIN always passes). */
  permissions?: Partial<Record<CrudAction, string[]>>;
  /** Chinese name of the resource, e.g. 入职记录. */
  label: string;
  /**
   * The resource's name (`_label`) and every field's label (by field name) in the other UI languages: the
   * screens and the server's messages show these (resources/labels.ts); `labels.test.ts` fails on a gap.
   */
  labels?: ResourceLabels;
  fields: FieldDef[];
  /** Default sort, e.g. [['id','desc']]. */
  defaultSort?: [string, 'asc' | 'desc'][];
  /**
   * Fields that must be unique (each entry a group of fields) with the message for a clash: the definition's
   * sentence (answered as DUPLICATE_TEXT, translated with the definitions' labels), or `code` when the
   * catalogue has the clash under a code of its own.
   */
  unique?: { fields: string[]; message: string; code?: ErrorCode }[];
  /** A multi-column fuzzy filter sent as `blurry`. */
  blurry?: string[];
  /** Dialog width in px (500, 550, 750 or 800 in the spec). */
  dialogWidth?: number;
  /** Excel import/export/template; absent means not offered. */
  excel?: ExcelOptions;
  /** The search bar offers choosing one field plus a value (the spec's HR-record lists). */
  searchMode?: 'fieldChooser' | 'filters';
  /**
   * The resource's screen in the menu tree, created on every start where missing (apps/server/src/sync):
   * titled `label`, under the directory whose path is `parent` (absent: a top-level entry), rendered by
   * `component` (default `crud/<name>`), with the title in the other UI languages.
   */
  menu?: { parent?: string; path: string; icon: string; component?: string; titles: { en: string; es: string; ja: string } };
  /**
   * A tree on `parentField` (0 = top level): the list answers the whole (filtered, scoped) tree as
   * `{content: [{..., children?}], totalElements}` instead of a page, a parent must exist and may not be the
   * node itself or one of its descendants, and deleting a node deletes its descendants (`cascade`) or is
   * refused with `refuse` while it has any.
   */
  tree?: { parentField: string; parentLabel: string; onDelete: 'cascade' | { refuse: ErrorCode } };
}

/** Identity helper that keeps the literal types of a definition. */
export function defineResource<const T extends ResourceDef>(def: T): T {
  return def;
}

/** snake_case of a camelCase name. */
export function toSnakeCase(name: string): string {
  // memoised: row mapping asks for every field of every row (100,000-row imports and exports)
  let snake = snakeCaseCache.get(name);
  if (snake === undefined) {
    snake = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z])([A-Z][a-z])/g, '$1_$2').toLowerCase();
    if (snakeCaseCache.size < 10_000) snakeCaseCache.set(name, snake);
  }
  return snake;
}
const snakeCaseCache = new Map<string, string>();

/** The database column of a field. */
export function columnOf(field: FieldDef): string {
  return field.column ?? toSnakeCase(field.name);
}

/** Is the field kept outside the resource's own table (`refMany`: a link table), so it has no column? */
export function isLinkField(field: Pick<FieldDef, 'kind'>): boolean {
  return field.kind === 'refMany';
}

/** Fields stored in the resource's own table (every field but link-table ones). */
export function columnFields(def: ResourceDef): FieldDef[] {
  return def.fields.filter((f) => !isLinkField(f));
}

/** Fields the client may write. */
export function writableFields(def: ResourceDef): FieldDef[] {
  return def.fields.filter((f) => !f.readOnly && f.name !== 'id');
}

/** Permission codes that allow an action on a resource (ADMIN is implied everywhere). */
export function permissionCodes(def: ResourceDef, action: CrudAction): string[] {
  const override = def.permissions?.[action];
  if (override) return override;
  const p = def.permission;
  switch (action) {
    case 'list':
    case 'export':
      return [`${p}_ALL`, `${p}_SELECT`];
    case 'create':
    case 'import':
      return [`${p}_ALL`, `${p}_CREATE`];
    case 'edit':
      return [`${p}_ALL`, `${p}_EDIT`];
    case 'delete':
      return [`${p}_ALL`, `${p}_DELETE`];
  }
}

/** Does a holder of `codes` pass a check for any of `required`? ADMIN always passes. */
export function hasPermission(codes: readonly string[], required: readonly string[]): boolean {
  if (codes.includes('ADMIN')) return true;
  return required.some((c) => codes.includes(c));
}
