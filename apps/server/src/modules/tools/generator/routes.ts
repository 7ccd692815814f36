import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type Yazl from 'yazl';
import { onFirstUse } from '../../../core/onFirstUse.ts';
import { z } from 'zod';
import { RESOURCES } from '@app/shared/resources/index';
import { MIGRATIONS } from '../../../../migrations/index.ts';
import { AppError } from '../../../core/errors.ts';
import { type ColumnSetting, camelCase, DEFAULT_GEN_CONFIG, type GenConfig, GENERATABLE_KINDS, type GeneratedFile, generateFiles, isIdentifier, resourceNameOf } from './generate.ts';
import { type ColumnInfo, listColumns, listTables } from './introspect.ts';
import { type ColumnView, columnSettings, definitionOfTable, readGenConfig, saveColumnSettings, saveGenConfig } from './settings.ts';

/**
 * 系统工具 › 代码生成 (spec §7 Generator; issue 12 item 6): the tables of the connected database, their columns
 * with per-column settings, the generator's configuration, and the generated files of a table as a preview or a
 * zip. Table names from the client are only ever compared with the introspected list; SQL gets them as bound
 * parameters. Nothing is written to the server's file system.
 */

const yazl = onFirstUse<typeof Yazl>('yazl');
const READ = ['GENERATOR_ALL', 'GENERATOR_SELECT'];
const EDIT = ['GENERATOR_ALL', 'GENERATOR_EDIT'];
const CREATE = ['GENERATOR_ALL', 'GENERATOR_CREATE'];
const tags = ['代码生成'];

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
 * block comment (star, slash). The
 * files escape them anyway (generate.ts); refusing them here tells the user at once instead of printing a
 * mangled line.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused
const UNSAFE_TEXT = /[\u0000-\u001f\u007f\u0085\u2028\u2029]|\*\//;
const oneLine = (s: string) => !UNSAFE_TEXT.test(s);

