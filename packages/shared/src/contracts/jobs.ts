import { z } from 'zod';
import { defineContract } from './contract.ts';
import { idArrayBody, idSchema, queryText, safeText } from './schemas.ts';

/**
 * 系统工具 › 定时任务 (spec §7 "Jobs variant", issue 25): system jobs over the scheduler, their handlers, the fire-time
 * preview and the run log. Server: apps/server/src/modules/jobs; screen: apps/web/src/modules/tools/jobs.
 */
const tags = ['定时任务'] as const;

export const JOB_CODES = {
  select: ['JOB_ALL', 'JOB_SELECT'],
  create: ['JOB_ALL', 'JOB_CREATE'],
  edit: ['JOB_ALL', 'JOB_EDIT'],
  delete: ['JOB_ALL', 'JOB_DELETE'],
  /** Whoever may open the dialog may read the handler list and the fire-time preview. */
  dialog: ['JOB_ALL', 'JOB_SELECT', 'JOB_CREATE', 'JOB_EDIT'],
} as const;

const idParams = z.object({ id: idSchema() });
const pageQuery = {
  page: z.coerce.number({ error: '页码必须是非负整数' }).int('页码必须是非负整数').min(0, '页码必须是非负整数').max(1_000_000, '页码必须是非负整数').optional(),
  size: z.coerce.number({ error: '每页条数必须是1到1000的整数' }).int('每页条数必须是1到1000的整数').min(1, '每页条数必须是1到1000的整数').max(1000, '每页条数必须是1到1000的整数').optional(),
  sort: z.unknown().optional(),
};

/** A system job (table `sys_scheduled_job`) as the server sends it. */
export const jobRow = z.object({
  id: z.number(),
  jobName: z.string(),
  beanName: z.string(),
  methodName: z.string(),
  params: z.string(),
  cronExpression: z.string(),
  isPause: z.boolean(),
  remark: z.string().nullable(),
  consecutiveFailures: z.number(),
  lastRunTime: z.string().nullable(),
  lastSuccess: z.boolean().nullable(),
  createTime: z.string().nullable(),
  updateTime: z.string().nullable(),
  /** Further attempts after a failed one (0-10), and the wait between them in seconds. */
  retryCount: z.number(),
  retryIntervalSec: z.number(),
  /** A fire missed while no instance ran: run it once (`once`) or skip it (`skip`). */
  misfirePolicy: z.enum(['once', 'skip']),
  /** Runs may overlap (otherwise a fire while one runs is skipped). */
  allowOverlap: z.boolean(),
  /** Who created or last edited it; failure alerts go to this user and the admins. */
  ownerId: z.number().nullable(),
});
export type JobRow = z.infer<typeof jobRow>;

/** A job of the list: the row plus what the scheduler says of it now. */
export const jobListRow = jobRow.extend({ running: z.boolean(), nextRunTime: z.string().nullable() });
export type JobListRow = z.infer<typeof jobListRow>;

export const jobBody = z.object({
  jobName: safeText('任务名称', 100).trim().min(1, '请输入任务名称'),
  beanName: safeText('Bean名称', 50).trim().min(1, '请选择任务处理器'),
  methodName: safeText('方法名称', 50).trim().min(1, '请选择任务处理器'),
  cronExpression: safeText('Cron表达式', 120).trim().min(1, '请输入Cron表达式'),
  params: z.union([safeText('参数', 2000), z.record(z.string(), z.unknown())]).nullish(),
  isPause: z.boolean({ error: '状态必须是 true 或 false' }).optional(),
  remark: safeText('备注', 255).nullish(),
  // run options (migration 0027); omitted on an update: the stored values stay
  retryCount: z.number({ error: '重试次数必须是0到10之间的整数' }).int('重试次数必须是0到10之间的整数').min(0, '重试次数必须是0到10之间的整数').max(10, '重试次数必须是0到10之间的整数').optional(),
  retryIntervalSec: z.number({ error: '重试间隔必须是1到3600秒之间的整数' }).int('重试间隔必须是1到3600秒之间的整数').min(1, '重试间隔必须是1到3600秒之间的整数').max(3600, '重试间隔必须是1到3600秒之间的整数').optional(),
  misfirePolicy: z.enum(['once', 'skip'], { error: '错过策略只能是 once（补跑一次）或 skip（跳过）' }).optional(),
  allowOverlap: z.boolean({ error: '允许并发必须是 true 或 false' }).optional(),
});
export type JobBody = z.input<typeof jobBody>;

