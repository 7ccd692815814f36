import { z } from 'zod';
import { defineContract } from './contract.ts';
import { coercedInt, idArrayBody, idSchema, jsonInt, pageSize, queryText, safeText } from './schemas.ts';
import { codedText } from '../errors/zodIssues.ts';

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
  page: coercedInt({ code: 'PAGE_NUMBER_INVALID' }, 0, 1_000_000).optional(),
  size: pageSize(1000).optional(),
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
  jobName: safeText('任务名称', 100).trim().min(1, codedText('JOB_NAME_REQUIRED')),
  beanName: safeText('Bean名称', 50).trim().min(1, codedText('JOB_HANDLER_REQUIRED')),
  methodName: safeText('方法名称', 50).trim().min(1, codedText('JOB_HANDLER_REQUIRED')),
  cronExpression: safeText('Cron表达式', 120).trim().min(1, codedText('JOB_CRON_REQUIRED')),
  params: z.union([safeText('参数', 2000), z.record(z.string(), z.unknown())]).nullish(),
  isPause: z.boolean(codedText('FIELD_TRUE_FALSE', { label: '状态' })).optional(),
  remark: safeText('备注', 255).nullish(),
  // run options (migration 0027); omitted on an update: the stored values stay
  retryCount: jsonInt({ code: 'JOB_RETRY_COUNT' }, 0, 10).optional(),
  retryIntervalSec: jsonInt({ code: 'JOB_RETRY_INTERVAL' }, 1, 3600).optional(),
  misfirePolicy: z.enum(['once', 'skip'], codedText('JOB_MISFIRE_POLICY')).optional(),
  allowOverlap: z.boolean(codedText('FIELD_TRUE_FALSE', { label: '允许并发' })).optional(),
});
export type JobBody = z.input<typeof jobBody>;

export const listJobs = defineContract({
  method: 'GET',
  path: '/api/jobs',
  auth: JOB_CODES.select,
  summary: '定时任务列表',
  tags,
  query: z.object({ jobName: queryText({ code: 'TEXT_OVERLONG', params: { label: '任务名称' } }, 100), ...pageQuery }),
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
  query: z.object({ cron: safeText('Cron表达式', 120).min(1, codedText('JOB_CRON_REQUIRED')) }),
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
  body: jobBody.extend({ id: z.number(codedText('ID_INVALID')).int(codedText('ID_INVALID')).min(1, codedText('ID_INVALID')) }),
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
    jobName: queryText({ code: 'TEXT_OVERLONG', params: { label: '任务名称' } }, 100),
    isSuccess: z.enum(['true', 'false'], codedText('FLAG_TRUE_FALSE', { label: 'isSuccess' })).optional(),
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
