import { z } from 'zod';
import { codedIssue, codedRule, codedText } from '../errors/zodIssues.ts';
import { parseIdCard } from '../idcard.ts';
import type { FieldDef, FieldKind } from './types.ts';
import { decimals, idInput, idListInput, inRange, MAX_LINKS, numberText, textInput, withPattern } from './inputSchemas.ts';
import { fenToYuanNumber, INT_MAX, INT_MIN, isValidDate, isValidMonth, MONEY_LIMIT_YUAN, RATIO_IMPORT_RULE, yuanToFenExact } from './valueRules.ts';

/**
 * The field-kind registry: everything that depends on a field's kind, in one table checked against
 * `FieldKind` (a new kind that lacks an entry does not compile). Per kind:
 * - `input(field)`: the zod schema of a non-empty client value, with the spec's Chinese messages word for
 *   word (checks run in the order the messages are meant to win), returning the normalised API value;
 * - `api`: the zod schema of the value the API sends (response schemas, `RowOf`);
 * - `sql`: the column type (`TableSpec` method in the server's migrations);
 * - `toDb` / `toApi`: the stored value and back (money is integer fen in the database, yuan on the wire);
 * - `excel`: how a cell is read on import, which sheet cell type an export writes, the template's hint;
 * - `web`: the control that edits it, how a value is shown, column alignment and width.
 * The generic schemas (`schemaOf`), the row mapping, the Excel columns and the web's fields all read it.
 * The value rules (bounds, dates, yuan and fen) are in valueRules.ts, the building blocks of the input schemas in
 * inputSchemas.ts.
 */

const EMAIL_RE = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
const PHONE_RE = /^[0-9+\-() ]{3,20}$/;

/** Sheet cell types of an export (the server's XLSX writer). */
export type SheetCell = 'text' | 'int' | 'money' | 'ratio' | 'date' | 'datetime' | 'bool';
/** How an import reads a cell for the field (the server's cell readers). */
export type CellReader = 'money' | 'ratio' | 'int' | 'date' | 'month' | 'bool' | 'dict' | 'ref' | 'text';
/** The web control that edits a value. */
export type WebControl = 'text' | 'textarea' | 'int' | 'decimal' | 'percent' | 'date' | 'month' | 'bool' | 'dict' | 'ref' | 'refMany';
/** How the web shows a value. */
export type WebDisplay = 'text' | 'money' | 'ratio' | 'date' | 'datetime' | 'bool' | 'ref' | 'refs';
/** Column types of the migrations' table builder. */
export type SqlType = 'varchar' | 'text' | 'integer' | 'bigint' | 'numeric(12, 6)' | 'smallint' | 'varchar(10)' | 'varchar(7)' | 'varchar(32)';

export interface KindSpec {
  input: (field: FieldDef) => z.ZodType;
  api: z.ZodType;
  /** null: no column of its own (`refMany` lives in a link table). */
  sql: SqlType | null;
  /** A LIKE filter compares the stored text (text kinds); others filter by exact value. */
  text: boolean;
  /** The OpenAPI type and format of a value. */
  doc: { type: 'string' | 'integer' | 'number' | 'boolean' | 'array'; format?: string; maxItems?: number; items?: Record<string, unknown> };
  /** An empty value stands for the field's default (booleans), not for null. */
  emptyIsDefault?: boolean;
  /** Exact list filters check the value as this kind (ID cards: any text, since a filter may be partial). */
  filterAs?: FieldKind;
  toDb?: (v: any) => unknown;
  toApi?: (v: any) => unknown;
  excel: { read: CellReader; cell: SheetCell; hint: string | ((f: FieldDef) => string); width?: number };
  web: { control: WebControl; display: WebDisplay; align: 'left' | 'right' | 'center'; width?: number };
}

const toNumber = (v: unknown) => Number(v);
const textHint = (f: FieldDef) => (f.maxLength ? `文本，最多${f.maxLength}个字符` : '文本');

