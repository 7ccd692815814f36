import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { installFakeFetch, loginAs, renderWithApp, setupI18n } from '../crud/testUtils';
import { NoticeBell } from './NoticeBell';

beforeAll(async () => {
  await setupI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the header's bell (issue 25 item 2)", () => {
  it('shows the unread count, lists the notices, and opening one marks it read and goes to its screen', { timeout: 60_000 }, async () => {
    loginAs(['JOB_SELECT']);
    let read = false;
    const calls = installFakeFetch((call) => {
      if (call.method === 'GET' && call.path === '/api/notices')
        return {
          body: {
            content: [
              { id: 7, kind: 'job_paused', title: '定时任务「数据库备份」连续失败，已自动暂停', content: '服务器上找不到 pg_dump', link: '/tools/timing', read, createTime: '2026-11-27T01:00:00Z' },
              { id: 6, kind: 'job_failed', title: '定时任务「数据库备份」运行失败', content: '服务器上找不到 pg_dump', link: '/tools/timing', read: true, createTime: '2026-11-27T00:59:00Z' },
            ],
            totalElements: 2,
            unread: read ? 0 : 1,
          },
        };
      if (call.method === 'PUT' && call.path === '/api/notices/read') {
        read = true;
        return { body: { updated: 1 } };
      }
      return undefined;
    });
    renderWithApp(
      <MemoryRouter initialEntries={['/']}>
        <Routes>
          <Route path="/" element={<NoticeBell />} />
          <Route path="/tools/timing" element={<div>定时任务页面</div>} />
        </Routes>
      </MemoryRouter>,
    );
    await waitFor(() => expect(screen.getByTestId('notice-bell').textContent).toContain('1'));
    fireEvent.click(screen.getByTestId('notice-bell'));
    await waitFor(() => expect(screen.getAllByTestId('notice-item')).toHaveLength(2));
    expect(screen.getByText('通知')).toBeTruthy();
    // never wider than a phone's screen (the popover is shifted into view; measured in notices-jobs.e2e.ts at 390 px)
    expect((screen.getByTestId('notice-panel').parentElement as HTMLElement).style.maxWidth).toBe('calc(100vw - 48px)');
    fireEvent.click(screen.getByText('定时任务「数据库备份」连续失败，已自动暂停'));
    await waitFor(() => expect(screen.getByText('定时任务页面')).toBeTruthy());
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({ ids: [7] });
  });
});
