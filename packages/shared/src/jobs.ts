/**
 * A system job (系统工具 › 定时任务, table `sys_scheduled_job`) as GET /api/jobs sends it (spec §3, the job
 * variant): the server builds it (apps/server/src/modules/jobs) and the screen reads it (apps/web/src/modules/tools/jobs).
 */
export interface JobRow {
  id: number;
  jobName: string;
  beanName: string;
  methodName: string;
  params: string;
  cronExpression: string;
  isPause: boolean;
  remark: string | null;
  consecutiveFailures: number;
  lastRunTime: string | null;
  lastSuccess: boolean | null;
  createTime: string | null;
  updateTime: string | null;
}

/** A job of the list: the row plus what the scheduler says of it now. */
export interface JobListRow extends JobRow {
  running: boolean;
  nextRunTime: string | null;
}
