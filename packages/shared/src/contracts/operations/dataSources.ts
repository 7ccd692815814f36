import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { coercedInt, idSchema, queryId, queryText, safeText } from '../schemas.ts';
import { codedText } from '../../errors/zodIssues.ts';

/**
 * The data-source endpoints of spec §7 "Data" (design §2.5): the `/dataOrigin` manager, the upload and the
 * `/customDatasource` list (server: apps/server/src/modules/operations/dataSources/routes.ts). Lists are 1-based
 * (`pageNumber`/`pageSize`) as the spec's data-source list is. Inputs are loose where the spec's own messages must
 * answer (a missing type is '数据源类型必填', not a schema error), strict where nothing legitimate differs.
 */

export const DATA_SOURCE_TYPES = ['sql', 'csv', 'xls', 'custom'] as const;
export type DataSourceType = (typeof DATA_SOURCE_TYPES)[number];
/** SQL servers a source may read (spec §9 lists mysql, oracle, sqlServer; the drivers shipped are mysql2 and pg). */
export const SQL_KINDS = ['mysql', 'postgres'] as const;
/** The spec's encodings (§9), in its order. */
export const CHARACTER_ENCODINGS = ['ASCII', 'ANSI', 'GBK', 'GB2312', 'UTF-8', 'GB18030', 'UNICODE'] as const;

/**
 * Permission codes of the data-source screens (permissions.ts group DATASOURCE). The task dialog lists data
 * sources and their fields too, so the task codes may read the list (not the preview).
 */
export const DATA_SOURCE_CODES = {
  select: ['DATASOURCE_ALL', 'DATASOURCE_SELECT'],
  create: ['DATASOURCE_ALL', 'DATASOURCE_CREATE'],
  edit: ['DATASOURCE_ALL', 'DATASOURCE_EDIT'],
  remove: ['DATASOURCE_ALL', 'DATASOURCE_DELETE'],
  taskDialog: ['JOB_ALL', 'JOB_CREATE', 'JOB_EDIT', 'TASK_ALL', 'TASK_CREATE', 'TASK_EDIT'],
} as const;
const { select: SELECT, create: CREATE, edit: EDIT, remove: DELETE, taskDialog: TASK_DIALOG } = DATA_SOURCE_CODES;

const dsTags = ['数据源管理'] as const;
const customTags = ['自定义数据源'] as const;

/** The 1-based `pageNumber`/`pageSize` of the data-source and model lists (spec §9: data-source pages from 1). */
const pageNumber = z.coerce.number(codedText('PAGE_NUMBER_POSITIVE')).int(codedText('PAGE_NUMBER_POSITIVE')).min(1, codedText('PAGE_NUMBER_POSITIVE')).max(1_000_000, codedText('PAGE_NUMBER_TOO_LARGE')).optional();
const pageSize = coercedInt({ code: 'PAGE_SIZE_BETWEEN', params: { max: 999 } }, 1, 999).optional();

export const dataOriginListQuery = z.object({
  pageNumber,
  pageSize,
  dataName: queryText({ code: 'TEXT_OVERLONG', params: { label: '数据源名称' } }, 50),
  type: queryText({ code: 'DATASOURCE_TYPE_INVALID' }, 10),
});

export const customListQuery = z.object({ pageNumber, pageSize, name: queryText({ code: 'TEXT_OVERLONG', params: { label: '名称' } }, 50) });

export const idQuery = z.object({ id: queryId({ code: 'ID_INVALID' }).refine((v) => v !== undefined, codedText('ID_REQUIRED')) });
export const idBody = z.object({ id: idSchema() });

const optionalText = (label: string, max: number) => safeText(label, max).optional().nullable();