export const listJobs = defineContract({
  method: 'GET',
  path: '/api/jobs',
  auth: JOB_CODES.select,
  summary: '定时任务列表',
  tags,
  query: z.object({ jobName: queryText('任务名称过长', 100), ...pageQuery }),
  response: z.object({ content: z.array(jobListRow), totalElements: z.number().int() }),
});

export const jobHandlers = defineContract({
  method: 'GET',
  path: '/api/jobs/handlers',
  auth: JOB_CODES.dialog,
  summary: '可选的任务处理器（beanName.methodName）',
  tags,
  response: z.array(z.object({ name: z.string(), beanName: z.string(), methodName: z.string(), title: z.string() })),
});

export const jobNextRuns = defineContract({
  method: 'GET',
  path: '/api/jobs/nextRuns',
  auth: JOB_CODES.dialog,
  summary: 'Cron表达式接下来的触发时间（预览）',
  tags,
  query: z.object({ cron: safeText('Cron表达式', 120).min(1, '请输入Cron表达式') }),
  response: z.object({ times: z.array(z.string()) }),
});

export const createJob = defineContract({
  method: 'POST',
  path: '/api/jobs',
  auth: JOB_CODES.create,
  summary: '新增定时任务',
  log: '新增定时任务',
  tags,
  body: jobBody,
  created: true,
  response: jobRow,
});

export const updateJob = defineContract({
  method: 'PUT',
  path: '/api/jobs',
  auth: JOB_CODES.edit,
  summary: '修改定时任务',
  log: '修改定时任务',
  tags,
  body: jobBody.extend({ id: z.number({ error: 'ID必须是正整数' }).int('ID必须是正整数').min(1, 'ID必须是正整数') }),
});

/** 暂停/恢复: one toggle, as the screen's single button calls it. */
export const toggleJob = defineContract({
  method: 'PUT',
  path: '/api/jobs/:id',
  auth: JOB_CODES.edit,
  summary: '暂停或恢复（切换）',
  log: '暂停/恢复定时任务',
  tags,
  params: idParams,
  response: z.object({ id: z.number(), isPause: z.boolean() }),
});

export const execJob = defineContract({
  method: 'PUT',
  path: '/api/jobs/exec/:id',
  auth: JOB_CODES.edit,
  summary: '执行一次（暂停的任务也可以）',
  log: '执行一次定时任务',
  tags,
  params: idParams,
  response: z.object({ id: z.number() }),
});

export const deleteJob = defineContract({
  method: 'DELETE',
  path: '/api/jobs/:id',
  auth: JOB_CODES.delete,
  summary: '删除定时任务（运行中不能删除）',
  log: '删除定时任务',
  tags,
  params: idParams,
  response: z.object({}),
});

export const deleteJobs = defineContract({
  method: 'DELETE',
  path: '/api/jobs',
  auth: JOB_CODES.delete,
  summary: '批量删除定时任务',
  log: '批量删除定时任务',
  tags,
  body: idArrayBody,
  response: z.object({}),
});

/** A run of a system job; the exception text is left out of the list (long): `jobLogException` reads one. */
export const jobLogRow = z.object({
  id: z.number(),
  jobKey: z.string(),
  jobName: z.string().nullable(),
  beanName: z.string().nullable(),
  methodName: z.string().nullable(),
  params: z.string().nullable(),
  cronExpression: z.string().nullable(),
  trigger: z.string(),
  fireTime: z.string().nullable(),
  isSuccess: z.boolean(),
  time: z.number(),
  summary: z.string().nullable(),
  outputCount: z.number().nullable(),
  calcCount: z.number().nullable(),
  instance: z.string().nullable(),
  hasException: z.boolean(),
  createTime: z.string(),
});
export type JobLogRow = z.infer<typeof jobLogRow>;

export const listJobLogs = defineContract({
  method: 'GET',
  path: '/api/jobLogs',
  auth: JOB_CODES.select,
  summary: '执行日志（系统任务）',
  tags,
  query: z.object({
    jobName: queryText('任务名称过长', 100),
    isSuccess: z.enum(['true', 'false'], { error: 'isSuccess 只能是 true 或 false' }).optional(),
    ...pageQuery,
  }),
  response: z.object({ content: z.array(jobLogRow), totalElements: z.number().int() }),
});

export const jobLogException = defineContract({
  method: 'GET',
  path: '/api/jobLogs/:id',
  auth: JOB_CODES.select,
  summary: '一条执行日志的异常详情',
  tags,
  params: idParams,
  response: z.object({ exceptionDetail: z.string() }),
});
