import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { safeText } from '../schemas.ts';
import { OUTPUT_KINDS } from './models.ts';
import { codedText } from '../../errors/zodIssues.ts';

/**
 * Model tasks (/taskManagement/*, spec §2, §4 isPause buttons, §5 messages), their outputs (/dataManagement/*) and
 * the dashboard's statistics (/instrument/*). Server: apps/server/src/modules/operations/tasks/.
 */

/** isPause of spec §3/§4: 0 enabled, 1 paused, 2 finished, 3 running. */
export const TASK_STATE = { enabled: 0, paused: 1, finished: 2, running: 3 } as const;
export type TaskState = (typeof TASK_STATE)[keyof typeof TASK_STATE];

/** Task codes; the seed's task screens show JOB_* codes, so those pass too (design §2.5). */
export const TASK_CODES = {
  select: ['TASK_ALL', 'TASK_SELECT', 'JOB_ALL', 'JOB_SELECT'],
  create: ['TASK_ALL', 'TASK_CREATE', 'JOB_ALL', 'JOB_CREATE'],
  edit: ['TASK_ALL', 'TASK_EDIT', 'JOB_ALL', 'JOB_EDIT'],
  exec: ['TASK_ALL', 'TASK_EXEC', 'TASK_EDIT', 'JOB_ALL', 'JOB_EDIT'],
  delete: ['TASK_ALL', 'TASK_DELETE', 'JOB_ALL', 'JOB_DELETE'],
} as const;

/** Model data and the dashboard show what model tasks computed: task or model-data select. */
export const MODELDATA_CODES = {
  select: ['MODELDATA_ALL', 'MODELDATA_SELECT', 'TASK_ALL', 'TASK_SELECT', 'JOB_ALL', 'JOB_SELECT'],
  export: ['MODELDATA_ALL', 'MODELDATA_SELECT', 'TASK_ALL', 'TASK_SELECT', 'JOB_ALL', 'JOB_SELECT'],
} as const;

const tags = ['任务管理'] as const;
const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const messageAnswer = z.object({ message: z.string() });

export const taskBody = z.looseObject({
  id: z.coerce.number().int().positive().max(2_147_483_647).optional().nullable(),
  jobName: safeText('任务名称', 200).optional().nullable(),
  modelInfo: z.looseObject({ id: z.coerce.number().int().positive().max(2_147_483_647).optional().nullable() }).optional().nullable(),
  modelId: z.coerce.number().int().positive().max(2_147_483_647).optional().nullable(),
  dataId: z.coerce.number().int().positive().max(2_147_483_647).optional().nullable(),
  cronTime: safeText('执行时间', 200).optional().nullable(),
  /** JSON text or object: {jobName, properties?, <model parameters>} */
  params: z.union([safeText('任务参数', 4000), z.record(z.string().max(50), z.unknown())]).optional().nullable(),
  property: safeText('属性', 100).optional().nullable(),
});
export type TaskBody = z.infer<typeof taskBody>;

export const taskRow = z.object({
  id: z.number(),
  jobName: z.string(),
  isPause: z.union([z.literal(TASK_STATE.enabled), z.literal(TASK_STATE.paused), z.literal(TASK_STATE.finished), z.literal(TASK_STATE.running)]),
  modelInfo: z.object({ id: z.number(), modelName: z.string().nullable() }),
  dataId: z.number(),
  cronTime: z.string(),
  beanName: z.string(),
  /** JSON text: {jobName, properties?, <model parameters>} */
  params: z.string(),
  nextRunAt: z.string().nullable(),
  lastRunAt: z.string().nullable(),
  lastStatus: z.enum(['success', 'failure']).nullable(),
  createTime: z.string().nullable(),
  updateTime: z.string().nullable(),
});
export type TaskRow = z.output<typeof taskRow>;

export const listTasks = defineContract({
  method: 'GET',
  path: '/taskManagement/jobs',
  auth: TASK_CODES.select,
  summary: '模型任务列表',
  tags,
  query: z.looseObject({
    page: z.coerce.number().int().min(0).max(1_000_000).optional(),
    size: z.coerce.number().int().min(1).max(1000).optional(),
    jobName: safeText('任务名称', 100).optional(),
  }),
  response: z.object({ content: z.array(taskRow), totalElements: z.number() }),
});

