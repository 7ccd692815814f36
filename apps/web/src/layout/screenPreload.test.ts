import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../app/queryClient';
import { resetRequestStateForTests } from '../app/request';
import { clearSession, setToken } from '../app/session';
import { jsonResponse } from '../test/render';
import { preloadScreenAt, resetScreenPreloadForTests } from './screenPreload';

// which screen's code a page load fetches (the real loading would pull whole screens into jsdom)
const preloaded = vi.hoisted(() => [] as string[]);
vi.mock('../app/screens', async (original) => ({
  ...(await original<typeof import('../app/screens')>()),
  preloadScreen: (key: string) => {
    preloaded.push(key);
    return Promise.resolve();
  },
}));

const MENUS = [
  {
    name: '系统管理',
    path: '/system',
    component: 'Layout',
    alwaysShow: true,
    meta: { title: '系统管理' },
    children: [{ name: '用户管理', path: 'user', component: 'system/user/index', meta: { title: '用户管理' } }],
  },
  { path: '/acPayslip', component: 'Layout', children: [{ name: '工资条', path: 'index', component: 'salary/acPayslip/index', meta: { title: '工资条' } }] },
];
const ADMIN = { id: 1, username: 'admin', roles: ['ADMIN'], job: '人事专员' };
const EMPLOYEE = { id: 7, username: 'zhang', roles: ['PAYSLIP_SELF'], job: '普通员工' };

const fetchMock = vi.fn<typeof fetch>();
let info: () => Response = () => jsonResponse(ADMIN);

/** The paths the page asked for, in order. */
const asked = () => fetchMock.mock.calls.map(([input]) => String(input).split('?')[0]);

beforeEach(() => {
  resetRequestStateForTests();
  queryClient.clear();
  resetScreenPreloadForTests();
  fetchMock.mockReset();
  preloaded.length = 0;
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url.startsWith('/auth/info')) return info();
    if (url.startsWith('/api/menus/build')) return jsonResponse(MENUS);
    if (url.startsWith('/api/users')) return jsonResponse({ content: [], totalElements: 0 });
    if (url.startsWith('/api/dept')) return jsonResponse({ content: [], totalElements: 0 });
    if (url.startsWith('/api/dictDetail/map')) return jsonResponse({ user_status: [] });
    return jsonResponse({ status: 404, message: '接口不存在' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  setToken('token-1');
});

afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
  info = () => jsonResponse(ADMIN);
});

describe('screen preload on a page load', () => {
  it("asks for the users screen's first data once the user is known", async () => {
    await preloadScreenAt('/system/user/');
    await vi.waitFor(() => expect(asked()).toEqual(expect.arrayContaining(['/api/users', '/api/dictDetail/map', '/api/dept'])));
    const calls = asked();
    expect(calls.indexOf('/auth/info')).toBeLessThan(calls.indexOf('/api/users'));
    expect(calls.filter((c) => c === '/api/users')).toHaveLength(1);
    await vi.waitFor(() => expect(queryClient.getQueryData(['crud', '/api/users', { page: 0, size: 10, sort: ['id,desc'] }])).toEqual({ content: [], totalElements: 0 }));
    expect(preloaded).toEqual(['system/user/index']);
  });

  it('asks for no screen data when the token is dead', async () => {
    info = () => jsonResponse({ status: 401, message: '登录状态已过期' }, 401);
    await preloadScreenAt('/system/user');
    expect(asked()).not.toContain('/api/users');
    expect(asked()).not.toContain('/api/dept');
  });

  it("at / fetches the code of the user's home: the dashboard, or the payslips for an ordinary employee", async () => {
    await preloadScreenAt('/');
    expect(preloaded).toEqual(['dashboard']);
    clearSession();
    setToken('token-2');
    resetScreenPreloadForTests();
    info = () => jsonResponse(EMPLOYEE);
    await preloadScreenAt('/');
    expect(preloaded).toEqual(['dashboard', 'salary/acPayslip/index']);
    expect(asked().filter((c) => c.startsWith('/api/') && c !== '/api/menus/build')).toEqual([]);
  });
});
