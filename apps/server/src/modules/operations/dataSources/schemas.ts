import { z } from 'zod';
import { idSchema, queryId, queryText, safeText } from '../../../crud/routeSchemas.ts';
import { CHARACTER_ENCODINGS, DATA_SOURCE_TYPES, SQL_KINDS } from './types.ts';

/**
 * Route schemas of the data-source endpoints. Inputs are loose where the spec's own messages must answer
 * (a missing type is '数据源类型必填', not a schema error), strict where nothing legitimate differs.
 */

/** The 1-based `pageNumber`/`pageSize` of the data-source and model lists (spec §9: data-source pages from 1). */
const pageNumber = z.coerce.number({ error: '页码必须是正整数' }).int('页码必须是正整数').min(1, '页码必须是正整数').max(1_000_000, '页码过大').optional();
const pageSize = z.coerce.number({ error: '每页条数必须在1到999之间' }).int('每页条数必须在1到999之间').min(1, '每页条数必须在1到999之间').max(999, '每页条数必须在1到999之间').optional();

export const dataOriginListQuery = z.object({
  pageNumber,
  pageSize,
  dataName: queryText('数据源名称过长', 50),
  type: queryText('数据源类型不正确', 10),
});

export const customListQuery = z.object({ pageNumber, pageSize, name: queryText('名称过长', 50) });

export const idQuery = z.object({ id: queryId('ID必须是正整数').refine((v) => v !== undefined, 'ID不能为空') });
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
  dataBasePort: z.union([z.number().int().min(1).max(65535), z.string().regex(/^\d{1,5}$/, '端口必须是1到65535之间的整数')], { error: '端口必须是1到65535之间的整数' }).optional().nullable(),
  dataBaseUser: optionalText('数据库账号', 100),
  dataBasePassWord: optionalText('数据库密码', 200),
  dataBaseName: optionalText('数据库名称', 100),
  query: optionalText('查询语句', 20_000),
  url: optionalText('文件', 255),
  customDatabase: idSchema('请选择自定义数据源').optional().nullable(),
});
export type DataOriginSaveBody = z.infer<typeof dataOriginSaveBody>;

export const testConnectionBody = dataOriginSaveBody.pick({ id: true, dbKind: true, dataBaseSite: true, dataBasePort: true, dataBaseUser: true, dataBasePassWord: true, dataBaseName: true, query: true });

export const customSaveBody = z.object({
  id: idSchema().optional().nullable(),
  name: optionalText('名称', 50),
  dataset: optionalText('数据集', 50),
  characterEncoding: optionalText('字符编码', 20),
  tableData: z
    .array(z.object({ fieldName: safeText('字段', 100).optional(), field: safeText('字段', 100).optional() }), { error: '请至少选择一个字段' })
    .max(200, '字段不能超过200个')
    .optional()
    .nullable(),
});
export type CustomSaveBody = z.infer<typeof customSaveBody>;

const tableField = z.object({ fieldName: z.string(), field: z.string().optional(), type: z.string().optional() });

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

export const pageAnswer = <T extends z.ZodType>(row: T) => z.object({ content: z.array(row), totalElements: z.number() });