export const createTask = defineContract({
  method: 'POST',
  path: '/taskManagement/jobs',
  auth: TASK_CODES.create,
  summary: '新增模型任务',
  tags,
  log: '新增模型任务',
  created: true,
  body: taskBody,
  response: taskRow,
});

/** Answers 204 without a body. */
export const updateTask = defineContract({
  method: 'PUT',
  path: '/taskManagement/jobs',
  auth: TASK_CODES.edit,
  summary: '修改模型任务（任务名称不可改）',
  tags,
  log: '修改模型任务',
  body: taskBody,
  response: z.void(),
});

export const deleteTask = defineContract({
  method: 'DELETE',
  path: '/taskManagement/jobs/:id',
  auth: TASK_CODES.delete,
  summary: '删除模型任务（运行中不可删）',
  tags,
  log: '删除模型任务',
  params: idParam,
  response: messageAnswer,
});

/** 开始: run once now; a paused task stays paused afterwards. */
export const execTask = defineContract({
  method: 'PUT',
  path: '/taskManagement/jobs/exec/:id',
  auth: TASK_CODES.exec,
  summary: '立即执行一次',
  tags,
  log: '执行模型任务',
  params: idParam,
  response: messageAnswer,
});

/** 暂停 / 恢复: the same toggle, 0 <-> 1. */
export const toggleTask = defineContract({
  method: 'PUT',
  path: '/taskManagement/jobs/:id',
  auth: TASK_CODES.edit,
  summary: '暂停或恢复（切换）',
  tags,
  log: '暂停/恢复模型任务',
  params: idParam,
  response: z.object({ isPause: z.number(), message: z.string() }),
});

export const taskLogRow = z.object({
  id: z.number(),
  jobName: z.string().nullable(),
  beanName: z.string().nullable(),
  methodName: z.string().nullable(),
  params: z.string().nullable(),
  cronExpression: z.string().nullable(),
  /** the message line only, unless the caller is an administrator */
  exceptionDetail: z.string().nullable(),
  time: z.number(),
  isSuccess: z.boolean(),
  /** 'cron' | 'manual' */
  trigger: z.string(),
  summary: z.string().nullable(),
  rowsIn: z.number().nullable(),
  rowsOut: z.number().nullable(),
  createTime: z.string(),
});
export type TaskLogRow = z.output<typeof taskLogRow>;

export const listTaskLogs = defineContract({
  method: 'GET',
  path: '/taskManagement/jobLogs',
  auth: TASK_CODES.select,
  summary: '模型任务执行日志',
  tags,
  query: z.looseObject({
    page: z.coerce.number().int().min(0).max(1_000_000).optional(),
    size: z.coerce.number().int().min(1).max(1000).optional(),
    jobName: safeText('任务名称', 100).optional(),
    isSuccess: z.enum(['true', 'false', '1', '0']).optional(),
  }),
  response: z.object({ content: z.array(taskLogRow), totalElements: z.number() }),
});

/** The task dialog's preview of a cron (the same Quartz normalisation as saving; one that never fires is a 400). */
export const taskNextRuns = defineContract({
  method: 'GET',
  path: '/taskManagement/nextRuns',
  auth: [...TASK_CODES.create, ...TASK_CODES.edit],
  summary: 'Cron表达式接下来的5次触发时间（预览）',
  tags,
  query: z.object({ cron: z.string().trim().min(1, codedText('TASK_CRON_REQUIRED')).max(200, codedText('TEXT_TOO_LONG', { label: 'Cron表达式', max: 200 })) }),
  response: z.object({ times: z.array(z.string()) }),
});

export const taskProgress = z.object({ msg: z.string(), /** 0..1 */ percent: z.number() });
export type TaskProgress = z.output<typeof taskProgress>;

export const taskDispatch = defineContract({
  method: 'GET',
  path: '/taskManagement/dispatch',
  auth: TASK_CODES.select,
  summary: '任务进度 {msg, percent}',
  tags,
  query: z.looseObject({ jobName: safeText('任务名称', 100).optional(), id: z.coerce.number().int().positive().max(2_147_483_647).optional() }),
  response: taskProgress,
});

// ---- /dataManagement: the outputs of model tasks ----------------------------------------------------------------

const dataTags = ['模型数据'] as const;

export const modelDataGroup = z.object({
  id: z.number(),
  /** the output kind (OUTPUT_KINDS) */
  modelName: z.string(),
  modelTitle: z.string().nullable(),
  groupName: z.string(),
  taskName: z.string().nullable(),
  fileName: z.string(),
  files: z.array(z.object({ id: z.number(), fileName: z.string(), rows: z.number(), size: z.number() })),
  rowsOut: z.number(),
  createTime: z.string(),
});
export type ModelDataGroup = z.output<typeof modelDataGroup>;

