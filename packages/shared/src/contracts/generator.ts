import { z } from 'zod';
import type { FieldKind } from '../resource/types.ts';
import { defineContract } from './contract.ts';
import { codedIssue, codedText } from '../errors/zodIssues.ts';
import type { ErrorCode } from '../errors/catalogue.ts';

/**
 * 系统工具 › 代码生成 (spec §7 Generator; issue 12 item 6): the tables of the connected database, their columns with
 * per-column settings, the generator's configuration, and the generated files of a table as a preview or a zip.
 * Server: apps/server/src/modules/tools/generator; screen: apps/web/src/modules/tools/generator.
 */
const tags = ['代码生成'] as const;

export const GENERATOR_CODES = {
  read: ['GENERATOR_ALL', 'GENERATOR_SELECT'],
  edit: ['GENERATOR_ALL', 'GENERATOR_EDIT'],
  create: ['GENERATOR_ALL', 'GENERATOR_CREATE'],
} as const;

/** Field kinds the generator offers (`ref` needs a target resource chosen by hand, so it is not offered). */
export const GENERATABLE_KINDS = ['string', 'text', 'int', 'money', 'ratio', 'date', 'month', 'datetime', 'bool', 'dict', 'idCard', 'phone', 'email'] as const satisfies readonly FieldKind[];
export type GeneratableKind = (typeof GENERATABLE_KINDS)[number];

const page = z
  .union([z.string(), z.number()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return 0;
    const n = Number(v);
    if (Number.isInteger(n) && n >= 0 && n <= 1_000_000 && /^\d+$/.test(String(v))) return n;
    ctx.addIssue(codedIssue('PAGE_INVALID'));
    return z.NEVER;
  });
const size = z
  .union([z.string(), z.number()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return 10;
    const n = Number(v);
    if (Number.isInteger(n) && n > 0 && /^\d+$/.test(String(v))) return Math.min(n, 500);
    ctx.addIssue(codedIssue('SIZE_INVALID'));
    return z.NEVER;
  });
const tableNameQuery = z.string(codedText('GENERATOR_TABLE_REQUIRED')).trim().min(1, codedText('GENERATOR_TABLE_REQUIRED')).max(200, codedText('GENERATOR_TABLE_REQUIRED'));

/** 'true'/'false' (the spec's columnShow), booleans, 1/0. */
const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']), z.literal(1), z.literal(0)], codedText('BAD_REQUEST')).transform((v) => v === true || v === 'true' || v === '1' || v === 1);
/**
 * Texts the generated files show in comments and strings (N7): one line, no control characters, no end of a
 * block comment (star, slash). The files escape them anyway (the server's generator/printing.ts); refusing them
 * here tells the user at once instead of printing a mangled line.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused
const UNSAFE_TEXT = /[\u0000-\u001f\u007f\u0085\u2028\u2029]|\*\//;
const oneLine = (s: string) => !UNSAFE_TEXT.test(s);

/** One column's settings as the screen sends them (PUT columns, POST generator); absent fields keep their value. */
export const generatorColumnInput = z.object(
  {
    columnName: z.string(codedText('GENERATOR_TABLE_REQUIRED')).min(1).max(64),
    label: z
      .string(codedText('FIELD_NOT_TEXT', { label: '字段标签' }))
      .trim()
      .max(100, codedText('FIELD_TOO_LONG', { label: '字段标签', max: 100 }))
      .refine(oneLine, codedText('GENERATOR_LABEL_TEXT'))
      .optional(),
    kind: z.enum(GENERATABLE_KINDS, codedText('GENERATOR_KIND')).optional(),
    columnQuery: z.union([z.enum(['', '1', '2']), z.null()], codedText('GENERATOR_QUERY')).optional(),
    columnShow: flag.optional(),
    formShow: flag.optional(),
    required: flag.optional(),
    dictName: z
      .union([z.string().max(100, codedText('GENERATOR_DICT_NAME')).regex(/^[A-Za-z0-9_]*$/, codedText('GENERATOR_DICT_NAME')), z.null()], codedText('GENERATOR_DICT_NAME'))
      .optional(),
  },
  codedText('GENERATOR_COLUMNS_BODY'),
);
export type GeneratorColumnInput = z.infer<typeof generatorColumnInput>;
const columnsBody = z.array(generatorColumnInput, codedText('GENERATOR_COLUMNS_BODY')).max(500, codedText('GENERATOR_COLUMNS_BODY'));

const folder = (required: ErrorCode) =>
  z
    .string(codedText(required))
    .trim()
    .min(1, codedText(required))
    .max(200, codedText('GENERATOR_FOLDER'))
    .regex(/^[A-Za-z0-9_\-./]+$/, codedText('GENERATOR_FOLDER'))
    .refine((s) => !s.split('/').includes('..'), codedText('GENERATOR_FOLDER'));
