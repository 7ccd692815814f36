import { Spin } from 'antd';
import type { ReactNode } from 'react';
import { Navigate, createBrowserRouter, useLocation, useSearchParams } from 'react-router';
import { SETTLEMENT_PRINT_ROUTE } from '../modules/salary/settlement/printPath';
import { useAuth } from './auth';
import { loadable } from './loadable';
import { setNavigator } from './request';
import { isOrdinaryEmployee, safeRedirect } from './session';

/** Full-page spinner while a chunk or the user loads. */
export function PageLoading() {
  return (
    <div className="page-loading" data-testid="page-loading">
      <Spin size="large" />
    </div>
  );
}

const pageLoading = () => <PageLoading />;
const { Component: LoginPage } = loadable(() => import('../pages/Login'), pageLoading, 'LoginPage');
const appLayout = loadable(() => import('../layout/AppLayout'), pageLoading, 'AppLayout');
const AppLayout = appLayout.Component;
const { Component: NotFound } = loadable<object>(() => import('../pages/ErrorPages').then((m) => ({ default: m.NotFound })), pageLoading, 'NotFound');
const { Component: RouteError } = loadable(() => import('../pages/RouteError'), pageLoading, 'RouteError');
// the printable statement: a document of its own, without the menus (opened in a new tab from the statement's drawer)
const { Component: SettlementPrintPage } = loadable(() => import('../modules/salary/settlement/SettlementPrintPage'), pageLoading, 'SettlementPrintPage');
const { Component: Unauthorized } = loadable<object>(() => import('../pages/ErrorPages').then((m) => ({ default: m.Unauthorized })), pageLoading, 'Unauthorized');

/**
 * While `/auth/info` is on its way: load the layout's code and the code of the screen at `path` (its menu
 * entry comes with the menus requested beside `/auth/info`), so that both render at once when the user is in.
 */
export function preloadAfterLogin(path: string): void {
  void import('../layout/screenPreload').then((m) => m.preloadScreenAt(path)).catch(() => undefined);
  void appLayout.load().catch(() => undefined);
}

/** Pages behind login: no token -> /login?redirect=<where the user wanted to go>; info loading -> spinner. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'anonymous') {
    const target = location.pathname + location.search;
    const query = target === '/' ? '' : `?redirect=${encodeURIComponent(target)}`;
    return <Navigate to={`/login${query}`} replace />;
  }
  if (status !== 'ready') {
    if (status === 'loading') preloadAfterLogin(location.pathname);
    return <PageLoading />;
  }
  return <>{children}</>;
}

/** The login page for visitors only: a logged-in user goes to the root (or their redirect / payslips). */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { status, user } = useAuth();
  const [search] = useSearchParams();
  if (status === 'anonymous') return <>{children}</>;
  if (status === 'ready' && user) return <Navigate to={isOrdinaryEmployee(user) ? '/acPayslip/index' : safeRedirect(search.get('redirect'))} replace />;
  return <Navigate to="/" replace />;
}

/** The app's routes: login, error pages, and everything else inside the layout (menus decide what exists). */
export function createAppRouter() {
  const router = createBrowserRouter([
    {
      errorElement: <RouteError />,
      children: [
        {
          path: '/login',
          element: (
            <GuestOnly>
              <LoginPage />
            </GuestOnly>
          ),
        },
        { path: '/404', element: <NotFound /> },
        { path: '/401', element: <Unauthorized /> },
        {
          path: SETTLEMENT_PRINT_ROUTE,
          element: (
            <RequireAuth>
              <SettlementPrintPage />
            </RequireAuth>
          ),
        },
        {
          path: '*',
          element: (
            <RequireAuth>
              <AppLayout />
            </RequireAuth>
          ),
        },
      ],
    },
  ]);
  setNavigator((path) => void router.navigate(path));
  return router;
}
