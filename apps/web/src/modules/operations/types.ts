/** Wire shapes of the 数据管理 endpoints (apps/server/src/modules/operations/models and tasks). */

/** isPause of a model task (spec §3): 0 enabled, 1 paused, 2 finished, 3 running. */
export const TASK_STATE = { enabled: 0, paused: 1, finished: 2, running: 3 } as const;
export type TaskState = (typeof TASK_STATE)[keyof typeof TASK_STATE];

export interface TaskRow {
  id: number;
  jobName: string;
  isPause: TaskState;
  modelInfo: { id: number; modelName: string | null };
  dataId: number;
  cronTime: string;
  beanName: string;
  /** JSON text: {jobName, properties?, <model parameters>} */
  params: string;
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastStatus: 'success' | 'failure' | null;
  createTime: string | null;
  updateTime: string | null;
}

export interface TaskLogRow {
  id: number;
  jobName: string;
  params: string | null;
  cronExpression: string | null;
  exceptionDetail: string | null;
  time: number;
  isSuccess: boolean;
  trigger: 'cron' | 'manual' | string;
  summary: string | null;
  rowsIn: number | null;
  rowsOut: number | null;
  createTime: string;
}

export interface TaskProgress {
  msg: string;
  /** 0..1 */
  percent: number;
}

export type ParameterType = 'Interger' | 'String' | 'Boolean';
export const PARAMETER_TYPES: readonly ParameterType[] = ['Interger', 'String', 'Boolean'];
/** Model file types of spec §9. */
export const FILE_TYPES = ['python', 'mysql', 'text', 'csv'] as const;
export const ON_SHELF = 1;
export const OFF_SHELF = 2;

export interface ParameterInfo {
  parameterCode: string;
  parameterName: string;
  parameterType: ParameterType;
  defaultValue?: string | number | boolean | null;
}

export interface ModelRow {
  id: number;
  modelName: string;
  site: string;
  fileType: string;
  statu: number;
  parameterInfo: ParameterInfo[];
  builtin?: boolean;
  outputKind?: string;
  hasSecret?: boolean;
  secret?: string | null;
  description?: string | null;
  createTime?: string | null;
  updateTime?: string | null;
}

export interface DataOriginOption {
  id: number;
  dataName: string;
  type: string;
  tableData: { fieldName: string; field?: string }[];
}

/** Output kinds of the model-data filter (spec §2): xls_single 单例, xls_muti 交叉, xls 多. */
export const OUTPUT_KINDS = ['xls_single', 'xls_muti', 'xls'] as const;

export interface ModelDataGroup {
  id: number;
  modelName: string;
  modelTitle: string | null;
  groupName: string;
  taskName: string | null;
  fileName: string;
  files: { id: number; fileName: string; rows: number; size: number }[];
  rowsOut: number;
  createTime: string;
}

export const TASK_CODES = {
  select: ['TASK_ALL', 'TASK_SELECT', 'JOB_ALL', 'JOB_SELECT'],
  create: ['TASK_ALL', 'TASK_CREATE', 'JOB_ALL', 'JOB_CREATE'],
  edit: ['TASK_ALL', 'TASK_EDIT', 'JOB_ALL', 'JOB_EDIT'],
  exec: ['TASK_ALL', 'TASK_EXEC', 'TASK_EDIT', 'JOB_ALL', 'JOB_EDIT'],
  delete: ['TASK_ALL', 'TASK_DELETE', 'JOB_ALL', 'JOB_DELETE'],
};
export const MODEL_CODES = {
  create: ['MODEL_ALL', 'MODEL_CREATE'],
  edit: ['MODEL_ALL', 'MODEL_EDIT'],
  delete: ['MODEL_ALL', 'MODEL_DELETE'],
};
export const MODELDATA_CODES = { export: ['MODELDATA_ALL', 'MODELDATA_SELECT', 'TASK_ALL', 'TASK_SELECT', 'JOB_ALL', 'JOB_SELECT'] };