export const FIELD_KINDS = {
  string: {
    input: (f) => withPattern(f, textInput(f)),
    api: z.string(),
    sql: 'varchar',
    text: true,
    doc: { type: 'string' },
    excel: { read: 'text', cell: 'text', hint: textHint },
    web: { control: 'text', display: 'text', align: 'left' },
  },
  text: {
    input: (f) => withPattern(f, textInput(f)),
    api: z.string(),
    sql: 'text',
    text: true,
    doc: { type: 'string' },
    excel: { read: 'text', cell: 'text', hint: textHint },
    web: { control: 'textarea', display: 'text', align: 'left' },
  },
  dict: {
    input: (f) => withPattern(f, textInput(f)),
    api: z.string(),
    sql: 'varchar',
    text: true,
    doc: { type: 'string' },
    excel: { read: 'dict', cell: 'text', hint: textHint },
    web: { control: 'dict', display: 'text', align: 'left' },
  },
  phone: {
    input: (f) => withPattern(f, textInput(f, (s) => s.regex(PHONE_RE, codedText('FIELD_FORMAT', { label: f.label })))),
    api: z.string(),
    sql: 'varchar',
    text: true,
    doc: { type: 'string' },
    excel: { read: 'text', cell: 'text', hint: '电话号码' },
    web: { control: 'text', display: 'text', align: 'left', width: 130 },
  },
  email: {
    input: (f) => withPattern(f, textInput(f, (s) => s.refine((v) => EMAIL_RE.test(v), codedRule('EMAIL_INVALID')))),
    api: z.string(),
    sql: 'varchar',
    text: true,
    doc: { type: 'string', format: 'email' },
    excel: { read: 'text', cell: 'text', hint: '邮箱地址' },
    web: { control: 'text', display: 'text', align: 'left', width: 190 },
  },
  idCard: {
    // GB 11643 (region, birth date, check digit); 15-digit numbers become 18 digits, x becomes X
    input: (f) =>
      withPattern(
        f,
        textInput(f).transform((s, ctx) => {
          const parsed = parseIdCard(s);
          if (parsed.ok) return parsed.idCard;
          ctx.addIssue(codedIssue('ID_CARD_INVALID', {}, s));
          return z.NEVER;
        }),
      ),
    api: z.string(),
    sql: 'varchar',
    text: true,
    doc: { type: 'string' },
    filterAs: 'string',
    excel: { read: 'text', cell: 'text', hint: '18位身份证号（请设置为文本格式）', width: 22 },
    web: { control: 'text', display: 'text', align: 'left', width: 190 },
  },
  int: {
    input: (f) =>
      numberText({ code: 'FIELD_INTEGER', params: { label: f.label } }).transform((n, ctx) => {
        const v = Number(n);
        if (decimals(n) > 0 || !Number.isSafeInteger(v)) {
          ctx.addIssue(codedIssue('FIELD_INTEGER', { label: f.label }, n));
          return z.NEVER;
        }
        return inRange(f, v, ctx, { min: INT_MIN, max: INT_MAX }) ? v : z.NEVER;
      }),
    api: z.number().int(),
    sql: 'integer',
    text: false,
    doc: { type: 'integer' },
    toApi: toNumber,
    excel: { read: 'int', cell: 'int', hint: '整数' },
    web: { control: 'int', display: 'text', align: 'right', width: 100 },
  },
  ref: {
    input: (f) => idInput({ code: 'FIELD_INVALID', params: { label: f.label } }),
    api: z.number().int(),
    sql: 'integer',
    text: false,
    doc: { type: 'integer' },
    toApi: toNumber,
    excel: { read: 'ref', cell: 'text', hint: '填写名称' },
    web: { control: 'ref', display: 'ref', align: 'left' },
  },
  refMany: {
    input: (f) => idListInput({ code: 'REF_LIST_FORMAT', params: { label: f.label } }),
    api: z.array(z.looseObject({ id: z.number().int() })),
    sql: null,
    text: false,
    doc: { type: 'array', maxItems: MAX_LINKS, items: { type: 'object', properties: { id: { type: 'integer', minimum: 1, maximum: INT_MAX } } } },
    // exports show the linked rows' labels, comma-separated; imports do not offer the field (columns only)
    excel: { read: 'text', cell: 'text', hint: '名称，多个用逗号分隔' },
    // a multiple select of the other resource's rows (a checkable tree for tree resources); the form holds ids
    web: { control: 'refMany', display: 'refs', align: 'left', width: 200 },
  },
  money: {
    input: (f) =>
      numberText({ code: 'FIELD_NUMBER', params: { label: f.label } }).transform((n, ctx) => {
        if (decimals(n) > 2) {
          ctx.addIssue(codedIssue('FIELD_MONEY_SCALE', { label: f.label }, n));
          return z.NEVER;
        }
        const v = Number(n);
        if (Math.abs(v) >= MONEY_LIMIT_YUAN) {
          ctx.addIssue(codedIssue('FIELD_MONEY_TOO_LARGE', { label: f.label }, n));
          return z.NEVER;
        }
        return inRange(f, v, ctx, { min: 0 }) ? v : z.NEVER;
      }),
    api: z.number(),
    sql: 'bigint',
    text: false,
    doc: { type: 'number' },
    toDb: (v: number | string) => yuanToFenExact(v),
    toApi: (v: unknown) => fenToYuanNumber(Number(v)),
    excel: { read: 'money', cell: 'money', hint: '金额（元），最多两位小数' },
    web: { control: 'decimal', display: 'money', align: 'right', width: 120 },
  },
  ratio: {
    input: (f) =>
      numberText({ code: 'FIELD_NUMBER', params: { label: f.label } }).transform((n, ctx) => {
        if (decimals(n) > 6) {
          ctx.addIssue(codedIssue('FIELD_RATIO_SCALE', { label: f.label }, n));
          return z.NEVER;
        }
        const v = Number(n);
        if (v < 0 || v > 1) {
          ctx.addIssue(codedIssue('FIELD_RATIO_RANGE', { label: f.label }, n));
          return z.NEVER;
        }
        return v;
      }),
    api: z.number(),
    sql: 'numeric(12, 6)',
    text: false,
    doc: { type: 'number' },
    toApi: toNumber,
    excel: { read: 'ratio', cell: 'ratio', hint: RATIO_IMPORT_RULE },
    // entered as a percentage (16 for 0.16), as every screen shows it
    web: { control: 'percent', display: 'ratio', align: 'right', width: 100 },
  },
  date: {
    input: (f) => {
      // a label that already says 日期 is not followed by a second 日期
      const message = f.label.endsWith('日期') ? codedText('FIELD_DATE_NAMED', { label: f.label }) : codedText('FIELD_DATE', { label: f.label });
      return z
        .string(message)
        .transform((s) => s.trim().slice(0, 10))
        .refine(isValidDate, message);
    },
    api: z.string(),
    sql: 'varchar(10)',
    text: false,
    doc: { type: 'string', format: 'date' },
    excel: { read: 'date', cell: 'date', hint: '日期，如 2024-01-31' },
    web: { control: 'date', display: 'date', align: 'left', width: 120 },
  },
  month: {
    input: (f) => {
      const message = f.label.endsWith('月份') ? codedText('FIELD_MONTH_NAMED', { label: f.label }) : codedText('FIELD_MONTH', { label: f.label });
      return z
        .string(message)
        .transform((s) => s.trim())
        .refine(isValidMonth, message);
    },
    api: z.string(),
    sql: 'varchar(7)',
    text: false,
    doc: { type: 'string' },
    excel: { read: 'month', cell: 'text', hint: '月份，如 2024-01' },
    web: { control: 'month', display: 'text', align: 'left', width: 100 },
  },
  datetime: {
    input: (f) => {
      const message = codedText('FIELD_DATETIME', { label: f.label });
      return z
        .string(message)
        .transform((s) => s.trim())
        .refine((s) => !Number.isNaN(Date.parse(s)), message);
    },
    api: z.string(),
    sql: 'varchar(32)',
    text: false,
    doc: { type: 'string', format: 'date-time' },
    excel: { read: 'text', cell: 'datetime', hint: textHint, width: 20 },
    web: { control: 'text', display: 'datetime', align: 'left', width: 170 },
  },
  bool: {
    input: (f) =>
      z
        .union([z.boolean(), z.enum(['true', 'false', '1', '0']), z.literal(1), z.literal(0)], codedText('FIELD_BOOLEAN', { label: f.label }))
        .transform((v) => v === true || v === 'true' || v === '1' || v === 1),
    api: z.boolean(),
    sql: 'smallint',
    text: false,
    doc: { type: 'boolean' },
    emptyIsDefault: true,
    toDb: (v: boolean) => (v ? 1 : 0),
    toApi: (v: unknown) => v === true || v === 1 || v === '1',
    excel: { read: 'bool', cell: 'bool', hint: '是 / 否' },
    web: { control: 'bool', display: 'bool', align: 'center', width: 90 },
  },
} satisfies Record<FieldKind, KindSpec>;

/** The registry entry of a field's kind. */
export function kindOf(field: Pick<FieldDef, 'kind'>): KindSpec {
  return FIELD_KINDS[field.kind];
}

/** The template's hint of what a column accepts. */
export function excelHint(field: FieldDef): string {
  const h = kindOf(field).excel.hint;
  return typeof h === 'string' ? h : h(field);
}

/** A database value to its API form for one field. */
export function toApiValue(field: FieldDef, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  const f = (FIELD_KINDS[field.kind] as KindSpec).toApi;
  return f ? f(v) : v;
}

/** A validated API value to its database form for one field. */
export function toDbValue(field: FieldDef, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  const f = (FIELD_KINDS[field.kind] as KindSpec).toDb;
  return f ? f(v) : v;
}