export const dataOriginSaveBody = z.object({
  id: idSchema().optional().nullable(),
  dataName: optionalText('数据源名称', 50),
  code: optionalText('数据源编码', 50),
  type: optionalText('数据源类型', 10),
  characterEncoding: optionalText('字符编码', 20),
  dbKind: optionalText('数据库类型', 20),
  dataBaseSite: optionalText('数据库地址', 255),
  dataBasePort: z.union([z.number().int().min(1).max(65535), z.string().regex(/^\d{1,5}$/, codedText('PORT_RANGE'))], codedText('PORT_RANGE')).optional().nullable(),
  dataBaseUser: optionalText('数据库账号', 100),
  dataBasePassWord: optionalText('数据库密码', 200),
  dataBaseName: optionalText('数据库名称', 100),
  query: optionalText('查询语句', 20_000),
  url: optionalText('文件', 255),
  customDatabase: idSchema({ code: 'CUSTOM_DATASOURCE_REQUIRED' }).optional().nullable(),
});
export type DataOriginSaveBody = z.infer<typeof dataOriginSaveBody>;

export const testConnectionBody = dataOriginSaveBody.pick({ id: true, dbKind: true, dataBaseSite: true, dataBasePort: true, dataBaseUser: true, dataBasePassWord: true, dataBaseName: true, query: true });

export const customSaveBody = z.object({
  id: idSchema().optional().nullable(),
  name: optionalText('名称', 50),
  dataset: optionalText('数据集', 50),
  characterEncoding: optionalText('字符编码', 20),
  tableData: z
    .array(z.object({ fieldName: safeText('字段', 100).optional(), field: safeText('字段', 100).optional() }), codedText('CUSTOM_DATASOURCE_FIELDS_REQUIRED'))
    .max(200, codedText('DATASOURCE_FIELDS_TOO_MANY'))
    .optional()
    .nullable(),
});
export type CustomSaveBody = z.infer<typeof customSaveBody>;

/** One column of a source: its name as the rows carry it, plus (custom sources) the dataset field and kind it shows. */
export const tableField = z.object({ fieldName: z.string(), field: z.string().optional(), type: z.string().optional() });

/** What a data source looks like on the wire: never the password (only whether one is stored, and the mask). */
export const dataOriginRow = z.object({
  id: z.number(),
  dataName: z.string(),
  code: z.string().nullable(),
  type: z.enum(DATA_SOURCE_TYPES),
  dbKind: z.enum(SQL_KINDS).nullable(),
  dataBaseSite: z.string().nullable(),
  dataBasePort: z.number().nullable(),
  dataBaseUser: z.string().nullable(),
  dataBasePassWord: z.string(),
  hasPassword: z.boolean(),
  dataBaseName: z.string().nullable(),
  query: z.string().nullable(),
  url: z.string().nullable(),
  fileName: z.string().nullable(),
  characterEncoding: z.enum(CHARACTER_ENCODINGS),
  customDatabase: z.number().nullable(),
  customDatabaseName: z.string().nullable(),
  tableData: z.array(tableField),
  rowCount: z.number().nullable(),
  createBy: z.string().nullable(),
  createTime: z.string().nullable(),
  updateTime: z.string().nullable(),
});
export type DataOriginRow = z.output<typeof dataOriginRow>;

export const customRow = z.object({
  id: z.number(),
  name: z.string(),
  dataset: z.string(),
  datasetName: z.string(),
  characterEncoding: z.enum(CHARACTER_ENCODINGS),
  tableData: z.array(tableField),
  createBy: z.string().nullable(),
  createTime: z.string().nullable(),
  updateTime: z.string().nullable(),
});
export type CustomDatasourceRow = z.output<typeof customRow>;

export const pageAnswer = <T extends z.ZodType>(row: T) => z.object({ content: z.array(row), totalElements: z.number() });
const messageAnswer = z.object({ message: z.string() });

// ---- /dataOrigin ------------------------------------------------------------------------------------------------

export const listDataOrigins = defineContract({
  method: 'GET',
  path: '/dataOrigin/getDataOriginList',
  auth: [...SELECT, ...TASK_DIALOG],
  summary: '数据源列表（pageNumber 从1开始）',
  tags: dsTags,
  query: dataOriginListQuery,
  response: pageAnswer(dataOriginRow),
});

