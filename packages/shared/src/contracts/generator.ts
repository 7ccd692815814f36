import { z } from 'zod';
import type { FieldKind } from '../resource/types.ts';
import { defineContract } from './contract.ts';

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
    ctx.addIssue({ code: 'custom', message: 'page 必须是不小于0的整数' });
    return z.NEVER;
  });
const size = z
  .union([z.string(), z.number()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return 10;
    const n = Number(v);
    if (Number.isInteger(n) && n > 0 && /^\d+$/.test(String(v))) return Math.min(n, 500);
    ctx.addIssue({ code: 'custom', message: 'size 必须是大于0的整数' });
    return z.NEVER;
  });
const tableNameQuery = z.string({ error: '请选择数据表' }).trim().min(1, '请选择数据表').max(200, '请选择数据表');

/** 'true'/'false' (the spec's columnShow), booleans, 1/0. */
const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']), z.literal(1), z.literal(0)], { error: '参数错误' }).transform((v) => v === true || v === 'true' || v === '1' || v === 1);
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
    columnName: z.string({ error: '请选择数据表' }).min(1).max(64),
    label: z
      .string({ error: '字段标签必须是文本' })
      .trim()
      .max(100, '字段标签长度不能超过100个字符')
      .refine(oneLine, '字段标签只能是一行文字，不能包含换行、控制字符或 */')
      .optional(),
    kind: z.enum(GENERATABLE_KINDS, { error: '不支持的字段类型' }).optional(),
    columnQuery: z.union([z.enum(['', '1', '2']), z.null()], { error: '查询方式只能是 1（模糊）、2（精确）或空' }).optional(),
    columnShow: flag.optional(),
    formShow: flag.optional(),
    required: flag.optional(),
    dictName: z
      .union([z.string().max(100, '字典名称只能由字母、数字和下划线组成').regex(/^[A-Za-z0-9_]*$/, '字典名称只能由字母、数字和下划线组成'), z.null()], { error: '字典名称只能由字母、数字和下划线组成' })
      .optional(),
  },
  { error: '请提交字段配置数组' },
);
export type GeneratorColumnInput = z.infer<typeof generatorColumnInput>;
const columnsBody = z.array(generatorColumnInput, { error: '请提交字段配置数组' }).max(500, '请提交字段配置数组');

const folder = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(200, '路径只能包含字母、数字、-、_、. 和 /，且不能含 ..')
    .regex(/^[A-Za-z0-9_\-./]+$/, '路径只能包含字母、数字、-、_、. 和 /，且不能含 ..')
    .refine((s) => !s.split('/').includes('..'), '路径只能包含字母、数字、-、_、. 和 /，且不能含 ..');
const genConfigBody = z.object(
  {
    author: z
      .string({ error: '作者不能为空' })
      .trim()
      .min(1, '作者不能为空')
      .max(50, '作者长度不能超过50个字符')
      .refine(oneLine, '作者只能是一行文字，不能包含换行、控制字符或 */'),
    pack: folder('包路径不能为空'),
    moduleName: folder('包路径不能为空'),
    path: folder('前端代码生成路径不能为空'),
    apiPath: folder('前端Api文件生成路径不能为空'),
    cover: flag.optional(),
    prefix: z.string({ error: '表前缀只能由字母、数字和下划线组成' }).trim().max(50, '表前缀只能由字母、数字和下划线组成').regex(/^[A-Za-z0-9_]*$/, '表前缀只能由字母、数字和下划线组成').optional(),
    menuParent: z
      .string({ error: '上级菜单路径只能由字母、数字、-和_组成' })
      .trim()
      .max(100, '上级菜单路径只能由字母、数字、-和_组成')
      .regex(/^[A-Za-z0-9_-]*$/, '上级菜单路径只能由字母、数字、-和_组成')
      .optional(),
    menuIcon: z.string({ error: '菜单图标只能由字母组成' }).trim().max(50, '菜单图标只能由字母组成').regex(/^[A-Za-z]*$/, '菜单图标只能由字母组成').optional(),
  },
  { error: '作者不能为空' },
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
  query: z.object({ name: z.string().max(100, '搜索内容过长').optional(), page, size }),
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
