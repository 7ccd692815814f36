import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeCall, installFakeFetch, loginAs, page, renderWithApp, setupI18n } from '../../../crud/testUtils';
import type { TaskRow } from '../types';
import TasksPage from './TasksPage';
import { PROGRESS_POLL_MS } from './TaskProgress';

/**
 * 任务管理 by spec §4: the 开始/暂停/恢复 buttons by isPause; the progress bar of the selected task only while its
 * isPause is not 0, asked at once and every 20 s; a failed call resets the bar and stops asking.
 */

const task = (id: number, jobName: string, isPause: TaskRow['isPause']): TaskRow => ({
  id,
  jobName,
  isPause,
  modelInfo: { id: 1, modelName: '单特征分布（单例）' },
  dataId: 1,
  cronTime: '0 0 2 * * ?',
  beanName: 'modelTask',
  params: '{"jobName":"x","properties":"学历"}',
  nextRunAt: null,
  lastRunAt: null,
  lastStatus: null,
  createTime: null,
  updateTime: null,
});

beforeAll(async () => {
  await setupI18n();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
const dispatchCalls = (calls: FakeCall[]) => calls.filter((c) => c.path === '/taskManagement/dispatch');

describe('任务管理', () => {
  // about 11 s alone; more than the default 20 s when the browser tests share the two cores
  it('enables the buttons by isPause and polls the selected task’s progress every 20 s until a call fails', { timeout: 45_000 }, async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let progressFails = false;
    const calls = installFakeFetch((call) => {
      if (call.path === '/taskManagement/jobs') return page([task(1, '启用的任务', 0), task(2, '暂停的任务', 1), task(3, '已结束的任务', 2), task(4, '运行中的任务', 3)]);
      if (call.path === '/taskManagement/dispatch') return progressFails ? { status: 500, body: { status: 500, message: '服务器错误' } } : { body: { msg: '模型计算中', percent: 0.5 } };
      return undefined;
    });
    loginAs(['TASK_ALL']);
    renderWithApp(<TasksPage />);
    await screen.findByText('启用的任务');

    const enabled = (name: string, id: string) => !(within(rowOf(name)).getByTestId(id) as HTMLButtonElement).disabled;
    expect([enabled('启用的任务', 'task-start'), enabled('启用的任务', 'task-pause'), enabled('启用的任务', 'task-resume')]).toEqual([true, true, false]);
    expect([enabled('暂停的任务', 'task-start'), enabled('暂停的任务', 'task-pause'), enabled('暂停的任务', 'task-resume')]).toEqual([true, false, true]);
    expect([enabled('已结束的任务', 'task-start'), enabled('已结束的任务', 'task-pause'), enabled('已结束的任务', 'task-resume')]).toEqual([false, false, false]);
    expect([enabled('运行中的任务', 'task-start'), enabled('运行中的任务', 'task-pause'), enabled('运行中的任务', 'task-resume')]).toEqual([false, false, false]);
    expect(enabled('运行中的任务', 'task-delete')).toBe(false);

    // isPause 0: no bar, nothing asked
    fireEvent.click(screen.getByText('启用的任务'));
    expect(screen.queryByTestId('task-progress')).toBeNull();
    expect(dispatchCalls(calls)).toHaveLength(0);

    // isPause 1: the bar, asked at once with the task, then every 20 s
    fireEvent.click(screen.getByText('暂停的任务'));
    await waitFor(() => expect(screen.getByTestId('task-progress-msg').textContent).toBe('模型计算中'));
    const percent = () => screen.getByTestId('task-progress-bar').getAttribute('aria-valuenow');
    expect(percent()).toBe('50');
    expect(dispatchCalls(calls)).toHaveLength(1);
    expect(dispatchCalls(calls)[0].query).toMatchObject({ id: '2', jobName: '暂停的任务' });
    await act(() => vi.advanceTimersByTimeAsync(PROGRESS_POLL_MS + 100));
    await waitFor(() => expect(dispatchCalls(calls)).toHaveLength(2));

    // a failed call: the bar resets to 0 and asking stops
    progressFails = true;
    await act(() => vi.advanceTimersByTimeAsync(PROGRESS_POLL_MS + 100));
    await waitFor(() => expect(screen.getByTestId('task-progress-msg').textContent).toBe('获取进度失败，已停止刷新'));
    expect(screen.getByTestId('task-progress-bar').getAttribute('class')).toContain('ant-progress-status-exception');
    expect(percent()).toBe('0');
    const afterFailure = dispatchCalls(calls).length;
    await act(() => vi.advanceTimersByTimeAsync(3 * PROGRESS_POLL_MS));
    expect(dispatchCalls(calls)).toHaveLength(afterFailure);

    // 重试 asks again
    progressFails = false;
    fireEvent.click(screen.getByTestId('task-progress-retry'));
    await waitFor(() => expect(screen.getByTestId('task-progress-msg').textContent).toBe('模型计算中'));
    expect(dispatchCalls(calls).length).toBeGreaterThan(afterFailure);
  });
});