export const dataOriginDetailsAnswer = dataOriginRow.extend({ pvData: z.array(z.record(z.string(), z.unknown())), pvError: z.string().optional() });
export type DataOriginDetails = z.output<typeof dataOriginDetailsAnswer>;
export const dataOriginDetails = defineContract({
  method: 'GET',
  path: '/dataOrigin/details',
  auth: SELECT,
  summary: '数据源详情：字段与前10行预览',
  tags: dsTags,
  query: idQuery,
  response: dataOriginDetailsAnswer,
});

export const dataOriginForTask = defineContract({
  method: 'GET',
  path: '/dataOrigin/getModelById',
  auth: [...SELECT, ...TASK_DIALOG],
  summary: '任务对话框用：数据源及其字段',
  tags: dsTags,
  query: idQuery,
  response: z.object({ id: z.number(), dataName: z.string(), type: z.enum(DATA_SOURCE_TYPES), tableData: z.array(tableField) }),
});

export const saveDataOrigin = defineContract({
  method: 'POST',
  path: '/dataOrigin/save',
  auth: [...CREATE, ...EDIT],
  summary: '新增或修改数据源（有 id 为修改）',
  tags: dsTags,
  log: '保存数据源',
  created: true,
  body: dataOriginSaveBody,
  response: dataOriginRow,
});

export const testDataOriginConnection = defineContract({
  method: 'POST',
  path: '/dataOrigin/testConnection',
  auth: [...CREATE, ...EDIT],
  summary: '测试 SQL 数据源连接（带 id 时需修改权限；密码留空或 ****** 时用已保存的密码，仅限连接目标未更改）',
  tags: dsTags,
  log: '测试数据源连接',
  body: testConnectionBody,
  response: z.object({ message: z.string(), fields: z.array(z.string()) }),
});

export const deleteDataOrigin = defineContract({
  method: 'POST',
  path: '/dataOrigin/del',
  auth: DELETE,
  summary: '删除数据源',
  tags: dsTags,
  log: '删除数据源',
  body: idBody,
  response: messageAnswer,
});

/** The multipart upload (field `file`); no body schema: the storage plugin reads the stream. */
export const uploadDataOriginFile = defineContract({
  method: 'POST',
  path: '/algorithm/dataOrigin/uploadFile',
  auth: [...CREATE, ...EDIT],
  summary: '上传数据源文件（multipart 字段 file：csv、xls、xlsx），返回存储路径',
  tags: dsTags,
  log: '上传数据源文件',
  response: z.object({ path: z.string(), url: z.string(), fileName: z.string(), size: z.number(), message: z.string() }),
});

// ---- /customDatasource ----------------------------------------------------------------------------------------

export const listCustomDatasources = defineContract({
  method: 'GET',
  path: '/customDatasource/list',
  auth: SELECT,
  summary: '自定义数据源列表（pageNumber 从1开始）',
  tags: customTags,
  query: customListQuery,
  response: pageAnswer(customRow),
});

export const datasetAnswer = z.array(z.object({ key: z.string(), label: z.string(), fields: z.array(z.object({ field: z.string(), fieldName: z.string(), type: z.string() })) }));
export type Dataset = z.output<typeof datasetAnswer>[number];
export const listDatasets = defineContract({
  method: 'GET',
  path: '/customDatasource/datasets',
  auth: [...SELECT, ...CREATE, ...EDIT],
  summary: '可投影的数据集及其字段',
  tags: customTags,
  response: datasetAnswer,
});

export const createCustomDatasource = defineContract({
  method: 'POST',
  path: '/customDatasource/create',
  auth: CREATE,
  summary: '新增自定义数据源',
  tags: customTags,
  log: '新增自定义数据源',
  created: true,
  body: customSaveBody,
  response: customRow,
});

export const updateCustomDatasource = defineContract({
  method: 'POST',
  path: '/customDatasource/update',
  auth: EDIT,
  summary: '修改自定义数据源',
  tags: customTags,
  log: '修改自定义数据源',
  body: customSaveBody,
  response: customRow,
});

export const deleteCustomDatasource = defineContract({
  method: 'POST',
  path: '/customDatasource/del',
  auth: DELETE,
  summary: '删除自定义数据源（有数据源使用时拒绝）',
  tags: customTags,
  log: '删除自定义数据源',
  body: idBody,
  response: messageAnswer,
});
