import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetRequestStateForTests } from '../app/request';
import { RequireAuth } from '../app/router';
import { clearSession, setToken, setUser } from '../app/session';
import { SettingsProvider } from '../app/settings';
import { jsonResponse, renderWithApp } from '../test/render';
import AppLayout from './AppLayout';
import { reloadTabsForTests, resetTabs } from './tabs';

const MENUS = [
  {
    name: '人事档案',
    path: '/records',
    component: 'Layout',
    alwaysShow: true,
    meta: { title: '人事档案', icon: 'FolderOpenOutlined' },
    children: [{ name: '入职记录', path: 'accEntry', component: 'crud/accEntry', meta: { title: '入职记录', icon: 'UserAddOutlined' } }],
  },
  { path: '/acPayslip', component: 'Layout', children: [{ name: '工资条', path: 'index', component: 'salary/acPayslip/index', meta: { title: '工资条' } }] },
];

const fetchMock = vi.fn<typeof fetch>();
let menusAnswer: () => Response = () => jsonResponse(MENUS);

beforeEach(() => {
  resetRequestStateForTests();
  resetTabs();
  fetchMock.mockImplementation(async (input) => (String(input).startsWith('/api/menus/build') ? menusAnswer() : jsonResponse({ status: 404, message: '接口不存在' }, 404)));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
  menusAnswer = () => jsonResponse(MENUS);
});

function renderAt(path: string) {
  const frame = (
    <SettingsProvider>
      <RequireAuth>
        <AppLayout />
      </RequireAuth>
    </SettingsProvider>
  );
  return renderWithApp(frame, {
    path,
    routes: [
      { path: '/login', element: <div>login page</div> },
      { path: '/404', element: <div>not found page</div> },
      { path: '*', element: frame },
    ],
  });
}

describe('AppLayout routing', () => {
  it('asks a user with an issued password for a new one before anything else, with no way around it (U23)', async () => {
    setToken('t');
    setUser({ id: 7, username: 'newcomer', job: '普通员工', roles: ['ROLE_SYSTEM_DEFAULT'], mustChangePassword: true });
    renderAt('/acPayslip/index');
    expect(await screen.findByTestId('initial-password-hint', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getByText('请修改初始密码')).toBeTruthy();
    expect(screen.getByTestId('password-form')).toBeTruthy();
    // no cancel, no close icon, no screen behind it
    expect(screen.queryByText('取 消')).toBeNull();
    expect(document.querySelector('.ant-modal-close svg, button[aria-label="Close"]')).toBeNull();
    expect(document.querySelector('.app-sider')).toBeNull();
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/acPayslip'))).toBe(false);
  });

  it('sends visitors without a token to /login with the redirect', async () => {
    const { router } = renderAt('/records/accEntry?x=1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?redirect=%2Frecords%2FaccEntry%3Fx%3D1');
  });

  it('opens / as the dashboard with its pinned tab and the menus in the sidebar', async () => {
    setToken('t');
    setUser({ id: 1, username: 'admin', job: '人事专员', roles: ['ADMIN'] });
    const { router } = renderAt('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    // the dashboard screen is loaded lazily (its first import in jsdom is slow)
    expect(await screen.findByTestId('dashboard-page', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getAllByText('人事档案').length).toBeGreaterThan(0);
    expect(document.title).toContain('首页');
    // the pinned home has its own title, not the one of 派遣业务 › 合同到期提醒 (findings W4)
    const titles = [...document.querySelectorAll('.app-sidebar-menu .ant-menu-title-content')].map((e) => e.textContent);
    expect(titles).toContain('首页');
    expect(titles.filter((x) => x === '合同到期提醒').length).toBeLessThanOrEqual(1);
  });

  it('gives ordinary employees the payslips as home and never the dashboard', async () => {
    setToken('t');
    setUser({ id: 9, username: '110101199003070011', job: '普通员工', roles: ['ACPAYSLIP_SELECT'] });
    const { router } = renderAt('/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/acPayslip/index'));
    expect(screen.queryByTestId('dashboard-page')).toBeNull();
    await waitFor(() => expect(document.querySelector('[data-screen="/acPayslip/index"]')).not.toBeNull());
  });

  it('sends unknown paths to /404 once the menus are known', async () => {
    setToken('t');
    setUser({ id: 1, username: 'admin', job: '人事专员', roles: ['ADMIN'] });
    const { router } = renderAt('/no/such/page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
  });

  it.each(['/system/user', '/accounts/company', '/salary/accountsSalary'])('sends an ordinary employee typing %s to the payslips, not /404', async (path) => {
    setToken('t');
    setUser({ id: 9, username: '110101199003070011', job: '普通员工', roles: ['ACPAYSLIP_SELECT'] });
    const { router } = renderAt(path);
    await waitFor(() => expect(router.state.location.pathname).toBe('/acPayslip/index'));
    expect(screen.queryByText('not found page')).toBeNull();
  });

  it("pins an ordinary employee's only tab (no close button)", async () => {
    setToken('t');
    setUser({ id: 9, username: '110101199003070011', job: '普通员工', roles: ['ACPAYSLIP_SELECT'] });
    renderAt('/acPayslip/index');
    const tags = await screen.findByTestId('tags-view');
    await waitFor(() => expect(tags.querySelector('[data-tab="/acPayslip/index"]')).not.toBeNull());
    expect(tags.querySelector('.ant-tabs-tab-remove')).toBeNull();
  });

  it('keeps the visited tags over a reload, for the same user only', async () => {
    setToken('t');
    setUser({ id: 1, username: 'admin', job: '人事专员', roles: ['ADMIN'] });
    const first = renderAt('/records/accEntry?x=1');
    await waitFor(() => expect(document.querySelector('[data-tab="/records/accEntry"]')).not.toBeNull());
    first.unmount();
    // a reload: the module state is gone, sessionStorage is not
    reloadTabsForTests();
    const second = renderAt('/dashboard');
    await waitFor(() => expect(document.querySelector('[data-tab="/records/accEntry"]')).not.toBeNull());
    expect(second.router.state.location.pathname).toBe('/dashboard');
    expect(document.querySelector('[data-tab="/dashboard"]')).not.toBeNull();
    second.unmount();
    // another user in the same browser tab does not get them
    reloadTabsForTests();
    setUser({ id: 2, username: 'other', job: '人事专员', roles: ['ADMIN'] });
    renderAt('/dashboard');
    await waitFor(() => expect(document.querySelector('[data-tab="/dashboard"]')).not.toBeNull());
    expect(document.querySelector('[data-tab="/records/accEntry"]')).toBeNull();
  });

  it('survives a missing menu endpoint: empty menu, a notice, the dashboard still works', async () => {
    menusAnswer = () => jsonResponse({ status: 404, message: '接口不存在' }, 404);
    setToken('t');
    setUser({ id: 1, username: 'admin', job: '人事专员', roles: ['ADMIN'] });
    const { router } = renderAt('/dashboard');
    expect(await screen.findByText('菜单暂时无法加载，目前只能使用首页。')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(await screen.findByTestId('dashboard-page', {}, { timeout: 15_000 })).toBeTruthy();
  });
});
