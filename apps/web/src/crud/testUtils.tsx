import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import type { ReactElement, ReactNode } from 'react';
import { expect, vi } from 'vitest';
import { AuthProvider } from '../app/auth';
import { FeedbackBridge } from '../app/feedback';
import { initI18n } from '../app/i18n';
import { clearSession, setToken, setUser } from '../app/session';

/**
 * Test helpers for the generic pages and system screens (the jsdom gaps antd needs are filled in
 * src/test/setup.ts): a small fake fetch (only the network is stubbed), and a render wrapper with a logged-in user holding the given permission codes.
 */

export interface FakeCall {
  method: string;
  url: URL;
  path: string;
  query: Record<string, string | string[]>;
  body: unknown;
}

export type FakeReply = { status?: number; body?: unknown; headers?: Record<string, string> } | undefined;
export type FakeHandler = (call: FakeCall) => FakeReply | Promise<FakeReply>;

function queryOf(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    out[key] = all.length > 1 ? all : all[0];
  }
  return out;
}

/** Replace fetch with `handler`; unknown calls answer 404. Returns the recorded calls. */
export function installFakeFetch(handler: FakeHandler): FakeCall[] {
  const calls: FakeCall[] = [];
  const fake = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    let body: unknown = init?.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        /* keep text */
      }
    }
    const call: FakeCall = { method: (init?.method ?? 'GET').toUpperCase(), url, path: url.pathname, query: queryOf(url), body };
    calls.push(call);
    const reply = (await handler(call)) ?? { status: 404, body: { status: 404, message: `no fake for ${call.method} ${call.path}` } };
    const status = reply.status ?? 200;
    const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
    return new Response(status === 204 ? null : text, { status, headers: { 'content-type': 'application/json', ...reply.headers } });
  });
  vi.stubGlobal('fetch', fake);
  return calls;
}

/** A user holding `permissions`, logged in for the test. */
export function loginAs(permissions: string[], extra: Record<string, unknown> = {}): void {
  clearSession();
  setToken('test-token');
  setUser({ id: 1, username: 'tester', cname: '测试', roles: permissions, level: 1, ...extra });
}

export async function setupI18n(): Promise<void> {
  await initI18n('zh');
}

function Providers({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={client}>
      <ConfigProvider locale={zhCN}>
        <AntApp>
          <FeedbackBridge />
          <AuthProvider>{children}</AuthProvider>
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}

/** Render inside the app's providers (fresh query cache per call). */
export function renderWithApp(ui: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 }, mutations: { retry: false } } });
  return { ...render(<Providers client={client}>{ui}</Providers>), client };
}

/** A paged answer. */
export function page<T>(content: T[], totalElements = content.length) {
  return { body: { content, totalElements } };
}

/**
 * The batch delete of a rendered list: tick the rows at `rowIndexes` (the button is disabled until then),
 * press 删除 and confirm its popover. The caller checks the request and the notice.
 */
export async function batchDeleteRows(rowIndexes: number[]): Promise<void> {
  const batch = screen.getByTestId('crud-batch-delete') as HTMLButtonElement;
  expect(batch.disabled).toBe(true);
  const boxes = screen.getAllByRole('checkbox').filter((c) => c.closest('tr.ant-table-row'));
  for (const i of rowIndexes) fireEvent.click(boxes[i]);
  await waitFor(() => expect(batch.disabled).toBe(false));
  fireEvent.click(batch);
  expect(await screen.findByText('你确定删除选中的数据吗？')).toBeTruthy();
  const pop = document.querySelector('.ant-popconfirm') as HTMLElement;
  fireEvent.click(within(pop).getByRole('button', { name: /确\s*定/ }));
}
