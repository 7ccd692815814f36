import { ReloadOutlined } from '@ant-design/icons';
import { taskDispatch } from '@app/shared/contracts/operations/tasks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Progress, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callContract } from '../../../app/contractClient';
import { TASK_STATE, type TaskRow } from '../types';

/** Spec §4: the progress of the selected task is asked for every 20 s. */
export const PROGRESS_POLL_MS = 20_000;

/**
 * The progress bar of the selected task (spec §4): shown only while its isPause is not 0, asked for at once, on
 * every change of its state and every 20 s; a failed call resets the bar and stops asking until the user retries
 * or the task's state changes.
 */
export default function TaskProgress({ task }: { task: TaskRow | null }) {
  const { t } = useTranslation('models');
  const visible = task !== null && task.isPause !== TASK_STATE.enabled;
  // asking stops for one task in one state: a new selection or a state change starts asking again
  // (a new run is a change too: its start time and result are part of the key)
  const current = task ? `${task.id}:${task.isPause}:${task.lastRunAt ?? ''}:${task.lastStatus ?? ''}` : '';
  const [stoppedFor, setStoppedFor] = useState<string | null>(null);
  const stopped = stoppedFor === current;
  const setStopped = (stop: boolean) => setStoppedFor(stop ? current : null);
  const queryClient = useQueryClient();
  const queryKey = ['modelTasks', 'progress', current];
  const q = useQuery({
    queryKey,
    queryFn: () => callContract(taskDispatch, { query: { id: task?.id, jobName: task?.jobName } }, { silent: true }),
    enabled: visible && !stopped,
    refetchInterval: visible && !stopped ? PROGRESS_POLL_MS : false,
    retry: false,
    gcTime: 0,
  });
  const failedNow = q.isError && q.fetchStatus === 'idle';
  useEffect(() => {
    if (failedNow) setStoppedFor(current);
  }, [failedNow, current]);
  if (!visible) return null;
  const failed = stopped || q.isError;
  const percent = failed ? 0 : Math.round(Math.min(1, Math.max(0, q.data?.percent ?? 0)) * 100);
  const running = task.isPause === TASK_STATE.running;
  return (
    <div className="task-progress" data-testid="task-progress">
      <Space style={{ width: '100%' }} align="center">
        <Typography.Text strong>{task.jobName}</Typography.Text>
        <Typography.Text type="secondary" data-testid="task-progress-msg">
          {failed ? t('task.progressFailed') : (q.data?.msg ?? t('task.progressLoading'))}
        </Typography.Text>
        {failed ? (
          <Button size="small" icon={<ReloadOutlined />} onClick={() => {
              // forget the failure first, so the restarted polling is not stopped by the old error
              void queryClient.resetQueries({ queryKey });
              setStopped(false);
            }} data-testid="task-progress-retry">
            {t('task.progressRetry')}
          </Button>
        ) : null}
      </Space>
      <Progress percent={percent} status={failed ? 'exception' : running ? 'active' : percent >= 100 ? 'success' : 'normal'} data-testid="task-progress-bar" />
    </div>
  );
}
