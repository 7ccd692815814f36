import { Spin } from 'antd';
import { type ReactNode, Suspense, lazy } from 'react';
import { Navigate, createBrowserRouter, useLocation, useSearchParams } from 'react-router';
import { useAuth } from './auth';
import { setNavigator } from './request';
import { isOrdinaryEmployee, safeRedirect } from './session';

const LoginPage = lazy(() => import('../pages/Login'));
const loadAppLayout = () => import('../layout/AppLayout');
const AppLayout = lazy(loadAppLayout);
const NotFound = lazy(() => import('../pages/ErrorPages').then((m) => ({ default: m.NotFound })));
const RouteError = lazy(() => import('../pages/RouteError'));
const Unauthorized = lazy(() => import('../pages/ErrorPages').then((m) => ({ default: m.Unauthorized })));

/** Full-page spinner while a chunk or the user loads. */
export function PageLoading() {
  return (
    <div className="page-loading" data-testid="page-loading">
      <Spin size="large" />
    </div>
  );
}

function lazyPage(node: ReactNode) {
  return <Suspense fallback={<PageLoading />}>{node}</Suspense>;
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
    // fetch the layout's code while /auth/info is on its way rather than after it (import() is cached)
    if (status === 'loading') void loadAppLayout();
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
      errorElement: lazyPage(<RouteError />),
      children: [
        { path: '/login', element: <GuestOnly>{lazyPage(<LoginPage />)}</GuestOnly> },
        { path: '/404', element: lazyPage(<NotFound />) },
        { path: '/401', element: lazyPage(<Unauthorized />) },
        { path: '*', element: <RequireAuth>{lazyPage(<AppLayout />)}</RequireAuth> },
      ],
    },
  ]);
  setNavigator((path) => void router.navigate(path));
  return router;
}