export const listModelData = defineContract({
  method: 'GET',
  path: '/dataManagement/modelDataList',
  auth: MODELDATA_CODES.select,
  summary: '模型数据（每组一行，pageNumber 从1开始）',
  tags: dataTags,
  query: z.looseObject({
    pageNumber: z.coerce.number().int().min(1).max(1_000_000).optional(),
    pageSize: z.coerce.number().int().min(1).max(999).optional(),
    modelName: z.enum(OUTPUT_KINDS).or(z.literal('')).optional(),
    groupName: z.string().max(150).optional(),
    sort: z.string().max(50).optional(),
  }),
  response: z.object({ content: z.array(modelDataGroup), totalElements: z.number() }),
});

export const listModelDataGroups = defineContract({
  method: 'GET',
  path: '/dataManagement/groupList',
  auth: MODELDATA_CODES.select,
  summary: '分组名称（最新在前，最多500个）',
  tags: dataTags,
  response: z.array(z.string()),
});

export const modelDataPreview = z.object({ fileName: z.string(), columns: z.array(z.string()), rows: z.array(z.array(z.unknown())), total: z.number(), sheetNames: z.array(z.string()) });
export type ModelDataPreview = z.output<typeof modelDataPreview>;

export const previewModelData = defineContract({
  method: 'GET',
  path: '/dataManagement/customsDataDetails',
  auth: MODELDATA_CODES.select,
  summary: '预览一个输出文件（前50行）',
  tags: dataTags,
  query: z.looseObject({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
  response: modelDataPreview,
});

/** A zip stream (all.zip): no JSON answer. */
export const exportModelData = defineContract({
  method: 'POST',
  path: '/dataManagement/outPutData',
  auth: MODELDATA_CODES.export,
  summary: '导出所选分组为 all.zip（流式）',
  tags: dataTags,
  log: '导出模型数据',
  body: z.looseObject({ groupName: z.union([z.string().max(20_000), z.array(z.string().max(150)).max(500)]).optional().nullable() }).optional(),
});

// ---- /instrument: the dashboard's statistics (data scope of the caller) -----------------------------------------

const dashTags = ['首页统计'] as const;
const pair = z.tuple([z.number(), z.number()]);

export const dataVolumeAnswer = z.object({
  day: z.array(pair),
  /** `mouth` keeps the spelling of the spec's response */
  mouth: z.array(pair),
  sum: z.array(pair),
  unit: z.literal('万条'),
  /** the raw counts [output, calculation] beside the 万条 figures */
  rows: z.object({ day: pair, mouth: pair, sum: pair }),
});
export type DataVolume = z.output<typeof dataVolumeAnswer>;

export const dataVolume = defineContract({
  method: 'GET',
  path: '/instrument/getDataVolumeInfo',
  auth: MODELDATA_CODES.select,
  summary: '产出与计算量（万条）：今日、本月、累计（数据范围内的任务）',
  tags: dashTags,
  response: dataVolumeAnswer,
});

export const chosenTask = z.object({ id: z.number(), jobName: z.string(), modelName: z.string().nullable() });
export type ChosenTask = z.output<typeof chosenTask>;

/** Reading (or remembering) the home screen's chart choice is not an operation: no log row (U11). */
export const dashboardTasks = defineContract({
  method: 'POST',
  path: '/instrument/dataConfigList',
  auth: MODELDATA_CODES.select,
  summary: '图表设置：所选任务（1到4个；不带ids时返回已保存的设置；数据范围内的任务）',
  tags: dashTags,
  log: '',
  body: z.looseObject({ ids: z.array(z.coerce.number().int().positive().max(2_147_483_647)).max(20).optional().nullable() }).optional().nullable(),
  response: z.array(chosenTask),
});

export const trait = z.object({ name: z.string(), number: z.number() });
export type Trait = z.output<typeof trait>;

export const taskTraits = defineContract({
  method: 'GET',
  path: '/instrument/traitList',
  auth: MODELDATA_CODES.select,
  summary: '任务最近一次成功运行的前10项 (name, number)（数据范围内的任务）',
  tags: dashTags,
  query: z.looseObject({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
  response: z.array(trait),
});
