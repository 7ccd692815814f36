import { FileTextOutlined, PauseCircleOutlined, PlayCircleOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { createJob, deleteJob, execJob, listJobLogs, listJobs, toggleJob } from '@app/shared/contracts/jobs';
import { useMutation } from '@tanstack/react-query';
import { Button, Card, Space, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../../app/useIsMobile';
import { useAuth } from '../../../app/auth';
import { notify } from '../../../app/feedback';
import { callContract, contractCodes, contractKey } from '../../../app/contractClient';
import { formatDateTime } from '../../../crud/format';
import { DeleteRowButton, EditRowButton } from '../../../crud/RowActions';
import { ListToolbar, usePagedList } from '../../../crud/usePagedList';
import '../../../crud/crud.css';
import JobDialog, { type JobRow } from './JobDialog';
import JobLogDialog from './JobLogDialog';


/**
 * 系统工具 › 定时任务 (spec §2 "a second jobs screen", §4 job variant): system jobs searched by name, 新增, 执行日志;
 * per row 编辑, 执行 (once, also when paused), 暂停/恢复 (one toggle), 删除 (refused by the server while running).
 * The table shows what an operator needs to trust a schedule: next fire, last run and a failure streak.
 */
export default function JobsPage() {
  const { t } = useTranslation('jobs');
  const phone = useIsPhone();
  const { hasPermission } = useAuth();
  const [dialog, setDialog] = useState<{ open: boolean; editing: JobRow | null }>({ open: false, editing: null });
  const [logsOpen, setLogsOpen] = useState(false);

  const list = usePagedList<JobRow, { jobName: string }>({
    key: contractKey(listJobs),
    filters: { jobName: '' },
    load: ({ jobName }, page, size) => callContract(listJobs, { query: { jobName: jobName || undefined, page, size } }),
    showTotal: (total) => t('total', { total }),
  });
  const refresh = list.refresh;

  const toggle = useMutation({
    mutationFn: (row: JobRow) => callContract(toggleJob, { params: { id: row.id } }),
    onSuccess: (r) => {
      notify.success(r.isPause ? t('msg.paused') : t('msg.resumed'));
      return refresh();
    },
  });
  const exec = useMutation({
    mutationFn: (row: JobRow) => callContract(execJob, { params: { id: row.id } }),
    onSuccess: () => {
      notify.success(t('msg.executed'));
      // the run goes on in the background: look again shortly for its state and result
      setTimeout(() => void refresh(), 1500);
      return refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (row: JobRow) => callContract(deleteJob, { params: { id: row.id } }),
    onSuccess: () => {
      notify.success(t('msg.deleted'));
      // deleting the last row of a page goes back one page (spec §4)
      return list.afterDelete();
    },
  });

  const canEdit = hasPermission(contractCodes(toggleJob));
  const canDelete = hasPermission(contractCodes(deleteJob));

  const columns: ColumnsType<JobRow> = [
    { key: 'id', dataIndex: 'id', title: 'ID', width: 60 },
    { key: 'jobName', dataIndex: 'jobName', title: t('field.jobName'), width: 140, ellipsis: true },
    { key: 'cronExpression', dataIndex: 'cronExpression', title: t('field.cronExpression'), width: 140 },
    {
      key: 'isPause',
      dataIndex: 'isPause',
      title: t('field.status'),
      width: 110,
      render: (_, r) => (
        <Space size={4}>
          <Tag color={r.isPause ? 'warning' : 'success'}>{r.isPause ? t('status.paused') : t('status.enabled')}</Tag>
          {r.running ? <Tag color="processing">{t('status.running')}</Tag> : null}
        </Space>
      ),
    },
    { key: 'nextRunTime', dataIndex: 'nextRunTime', title: t('field.nextRunTime'), width: 165, render: (v: string | null) => formatDateTime(v) || '—' },
    {
      key: 'lastRun',
      title: t('field.lastRun'),
      width: 210,
      render: (_, r) =>
        r.lastRunTime ? (
          <Space size={4}>
            <span>{formatDateTime(r.lastRunTime)}</span>
            <Tag color={r.lastSuccess ? 'success' : 'error'}>{r.lastSuccess ? t('log.success') : t('log.failure')}</Tag>
            {r.consecutiveFailures > 1 ? (
              <Tooltip title={t('field.failureStreak', { count: r.consecutiveFailures })}>
                <Tag color="error">×{r.consecutiveFailures}</Tag>
              </Tooltip>
            ) : null}
          </Space>
        ) : (
          '—'
        ),
    },
    // U12: what a clerk reads (state, schedule, next and last run) before the handler's technical names, so that at
    // 1440 px they are not under the fixed 操作 column
    { key: 'beanName', dataIndex: 'beanName', title: t('field.beanName'), width: 170, ellipsis: true },
    { key: 'methodName', dataIndex: 'methodName', title: t('field.methodName'), width: 90 },
    { key: 'params', dataIndex: 'params', title: t('field.params'), width: 120, ellipsis: true },
    { key: 'remark', dataIndex: 'remark', title: t('field.remark'), width: 160, ellipsis: true },
  ];
  if (canEdit || canDelete)
    columns.push({
      key: 'actions',
      title: t('actions'),
      width: 300,
      // U8: on a phone a fixed column would cover the others; there everything scrolls
      fixed: phone ? undefined : 'right',
      render: (_, r) => (
        <Space size={0} wrap={false}>
          {canEdit ? <EditRowButton ns="jobs" onClick={() => setDialog({ open: true, editing: r })} testId="job-edit" /> : null}
          {canEdit ? (
            <Button size="small" type="link" icon={<ThunderboltOutlined />} disabled={r.running} loading={exec.isPending && exec.variables?.id === r.id} onClick={() => exec.mutate(r)} data-testid="job-exec">
              {t('exec')}
            </Button>
          ) : null}
          {canEdit ? (
            <Button size="small" type="link" icon={r.isPause ? <PlayCircleOutlined /> : <PauseCircleOutlined />} onClick={() => toggle.mutate(r)} data-testid="job-toggle">
              {r.isPause ? t('resume') : t('pause')}
            </Button>
          ) : null}
          {canDelete ? <DeleteRowButton ns="jobs" onConfirm={() => remove.mutate(r)} disabled={r.running} testId="job-delete" okKey="dialog.ok" cancelKey="dialog.cancel" /> : null}
        </Space>
      ),
    });

  return (
    <Card variant="borderless" className="crud-page" data-testid="jobs-page">
      <ListToolbar
        ns="jobs"
        search={{ label: t('field.jobName'), placeholder: t('searchName'), onSearch: (jobName) => list.filter({ jobName }), testId: 'jobs-search' }}
        onAdd={hasPermission(contractCodes(createJob)) ? () => setDialog({ open: true, editing: null }) : undefined}
        addTestId="jobs-add"
        extra={
          hasPermission(contractCodes(listJobLogs)) ? (
            <Button icon={<FileTextOutlined />} onClick={() => setLogsOpen(true)} data-testid="jobs-logs">
              {t('log.title')}
            </Button>
          ) : null
        }
        onRefresh={refresh}
      />
      <Table<JobRow> {...list.tableProps} size="middle" columns={columns} scroll={{ x: 1670 }} data-testid="jobs-table" />
      <JobDialog open={dialog.open} editing={dialog.editing} onClose={() => setDialog({ open: false, editing: null })} />
      <JobLogDialog open={logsOpen} onClose={() => setLogsOpen(false)} />
    </Card>
  );
}
