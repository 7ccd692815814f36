import { DeleteOutlined, EditOutlined, FileTextOutlined, PauseCircleOutlined, PlayCircleOutlined, RedoOutlined } from '@ant-design/icons';
import { createTask, deleteTask, execTask, listTasks, toggleTask } from '@app/shared/contracts/operations/tasks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Popconfirm, Space, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../../app/useIsMobile';
import { useAuth } from '../../../app/auth';
import { notify } from '../../../app/feedback';
import { callContract, contractCodes } from '../../../app/contractClient';
import { formatDateTime } from '../../../crud/format';
import { ListToolbar } from '../../../crud/usePagedList';
import '../../../crud/crud.css';
import '../operations.css';
import { TASK_STATE, type TaskRow, type TaskState } from '../types';
import TaskDialog from './TaskDialog';
import TaskLogDialog from './TaskLogDialog';
import TaskProgress, { PROGRESS_POLL_MS } from './TaskProgress';

/** Spec §9: the task list shows 10 rows a page. */
export const TASK_PAGE_SIZE = 10;

/** Spec §4 button rules by isPause (0 enabled, 1 paused, 2 finished, 3 running). */
export const taskButtons = (s: TaskState) => ({
  start: s !== TASK_STATE.finished && s !== TASK_STATE.running,
  pause: s === TASK_STATE.enabled,
  resume: s === TASK_STATE.paused,
});

const STATE_COLOR: Record<TaskState, string> = { 0: 'success', 1: 'warning', 2: 'default', 3: 'processing' };

/**
 * 数据管理 › 任务管理 (spec §2, §4): model tasks 10 a page; 开始 (run once now), 暂停 and 恢复 (one toggle) enabled by
 * isPause; clicking a row selects it and shows its progress while its isPause is not 0; add/edit dialog and the
 * execution log.
 */
