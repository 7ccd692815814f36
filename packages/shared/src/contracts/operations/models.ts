import { z } from 'zod';
import { defineContract } from '../contract.ts';

/** /ModelManageMent/*: the model manager (spec §2, §4 shelf rules, §5 rules; server: operations/models/routes.ts). */

/** Parameter types as the seed spells them on the wire (Interger included). */
export const PARAMETER_TYPES = ['Interger', 'String', 'Boolean'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];
/** Output kinds the model-data filter shows: 单特征 / 交叉特征 / 更多. */
export const OUTPUT_KINDS = ['xls_single', 'xls_muti', 'xls'] as const;
export type OutputKind = (typeof OUTPUT_KINDS)[number];
/** Input formats of spec §3 Model.fileType. */
export const FILE_TYPES = ['python', 'mysql', 'text', 'csv'] as const;
export const ON_SHELF = 1;
export const OFF_SHELF = 2;

/** Model codes; the task screens' JOB_* codes read the list too (the task dialog's model choice). */
export const MODEL_CODES = {
  select: ['MODEL_ALL', 'MODEL_SELECT', 'TASK_ALL', 'TASK_CREATE', 'TASK_EDIT', 'JOB_ALL', 'JOB_CREATE', 'JOB_EDIT'],
  create: ['MODEL_ALL', 'MODEL_CREATE'],
  edit: ['MODEL_ALL', 'MODEL_EDIT'],
  delete: ['MODEL_ALL', 'MODEL_DELETE'],
} as const;

const tags = ['模型管理'] as const;
const idOf = z.coerce.number().int().positive().max(2_147_483_647);

const parameterRow = z.looseObject({
  parameterCode: z.string().max(100).optional().nullable(),
  parameterName: z.string().max(100).optional().nullable(),
  parameterType: z.string().max(20).optional().nullable(),
  defaultValue: z.union([z.string().max(200), z.number(), z.boolean(), z.null()]).optional(),
});

const saveBody = z.looseObject({
  id: idOf.optional().nullable(),
  modelName: z.string().max(200).optional().nullable(),
  site: z.string().max(500).optional().nullable(),
  fileType: z.string().max(20).optional().nullable(),
  statu: z.union([z.number(), z.string().max(2)]).optional().nullable(),
  parameterInfo: z.array(parameterRow).max(50).optional().nullable(),
  /** HMAC key for an external model; empty or ****** keeps the stored one. */
  secret: z.string().max(200).optional().nullable(),
});

export const parameterInfo = z.object({
  parameterCode: z.string(),
  parameterName: z.string(),
  parameterType: z.enum(PARAMETER_TYPES),
  /** Default used when a task leaves the parameter out (server extension). */
  defaultValue: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
});
export type ParameterInfo = z.output<typeof parameterInfo>;

/** A model on the wire: the site without credentials or query, never the secret (only whether one is stored). */
export const modelRow = z.object({
  id: z.number(),
  modelName: z.string(),
  site: z.string(),
  fileType: z.enum(FILE_TYPES),
  statu: z.union([z.literal(ON_SHELF), z.literal(OFF_SHELF)]),
  parameterInfo: z.array(parameterInfo),
  outputKind: z.enum(OUTPUT_KINDS),
  builtin: z.boolean(),
  hasSecret: z.boolean(),
  createTime: z.string().nullable(),
  updateTime: z.string().nullable(),
});
export type ModelRow = z.output<typeof modelRow>;

export const listModels = defineContract({
  method: 'GET',
  path: '/ModelManageMent/getModelList',
  auth: MODEL_CODES.select,
  summary: '模型列表（pageNumber 从1开始）',
  tags,
  query: z.looseObject({
    pageNumber: z.coerce.number().int().min(1).max(1_000_000).optional(),
    pageSize: z.coerce.number().int().min(1).max(999).optional(),
    modelName: z.string().max(100).optional(),
    statu: z.coerce.number().int().min(1).max(2).optional(),
  }),
  response: z.object({ content: z.array(modelRow), totalElements: z.number() }),
});

export const getModel = defineContract({
  method: 'GET',
  path: '/ModelManageMent/getModelById',
  auth: MODEL_CODES.select,
  summary: '模型详情',
  tags,
  query: z.looseObject({ id: idOf }),
  response: modelRow,
});

/** A new model answers 201 with the model; a change answers 204 without a body. */
export const saveModel = defineContract({
  method: 'POST',
  path: '/ModelManageMent/saveModel',
  auth: [...MODEL_CODES.create, ...MODEL_CODES.edit],
  summary: '新增或修改模型（无id为新增）',
  tags,
  log: '保存模型',
  created: true,
  body: saveBody,
  response: modelRow.optional(),
});

export const deleteModel = defineContract({
  method: 'POST',
  path: '/ModelManageMent/delModel',
  auth: MODEL_CODES.delete,
  summary: '删除模型（须先下架）',
  tags,
  log: '删除模型',
  body: z.looseObject({ id: idOf }),
  response: z.object({ message: z.string() }),
});

export const setModelShelf = defineContract({
  method: 'POST',
  path: '/ModelManageMent/statuModel',
  auth: MODEL_CODES.edit,
  summary: '上架或下架（不带statu时切换）',
  tags,
  log: '模型上架/下架',
  body: z.looseObject({ id: idOf, statu: z.union([z.literal(1), z.literal(2), z.literal('1'), z.literal('2')]).optional().nullable() }),
  response: z.object({ statu: z.number(), message: z.string() }),
});
