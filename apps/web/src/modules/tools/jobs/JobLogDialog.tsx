import { type JobLogRow, jobLogException, listJobLogs } from '@app/shared/contracts/jobs';
import { useTranslation } from 'react-i18next';
import { callContract, contractKey } from '../../../app/contractClient';
import { RunLogDialog } from '../../../crud/RunLogDialog';

/** Spec §9: the execution-log dialog shows 6 rows a page. */
export const JOB_LOG_PAGE_SIZE = 6;

/**
 * 执行日志 (spec §2 "a second jobs screen"): the shared run log with the system job's handler and summary; the
 * list leaves the exception text out, so its dialog fetches it (`GET /api/jobLogs/{id}`).
 */
export default function JobLogDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('jobs');
  return (
    <RunLogDialog<JobLogRow>
      open={open}
      onClose={onClose}
      ns="jobs"
      url={listJobLogs.path}
      queryKey={contractKey(listJobLogs)}
      pageSize={JOB_LOG_PAGE_SIZE}
      width={1200}
      scrollX={1100}
      testId="job-log"
      nameTestId="job-log-search-name"
      jobNameLabel={t('field.jobName')}
      columns={(c) => [
        { key: 'jobName', dataIndex: 'jobName', title: t('field.jobName'), width: 130, ellipsis: true },
        { key: 'handler', title: t('field.handler'), width: 190, ellipsis: true, render: (_, r) => `${r.beanName}.${r.methodName}` },
        { key: 'params', dataIndex: 'params', title: t('field.params'), width: 110, ellipsis: true, render: (v: string) => (v && v !== '{}' ? v : '') },
        c.trigger,
        c.time,
        c.status,
        { key: 'summary', dataIndex: 'summary', title: t('log.summary'), ellipsis: true },
        c.createTime,
      ]}
      hasException={(r) => r.hasException}
      loadException={async (r) => (await callContract(jobLogException, { params: { id: r.id } })).exceptionDetail}
    />
  );
}