const columnInput = z.object(
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
const columnsBody = z.array(columnInput, { error: '请提交字段配置数组' }).max(500, '请提交字段配置数组');
type ColumnInput = z.infer<typeof columnInput>;

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

const genConfigSchema = z.object({
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
const tableSchema = z.object({
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
const columnSchema = z.object({
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
const previewSchema = z.object({
  tableName: z.string(),
  resourceName: z.string(),
  files: z.array(z.object({ path: z.string(), language: z.enum(['typescript', 'json', 'markdown']), content: z.string() })),
  /** NAME_TAKEN: a shipped resource has this API name; TABLE_DEFINED: a shipped definition covers the table. */
  warnings: z.array(z.object({ code: z.enum(['NAME_TAKEN', 'TABLE_DEFINED']), value: z.string() })),
});

/** Merge the client's column array over the stored/default settings; unknown or repeated columns are a 400. */
function mergeSettings(current: ColumnView[], input: ColumnInput[]): ColumnSetting[] {
  const byName = new Map(current.map((c) => [c.columnName, c]));
  const seen = new Set<string>();
  const out = new Map<string, ColumnSetting>(
    current.map((c) => [c.columnName, { columnName: c.columnName, label: c.label, kind: c.kind, columnQuery: c.columnQuery, columnShow: c.columnShow, formShow: c.formShow, required: c.required, dictName: c.dictName }]),
  );
  for (const i of input) {
    const base = byName.get(i.columnName);
    if (!base) throw new AppError('GENERATOR_COLUMN_NOT_FOUND', { value: i.columnName.slice(0, 64) });
    if (seen.has(i.columnName)) throw new AppError('GENERATOR_COLUMN_DUPLICATE', { value: i.columnName });
    seen.add(i.columnName);
    const s = out.get(i.columnName)!;
    if (i.label !== undefined) s.label = i.label || base.label;
    if (i.kind !== undefined) s.kind = i.kind;
    if (i.columnQuery !== undefined) s.columnQuery = i.columnQuery ?? '';
    if (i.columnShow !== undefined) s.columnShow = i.columnShow;
    if (i.formShow !== undefined) s.formShow = i.formShow;
    if (i.required !== undefined) s.required = i.required;
    if (i.dictName !== undefined) s.dictName = i.dictName ?? '';
    // a dictionary makes the field a dictionary field; leaving the dict kind without a name falls back to text
    if (s.dictName) s.kind = 'dict';
    else if (s.kind === 'dict') s.kind = 'string';
  }
  return [...out.values()];
}

function zipOf(files: GeneratedFile[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const zip = new (yazl().ZipFile)();
    // yazl sets the UTF-8 name flag for non-ASCII names, so Chinese file names survive every unzip tool
    for (const f of files) zip.addBuffer(Buffer.from(f.content, 'utf8'), f.path, { mtime: new Date() });
    zip.end();
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** One past the number of the server's last migration (the generated draft's file name). */
function nextMigrationNumber(): number {
  return MIGRATIONS.reduce((n, [name]) => Math.max(n, Number(/^(\d+)/.exec(name)?.[1] ?? 0)), 0) + 1;
}

export function registerGenerator(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = () => app.ctx.db;

  /** The table of this name in the connected database, or a 400 (the only way a client name reaches SQL). */
  async function knownTable(name: string): Promise<{ table: string; label: string; columns: ColumnInfo[] }> {
    const found = (await listTables(db(), app.ctx.dialect)).find((t) => t.tableName === name);
    if (!found) throw new AppError('GENERATOR_TABLE_NOT_FOUND', { value: name.slice(0, 64) });
    const columns = await listColumns(db(), app.ctx.dialect, found.tableName);
    return { table: found.tableName, label: found.remark || definitionOfTable(found.tableName)?.label || found.tableName, columns };
  }

  app.get(
    '/api/generator/tables',
    {
      config: { auth: READ },
      schema: {
        tags,
        summary: '数据表列表（按表名筛选，分页）',
        querystring: z.object({ name: z.string().max(100, '搜索内容过长').optional(), page, size }),
        response: { 200: z.object({ content: z.array(tableSchema), totalElements: z.number().int() }) },
      },
    },
    async (req) => {
      const needle = (req.query.name ?? '').trim().toLowerCase();
      const all = (await listTables(db(), app.ctx.dialect)).filter((t) => !needle || t.tableName.toLowerCase().includes(needle) || t.remark.toLowerCase().includes(needle));
      const slice = all.slice(req.query.page * req.query.size, (req.query.page + 1) * req.query.size);
      const configured = new Set(
        slice.length
          ? (
              await db()
                .selectFrom('gen_column')
                .select('table_name')
                .where(
                  'table_name',
                  'in',
                  slice.map((t) => t.tableName),
                )
                .groupBy('table_name')
                .execute()
            ).map((r) => String(r.table_name))
          : [],
      );
      return {
        content: slice.map((t) => ({ ...t, resource: definitionOfTable(t.tableName)?.name ?? null, configured: configured.has(t.tableName) })),
        totalElements: all.length,
      };
    },
  );

  app.get(
    '/api/generator/columns',
    {
      config: { auth: READ },
      schema: {
        tags,
        summary: '数据表的字段及其生成配置',
        querystring: z.object({ tableName: tableNameQuery }),
        response: { 200: z.object({ content: z.array(columnSchema), totalElements: z.number().int() }) },
      },
    },
    async (req) => {
      const { table, columns } = await knownTable(req.query.tableName);
      const content = await columnSettings(db(), table, columns);
      return { content, totalElements: content.length };
    },
  );

  app.put(
    '/api/generator/columns',
    {
      config: { auth: EDIT, log: '保存代码生成字段配置' },
      schema: { tags, summary: '保存数据表的字段配置（查询方式、列表/表单显示、字典、标签）', querystring: z.object({ tableName: tableNameQuery }), body: columnsBody },
    },
    async (req, reply) => {
      const { table, columns } = await knownTable(req.query.tableName);
      const settings = mergeSettings(await columnSettings(db(), table, columns), req.body);
      await saveColumnSettings(db(), table, settings, columns);
      return reply.code(204).send();
    },
  );

  app.get('/api/genConfig', { config: { auth: READ }, schema: { tags, summary: '代码生成配置', response: { 200: genConfigSchema } } }, async () => readGenConfig(db()));

  app.put(
    '/api/genConfig',
    { config: { auth: EDIT, log: '修改代码生成配置' }, schema: { tags, summary: '修改代码生成配置', body: genConfigBody, response: { 200: genConfigSchema } } },
    async (req) => {
      const b = req.body;
      const config: GenConfig = {
        author: b.author,
        pack: b.pack,
        moduleName: b.moduleName,
        path: b.path,
        apiPath: b.apiPath,
        cover: b.cover ?? false,
        prefix: b.prefix ?? '',
        menuParent: b.menuParent ?? '',
        menuIcon: b.menuIcon || DEFAULT_GEN_CONFIG.menuIcon,
      };
      await saveGenConfig(db(), config);
      return config;
    },
  );

  app.post(
    '/api/generator',
    {
      config: { auth: CREATE, log: '代码生成' },
      schema: {
        tags,
        summary: '生成数据表的资源定义、迁移、菜单/权限与字段文字：preview=true 返回预览，否则返回 zip',
        querystring: z.object({ tableName: tableNameQuery, preview: flag.optional() }),
        body: columnsBody.optional(),
        response: { 200: previewSchema.or(z.any()) },
      },
    },
    async (req, reply) => {
      const { table, label, columns } = await knownTable(req.query.tableName);
      // each column becomes a field name of the definition: it must be an identifier, whatever the database allows
      const unnamed = columns.find((c) => !isIdentifier(camelCase(c.columnName)));
      if (unnamed) throw new AppError('GENERATOR_COLUMN_IDENTIFIER', { value: unnamed.columnName.slice(0, 64) });
      const current = await columnSettings(db(), table, columns);
      const input = req.body ?? [];
      const settings = mergeSettings(current, input);
      const config = await readGenConfig(db());
      const files = generateFiles({
        table,
        tableLabel: label,
        columns,
        settings,
        config,
        migrationNumber: nextMigrationNumber(),
        date: new Date().toISOString().slice(0, 10),
      });
      // the settings used are remembered (the spec's POST carries the column array)
      if (input.length) await saveColumnSettings(db(), table, settings, columns);
      const resourceName = resourceNameOf(table, config.prefix);
      if (req.query.preview) {
        const warnings: { code: 'NAME_TAKEN' | 'TABLE_DEFINED'; value: string }[] = [];
        if (Object.hasOwn(RESOURCES, resourceName)) warnings.push({ code: 'NAME_TAKEN', value: resourceName });
        const defined = definitionOfTable(table);
        if (defined) warnings.push({ code: 'TABLE_DEFINED', value: defined.name });
        return { tableName: table, resourceName, files, warnings };
      }
      const zip = await zipOf(files);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${resourceName}.zip"; filename*=UTF-8''${encodeURIComponent(`${label}-${resourceName}.zip`)}`)
        .send(zip);
    },
  );
}
