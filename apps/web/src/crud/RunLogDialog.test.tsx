import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import JobLogDialog, { JOB_LOG_PAGE_SIZE } from '../modules/tools/jobs/JobLogDialog';
import TaskLogDialog, { TASK_LOG_PAGE_SIZE } from '../modules/operations/tasks/TaskLogDialog';
import { installFakeFetch, loginAs, page, renderWithApp, setupI18n } from './testUtils';

/** The one run-log dialog behind both 执行日志 screens: their columns, page sizes and exception sources. */

beforeAll(async () => {
  await setupI18n();
});
afterEach(() => cleanup());

const base = { trigger: 'cron', time: 1500, isSuccess: false, createTime: '2026-11-24T02:00:00.000Z', summary: null };

describe('run log dialog', () => {
  it('system jobs: 6 a page, handler column, the exception fetched by id when its dialog opens', async () => {
    const calls = installFakeFetch((call) => {
      if (call.path === '/api/jobLogs') return page([{ ...base, id: 41, jobName: '日志清理', beanName: 'logCleanup', methodName: 'run', params: '{}', cronExpression: null, hasException: true, instance: null }], 13);
      if (call.path === '/api/jobLogs/41') return { body: { exceptionDetail: 'Error: 磁盘已满' } };
      return undefined;
    });
    loginAs(['JOB_ALL']);
    renderWithApp(<JobLogDialog open onClose={() => undefined} />);
    const table = await screen.findByTestId('job-log-table');
    await waitFor(() => expect(within(table).getByText('logCleanup.run')).toBeTruthy());
    expect(within(table).getByText('失败')).toBeTruthy();
    const list = calls.find((c) => c.path === '/api/jobLogs');
    expect(list?.query.size).toBe(String(JOB_LOG_PAGE_SIZE));
    expect(calls.some((c) => c.path === '/api/jobLogs/41')).toBe(false);

    fireEvent.click(within(table).getByTestId('job-log-detail'));
    await waitFor(() => expect(screen.getByTestId('job-log-exception').textContent).toBe('Error: 磁盘已满'));
    expect(calls.some((c) => c.path === '/api/jobLogs/41')).toBe(true);
  });

  it('model tasks: 5 a page, rows read/written, the exception from the row itself, search by name resets to page 0', async () => {
    const calls = installFakeFetch((call) => {
      if (call.path === '/taskManagement/jobLogs') return page([{ ...base, id: 7, jobName: '学历分布', params: '{"topN":5}', cronExpression: '0 0 2 * * ?', exceptionDetail: 'Error: 数据源不可用', rowsIn: 120, rowsOut: 8 }], 1);
      return undefined;
    });
    loginAs(['TASK_ALL']);
    renderWithApp(<TaskLogDialog open onClose={() => undefined} />);
    const table = await screen.findByTestId('task-log-table');
    await waitFor(() => expect(within(table).getByText('学历分布')).toBeTruthy());
    expect(within(table).getByText('120 / 8 行')).toBeTruthy();
    expect(calls.find((c) => c.path === '/taskManagement/jobLogs')?.query.size).toBe(String(TASK_LOG_PAGE_SIZE));

    fireEvent.click(within(table).getByTestId('task-log-detail'));
    await waitFor(() => expect(screen.getByTestId('task-log-exception').textContent).toBe('Error: 数据源不可用'));

    fireEvent.change(screen.getByTestId('task-log-name'), { target: { value: ' 学历 ' } });
    fireEvent.keyDown(screen.getByTestId('task-log-name'), { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(calls.some((c) => c.path === '/taskManagement/jobLogs' && c.query.jobName === '学历')).toBe(true));
    expect(calls.filter((c) => c.query.jobName === '学历').every((c) => c.query.page === '0')).toBe(true);
  });
});
