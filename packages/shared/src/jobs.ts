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
  /** Further attempts after a failed one (0-10), and the wait between them in seconds. */
  retryCount: number;
  retryIntervalSec: number;
  /** A fire missed while no instance ran: run it once (`once`) or skip it (`skip`). */
  misfirePolicy: 'once' | 'skip';
  /** Runs may overlap (otherwise a fire while one runs is skipped). */
  allowOverlap: boolean;
  /** Who created or last edited it; failure alerts go to this user and the admins. */
  ownerId: number | null;
}

/** A job of the list: the row plus what the scheduler says of it now. */
export interface JobListRow extends JobRow {
  running: boolean;
  nextRunTime: string | null;
}
