import { z } from 'zod';
import { codedRule } from '../errors/zodIssues.ts';
import { parseIdCard } from '../idcard.ts';
import type { FieldDef, FieldKind } from './types.ts';

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
 */

/** Largest and smallest values an integer column holds on every supported database (int4 / INT / SQLite). */
export const INT_MAX = 2_147_483_647;
export const INT_MIN = -2_147_483_648;
/** Amounts at or above ten billion yuan are refused (fen fit a bigint and a double exactly). */
export const MONEY_LIMIT_YUAN = 10_000_000_000;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH_RE = /^(\d{4})-(\d{2})$/;
const EMAIL_RE = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
const PHONE_RE = /^[0-9+\-() ]{3,20}$/;
const NUMBER_RE = /^-?\d+(\.\d+)?$/;

/**
 * A mainland mobile number: 11 digits, 1 then 3-9 (every number range issued today, 16x and 19x included).
 * The spec's user form keeps its own narrower rule (1[34578]); staff phones have no format in the spec. The
 * international form (+86 before the 11 digits) is the same number and is kept as typed.
 */
export const MAINLAND_MOBILE = { regex: /^(?:\+86[ -]?)?1[3-9]\d{9}$/, message: '请输入正确的11位手机号码' };

/** How an import reads a ratio cell (the template's hint; the server's ratioCell follows it). */
export const RATIO_IMPORT_RULE = '比例：8、8% 或 0.08 均表示 8%（1 及以上按百分数；低于 1% 请带 % 号，如 0.5%）';

/** Is `s` a real calendar date YYYY-MM-DD? */
export function isValidDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1900 || y > 2200 || mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d <= days;
}

/** Is `s` a month YYYY-MM? */
export function isValidMonth(s: string): boolean {
  const m = MONTH_RE.exec(s);
  return !!m && Number(m[1]) >= 1900 && Number(m[1]) <= 2200 && Number(m[2]) >= 1 && Number(m[2]) <= 12;
}

/** Does a text hold a NUL character (which PostgreSQL cannot store and no user types)? */
export const hasNul = (s: string): boolean => s.includes('\u0000');

// ---- money: the one conversion between yuan (API) and fen (database) --------------------------------------

/** Exact yuan (number or string with <= 2 decimals, already validated) to integer fen, without float maths. */
export function yuanToFenExact(v: number | string): number {
  // a validated amount has at most two decimals below 1e10 yuan: v * 100 is within far less than half a fen
  if (typeof v === 'number') return Math.round(v * 100) + 0;
  const s = v.trim();
  const neg = s.startsWith('-');
  const [int, frac = ''] = (neg ? s.slice(1) : s).split('.');
  const fen = Number(int) * 100 + Number((frac + '00').slice(0, 2));
  return neg ? -fen : fen;
}

/** Integer fen to yuan for JSON (e.g. 123456 -> 1234.56). */
export function fenToYuanNumber(fen: number | null | undefined): number | null {
  if (fen === null || fen === undefined) return null;
  return Number((fen / 100).toFixed(2));
}

// ---- building blocks of the input schemas -------------------------------------------------------------------

function decimals(s: string): number {
  const i = s.indexOf('.');
  return i < 0 ? 0 : s.length - i - 1;
}

/** A number, or a numeric text (thousands separators allowed, no exponent), as its plain decimal text. */
function numberText(message: string) {
  return z.union([z.number(), z.string()], { error: message }).transform((raw, ctx) => {
    const t = typeof raw === 'number' ? String(raw) : raw.trim().replace(/,/g, '');
    if (NUMBER_RE.test(t)) return t;
    ctx.addIssue({ code: 'custom', message, input: raw });
    return z.NEVER;
  });
}

const DEFAULT_MAX_LENGTH: Partial<Record<FieldKind, number>> = { string: 255, dict: 255, text: 5000, phone: 20, email: 100, idCard: 18 };

/** The longest text a field accepts. */
export function maxLengthOf(field: FieldDef): number {
  return field.maxLength ?? DEFAULT_MAX_LENGTH[field.kind] ?? 255;
}

/** Text kinds: text or a number as text, trimmed, at most maxLength characters, no NUL. */
function textInput(field: FieldDef, extra?: (s: z.ZodString) => z.ZodString) {
  const max = maxLengthOf(field);
  let s = z
    .string()
    .max(max, `${field.label}长度不能超过${max}个字符`)
    .refine((v) => !hasNul(v), `${field.label}不能包含空字符`);
  if (extra) s = extra(s);
  return z
    .union([z.string(), z.number()], { error: `${field.label}必须是文本` })
    .transform((v) => String(v).trim())
    .pipe(s);
}

function withPattern<T extends z.ZodType<string>>(field: FieldDef, schema: T) {
  const p = field.pattern;
  return p ? schema.refine((v) => p.regex.test(v), p.message) : schema;
}

