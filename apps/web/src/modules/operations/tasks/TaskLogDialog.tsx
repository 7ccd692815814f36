import { listTaskLogs } from '@app/shared/contracts/operations/tasks';
import { useTranslation } from 'react-i18next';
import { RunLogDialog } from '../../../crud/RunLogDialog';
import type { TaskLogRow } from '../types';

/** Spec §9: the task execution log shows 5 rows a page. */
export const TASK_LOG_PAGE_SIZE = 5;

/**
 * 执行日志 of the model tasks: the shared run log with the task's params, cron and rows read/written; the
 * exception text comes with the row, and a run's summary opens as an expanded row.
 */
export default function TaskLogDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('models');
  return (
    <RunLogDialog<TaskLogRow>
      open={open}
      onClose={onClose}
      ns="models"
      url={listTaskLogs.path}
      queryKey={['modelTasks', 'logs']}
      pageSize={TASK_LOG_PAGE_SIZE}
      width={1150}
      scrollX={1050}
      testId="task-log"
      nameTestId="task-log-name"
      jobNameLabel={t('task.jobName')}
      columns={(c) => [
        { key: 'jobName', dataIndex: 'jobName', title: t('task.jobName'), width: 140, ellipsis: true },
        { key: 'params', dataIndex: 'params', title: t('task.params'), width: 160, ellipsis: true },
        { key: 'cronExpression', dataIndex: 'cronExpression', title: t('task.cronTime'), width: 120 },
        c.trigger,
        { key: 'rows', title: t('log.rows'), width: 130, render: (_, r) => (r.rowsIn === null ? '' : t('log.rowsInOut', { rowsIn: r.rowsIn, rowsOut: r.rowsOut ?? 0 })) },
        c.time,
        c.status,
        c.createTime,
      ]}
      hasException={(r) => !!r.exceptionDetail}
      loadException={(r) => r.exceptionDetail ?? ''}
      expandable={{
        rowExpandable: (r) => !!r.summary,
        expandedRowRender: (r) => <span data-testid="task-log-summary">{r.summary}</span>,
      }}
    />
  );
}