export default function TasksPage() {
  const { t } = useTranslation('models');
  const phone = useIsPhone();
  const { hasPermission } = useAuth();
  const queryClient = useQueryClient();
  const [jobName, setJobName] = useState('');
  const [page, setPage] = useState(0);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [dialog, setDialog] = useState<{ open: boolean; editing: TaskRow | null }>({ open: false, editing: null });
  const [logsOpen, setLogsOpen] = useState(false);

  const list = useQuery({
    queryKey: ['modelTasks', 'list', jobName, page],
    queryFn: () => callContract(listTasks, { query: { jobName: jobName || undefined, page, size: TASK_PAGE_SIZE } }),
    placeholderData: (previous) => previous,
    // a running task changes state on its own: look again while one is shown as running
    refetchInterval: (q) => (q.state.data?.content.some((r) => r.isPause === TASK_STATE.running) ? PROGRESS_POLL_MS : false),
  });
  const rows = list.data?.content ?? [];
  const selected = rows.find((r) => r.id === selectedId) ?? null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['modelTasks'] });

  const exec = useMutation({
    mutationFn: (row: TaskRow) => callContract(execTask, { params: { id: row.id } }),
    onSuccess: (_r, row) => {
      notify.success(t('msg.started'), undefined, 2);
      setSelectedId(row.id);
      // the run goes on in the background: look again shortly for its state
      setTimeout(() => void refresh(), 1500);
      return refresh();
    },
  });
  const toggle = useMutation({
    mutationFn: (row: TaskRow) => callContract(toggleTask, { params: { id: row.id } }),
    onSuccess: (r) => {
      notify.success(r.isPause === TASK_STATE.paused ? t('msg.paused') : t('msg.resumed'), undefined, 2);
      return refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (row: TaskRow) => callContract(deleteTask, { params: { id: row.id } }),
    onSuccess: (_r, row) => {
      notify.success(t('msg.deleted'), undefined, 2);
      if (row.id === selectedId) setSelectedId(null);
      if (rows.length === 1 && page > 0) setPage(page - 1);
      return refresh();
    },
  });

  const canExec = hasPermission(contractCodes(execTask));
  const canEdit = hasPermission(contractCodes(toggleTask));
  const canDelete = hasPermission(contractCodes(deleteTask));
  const applySearch = (text: string) => {
    setJobName(text);
    setPage(0);
  };

  const columns: ColumnsType<TaskRow> = [
    // U12: every column in view beside the fixed 操作 column at 1440 px (no internal ID; a task is known by its name)
    { key: 'jobName', dataIndex: 'jobName', title: t('task.jobName'), width: 130, ellipsis: true },
    { key: 'model', title: t('task.model'), width: 140, ellipsis: true, render: (_, r) => r.modelInfo.modelName ?? '—' },
    { key: 'cronTime', dataIndex: 'cronTime', title: t('task.cronTime'), width: 110 },
    {
      key: 'isPause',
      dataIndex: 'isPause',
      title: t('task.state'),
      width: 80,
      render: (s: TaskState) => (
        <Tag color={STATE_COLOR[s]} data-testid="task-state">
          {t(`state.${s}`)}
        </Tag>
      ),
    },
    { key: 'nextRunAt', dataIndex: 'nextRunAt', title: t('task.nextRunAt'), width: 150, render: (v: string | null) => formatDateTime(v) || '—' },
    {
      key: 'lastRunAt',
      title: t('task.lastRunAt'),
      width: 170,
      render: (_, r) =>
        r.lastRunAt ? (
          <Space size={4} wrap>
            <span>{formatDateTime(r.lastRunAt)}</span>
            {r.lastStatus ? <Tag color={r.lastStatus === 'success' ? 'success' : 'error'}>{r.lastStatus === 'success' ? t('log.success') : t('log.failure')}</Tag> : null}
          </Space>
        ) : (
          '—'
        ),
    },
  ];
  if (canExec || canEdit || canDelete)
    columns.push({
      key: 'actions',
      title: t('actions'),
      // five small link buttons (开始 暂停 恢复 编辑 删除) and the cell's padding: 删除 is not cut (U12)
      width: 340,
      // U8: on a phone a fixed column would cover the others; there everything scrolls
      fixed: phone ? undefined : 'right',
      render: (_, r) => {
        const b = taskButtons(r.isPause);
        const stop = (e: React.MouseEvent) => e.stopPropagation();
        return (
          <Space size={0} wrap={false} onClick={stop}>
            {canExec ? (
              <Button size="small" type="link" icon={<PlayCircleOutlined />} disabled={!b.start} loading={exec.isPending && exec.variables?.id === r.id} onClick={() => exec.mutate(r)} data-testid="task-start">
                {t('task.start')}
              </Button>
            ) : null}
            {canEdit ? (
              <Button size="small" type="link" icon={<PauseCircleOutlined />} disabled={!b.pause} onClick={() => toggle.mutate(r)} data-testid="task-pause">
                {t('task.pause')}
              </Button>
            ) : null}
            {canEdit ? (
              <Button size="small" type="link" icon={<RedoOutlined />} disabled={!b.resume} onClick={() => toggle.mutate(r)} data-testid="task-resume">
                {t('task.resume')}
              </Button>
            ) : null}
            {canEdit ? (
              <Tooltip title={r.isPause === TASK_STATE.running ? t('task.runningHint') : undefined}>
                <Button size="small" type="link" icon={<EditOutlined />} disabled={r.isPause === TASK_STATE.running} onClick={() => setDialog({ open: true, editing: r })} data-testid="task-edit">
                  {t('edit')}
                </Button>
              </Tooltip>
            ) : null}
            {canDelete ? (
              <Popconfirm title={t('confirmDelete')} onConfirm={() => remove.mutate(r)} okText={t('ok')} cancelText={t('cancel')}>
                <Button size="small" type="link" danger icon={<DeleteOutlined />} disabled={r.isPause === TASK_STATE.running} data-testid="task-delete">
                  {t('delete')}
                </Button>
              </Popconfirm>
            ) : null}
          </Space>
        );
      },
    });

  return (
    <Card variant="borderless" className="crud-page" data-testid="tasks-page">
      {/* U19: the labelled filter row and toolbar of every list (ListToolbar), not a bare search box */}
      <ListToolbar
        ns="models"
        search={{ label: t('task.jobName'), placeholder: t('task.searchName'), onSearch: (text) => applySearch(text), testId: 'tasks-search' }}
        onAdd={hasPermission(contractCodes(createTask)) ? () => setDialog({ open: true, editing: null }) : undefined}
        addTestId="tasks-add"
        extra={
          <Button icon={<FileTextOutlined />} onClick={() => setLogsOpen(true)} data-testid="tasks-logs">
            {t('log.title')}
          </Button>
        }
        onRefresh={refresh}
      />
      <TaskProgress task={selected} />
      <Table<TaskRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={list.isFetching && !list.data}
        scroll={{ x: 1160 }}
        data-testid="tasks-table"
        rowSelection={{ type: 'radio', selectedRowKeys: selectedId === null ? [] : [selectedId], onChange: (keys) => setSelectedId((keys[0] as number) ?? null), columnWidth: 40 }}
        onRow={(r) => ({ onClick: () => setSelectedId(r.id), className: r.id === selectedId ? 'task-row-selected' : undefined })}
        pagination={{
          current: page + 1,
          pageSize: TASK_PAGE_SIZE,
          total: list.data?.totalElements ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('total', { total }),
          onChange: (p) => setPage(p - 1),
        }}
      />
      <TaskDialog open={dialog.open} editing={dialog.editing} onClose={() => setDialog({ open: false, editing: null })} />
      <TaskLogDialog open={logsOpen} onClose={() => setLogsOpen(false)} />
    </Card>
  );
}
