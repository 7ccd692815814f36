import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App as AntApp, ConfigProvider } from 'antd';
import type { ReactElement, ReactNode } from 'react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { AuthProvider } from '../app/auth';

/** Render `ui` with the app's providers (antd, query client, auth) inside a memory router at `path`. */
export function renderWithApp(ui: ReactElement, { path = '/', routes }: { path?: string; routes?: { path: string; element: ReactNode }[] } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(routes ?? [{ path: '*', element: ui }], { initialEntries: [path] });
  const result = render(
    <QueryClientProvider client={client}>
      <ConfigProvider>
        <AntApp>
          <AuthProvider onInfoError={() => undefined}>
            <RouterProvider router={router} />
          </AuthProvider>
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>,
  );
  return { ...result, router };
}

/** A JSON Response for a stubbed fetch. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