/** Minimum and maximum of a number field; `defaults` are the storage bounds (messages name them). */
function inRange(field: FieldDef, v: number, ctx: z.RefinementCtx, defaults: { min?: number; max?: number }): boolean {
  const min = field.min ?? defaults.min;
  const max = field.max ?? defaults.max;
  if (min !== undefined && v < min) ctx.addIssue({ code: 'custom', message: `${field.label}不能小于${min}`, input: v });
  else if (max !== undefined && v > max) ctx.addIssue({ code: 'custom', message: `${field.label}不能大于${max}`, input: v });
  else return true;
  return false;
}

/** A positive id (1..2^31-1) given as a number or digits; `message` for anything else. */
export function idInput(message: string) {
  return numberText(message).transform((n, ctx) => {
    const v = Number(n);
    if (decimals(n) > 0 || v <= 0 || v > INT_MAX) {
      ctx.addIssue({ code: 'custom', message, input: n });
      return z.NEVER;
    }
    return v;
  });
}

/** Most links one body may set (a role's menus are a few hundred). */
export const MAX_LINKS = 2000;

/**
 * `[{id}, ...]` or `[id, ...]` to distinct positive ids, in the order given; `message` for anything else
 * (the users' roles and roles' departments bodies of the spec, §7).
 */
export function idListInput(message: string) {
  return z.unknown().transform((raw, ctx) => {
    if (!Array.isArray(raw)) {
      ctx.addIssue({ code: 'custom', message, input: raw });
      return z.NEVER;
    }
    if (raw.length > MAX_LINKS) {
      ctx.addIssue({ code: 'custom', message: `一次最多提交${MAX_LINKS}项`, input: raw });
      return z.NEVER;
    }
    const ids = new Set<number>();
    for (const item of raw) {
      const id = item !== null && typeof item === 'object' ? (item as { id?: unknown }).id : item;
      const s = typeof id === 'number' || typeof id === 'string' ? String(id) : '';
      if (!/^\d{1,10}$/.test(s) || Number(s) <= 0 || Number(s) > INT_MAX) {
        ctx.addIssue({ code: 'custom', message, input: raw });
        return z.NEVER;
      }
      ids.add(Number(s));
    }
    return [...ids];
  });
}

// ---- the registry --------------------------------------------------------------------------------------------

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
    input: (f) => withPattern(f, textInput(f, (s) => s.regex(PHONE_RE, `${f.label}格式不正确`))),
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
          ctx.addIssue({ code: 'custom', message: '身份证号码不正确', input: s });
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
      numberText(`${f.label}必须是整数`).transform((n, ctx) => {
        const v = Number(n);
        if (decimals(n) > 0 || !Number.isSafeInteger(v)) {
          ctx.addIssue({ code: 'custom', message: `${f.label}必须是整数`, input: n });
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
    input: (f) => idInput(`${f.label}无效`),
    api: z.number().int(),
    sql: 'integer',
    text: false,
    doc: { type: 'integer' },
    toApi: toNumber,
    excel: { read: 'ref', cell: 'text', hint: '填写名称' },
    web: { control: 'ref', display: 'ref', align: 'left' },
  },
  refMany: {
    input: (f) => idListInput(`${f.label}格式不正确，应为 [{id}]`),
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
      numberText(`${f.label}必须是数字`).transform((n, ctx) => {
        if (decimals(n) > 2) {
          ctx.addIssue({ code: 'custom', message: `${f.label}最多两位小数`, input: n });
          return z.NEVER;
        }
        const v = Number(n);
        if (Math.abs(v) >= MONEY_LIMIT_YUAN) {
          ctx.addIssue({ code: 'custom', message: `${f.label}金额过大`, input: n });
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
      numberText(`${f.label}必须是数字`).transform((n, ctx) => {
        if (decimals(n) > 6) {
          ctx.addIssue({ code: 'custom', message: `${f.label}最多六位小数`, input: n });
          return z.NEVER;
        }
        const v = Number(n);
        if (v < 0 || v > 1) {
          ctx.addIssue({ code: 'custom', message: `${f.label}必须在0到1之间`, input: n });
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
      const message = `${f.label.endsWith('日期') ? f.label : `${f.label}日期`}格式应为YYYY-MM-DD`;
      return z
        .string({ error: message })
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
      const message = `${f.label.endsWith('月份') ? f.label : `${f.label}月份`}格式应为YYYY-MM`;
      return z
        .string({ error: message })
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
      const message = `${f.label}时间格式不正确`;
      return z
        .string({ error: message })
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
        .union([z.boolean(), z.enum(['true', 'false', '1', '0']), z.literal(1), z.literal(0)], { error: `${f.label}必须是是或否` })
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