const genConfigBody = z.object(
  {
    author: z
      .string(codedText('GENERATOR_AUTHOR_REQUIRED'))
      .trim()
      .min(1, codedText('GENERATOR_AUTHOR_REQUIRED'))
      .max(50, codedText('FIELD_TOO_LONG', { label: '作者', max: 50 }))
      .refine(oneLine, codedText('GENERATOR_AUTHOR_TEXT')),
    pack: folder('GENERATOR_PACK_REQUIRED'),
    moduleName: folder('GENERATOR_PACK_REQUIRED'),
    path: folder('GENERATOR_PATH_REQUIRED'),
    apiPath: folder('GENERATOR_API_PATH_REQUIRED'),
    cover: flag.optional(),
    prefix: z.string(codedText('GENERATOR_PREFIX')).trim().max(50, codedText('GENERATOR_PREFIX')).regex(/^[A-Za-z0-9_]*$/, codedText('GENERATOR_PREFIX')).optional(),
    menuParent: z
      .string(codedText('GENERATOR_MENU_PARENT'))
      .trim()
      .max(100, codedText('GENERATOR_MENU_PARENT'))
      .regex(/^[A-Za-z0-9_-]*$/, codedText('GENERATOR_MENU_PARENT'))
      .optional(),
    menuIcon: z.string(codedText('GENERATOR_MENU_ICON')).trim().max(50, codedText('GENERATOR_MENU_ICON')).regex(/^[A-Za-z]*$/, codedText('GENERATOR_MENU_ICON')).optional(),
  },
  codedText('GENERATOR_AUTHOR_REQUIRED'),
);

export const genConfigView = z.object({
  author: z.string(),
  pack: z.string(),
  moduleName: z.string(),
  path: z.string(),
  apiPath: z.string(),
  cover: z.boolean(),
  prefix: z.string(),
  menuParent: z.string(),
  menuIcon: z.string(),
});
export type GenConfigView = z.infer<typeof genConfigView>;

export const generatorTableRow = z.object({
  tableName: z.string(),
  engine: z.string(),
  coding: z.string(),
  remark: z.string(),
  createTime: z.string().nullable(),
  /** The shipped definition that already covers the table. */
  resource: z.string().nullable(),
  /** Column settings are stored for the table. */
  configured: z.boolean(),
});
export type GeneratorTableRow = z.infer<typeof generatorTableRow>;

export const generatorColumnRow = z.object({
  columnName: z.string(),
  columnType: z.string(),
  columnComment: z.string(),
  label: z.string(),
  kind: z.enum(GENERATABLE_KINDS),
  columnQuery: z.enum(['', '1', '2']),
  columnShow: z.boolean(),
  formShow: z.boolean(),
  required: z.boolean(),
  dictName: z.string(),
  notNull: z.boolean(),
  primaryKey: z.boolean(),
  autoIncrement: z.boolean(),
  maxLength: z.number().nullable(),
  stored: z.boolean(),
});
export type GeneratorColumnRow = z.infer<typeof generatorColumnRow>;

export const generatorPreview = z.object({
  tableName: z.string(),
  resourceName: z.string(),
  files: z.array(z.object({ path: z.string(), language: z.enum(['typescript', 'json', 'markdown']), content: z.string() })),
  /** NAME_TAKEN: a shipped resource has this API name; TABLE_DEFINED: a shipped definition covers the table. */
  warnings: z.array(z.object({ code: z.enum(['NAME_TAKEN', 'TABLE_DEFINED']), value: z.string() })),
});
export type GeneratorPreview = z.infer<typeof generatorPreview>;

export const listGeneratorTables = defineContract({
  method: 'GET',
  path: '/api/generator/tables',
  auth: GENERATOR_CODES.read,
  summary: '数据表列表（按表名筛选，分页）',
  tags,
  query: z.object({ name: z.string().max(100, codedText('SEARCH_TOO_LONG')).optional(), page, size }),
  response: z.object({ content: z.array(generatorTableRow), totalElements: z.number().int() }),
});

export const generatorColumns = defineContract({
  method: 'GET',
  path: '/api/generator/columns',
  auth: GENERATOR_CODES.read,
  summary: '数据表的字段及其生成配置',
  tags,
  query: z.object({ tableName: tableNameQuery }),
  response: z.object({ content: z.array(generatorColumnRow), totalElements: z.number().int() }),
});

/** Answers 204 (no body). */
export const saveGeneratorColumns = defineContract({
  method: 'PUT',
  path: '/api/generator/columns',
  auth: GENERATOR_CODES.edit,
  summary: '保存数据表的字段配置（查询方式、列表/表单显示、字典、标签）',
  log: '保存代码生成字段配置',
  tags,
  query: z.object({ tableName: tableNameQuery }),
  body: columnsBody,
});

export const getGenConfig = defineContract({
  method: 'GET',
  path: '/api/genConfig',
  auth: GENERATOR_CODES.read,
  summary: '代码生成配置',
  tags,
  response: genConfigView,
});

export const updateGenConfig = defineContract({
  method: 'PUT',
  path: '/api/genConfig',
  auth: GENERATOR_CODES.edit,
  summary: '修改代码生成配置',
  log: '修改代码生成配置',
  tags,
  body: genConfigBody,
  response: genConfigView,
});

/**
 * The generated files of a table: with `preview` the JSON preview, otherwise the zip (a Buffer, which the server
 * sends as it is, past the response schema: `downloadContract` on the web). The body's column settings are merged
 * over the stored ones and remembered.
 */
export const generateCode = defineContract({
  method: 'POST',
  path: '/api/generator',
  auth: GENERATOR_CODES.create,
  summary: '生成数据表的资源定义、迁移、菜单/权限与字段文字：preview=true 返回预览，否则返回 zip',
  log: '代码生成',
  tags,
  query: z.object({ tableName: tableNameQuery, preview: flag.optional() }),
  body: columnsBody.optional(),
  response: generatorPreview,
});
