import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Modal, notification } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../test/render';
import { feedback } from './feedback';
import { changeLanguage } from './i18n';
import { RequestError, api, buildQuery, downloadBlob, request, resetRequestStateForTests, setNavigator } from './request';
import { clearSession, setToken, setUser } from './session';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  resetRequestStateForTests();
  clearSession();
});

afterEach(() => {
  vi.restoreAllMocks();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  Modal.destroyAll();
  notification.destroy();
  clearSession();
});

describe('request', () => {
  it('sends the bearer token, JSON bodies and repeated array params', async () => {
    setToken('tok-1');
    fetchMock.mockResolvedValue(jsonResponse({ ok: true }));
    await expect(api.post('/api/things', { a: 1 }, { params: { sort: ['a,asc', 'b,desc'], empty: '', page: 0 } })).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/things?sort=a%2Casc&sort=b%2Cdesc&page=0');
    const headers = (init?.headers ?? {}) as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer tok-1');
    expect(headers['Accept-Language']).toBe('zh');
    expect(init?.body).toBe('{"a":1}');
    expect(buildQuery({ sort: ['id,desc'] })).toBe('?sort=id%2Cdesc');
  });

  it('asks for error messages in the UI language', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ ok: true }));
    await changeLanguage('ja');
    try {
      await api.get('/api/things');
      expect(((fetchMock.mock.calls[0][1]?.headers ?? {}) as Record<string, string>)['Accept-Language']).toBe('ja');
    } finally {
      await changeLanguage('zh');
    }
  });

  it('shows the session-expired dialog only once for concurrent 401s and rejects every call', async () => {
    const confirm = vi.spyOn(feedback.modal, 'confirm');
    fetchMock.mockImplementation(async () => jsonResponse({ status: 401, message: 'token expired' }, 401));
    const results = await Promise.allSettled([request({ url: '/api/a' }), request({ url: '/api/b' }), request({ url: '/api/c' })]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(confirm.mock.calls[0][0]).toMatchObject({
      title: '系统提示',
      content: '登录状态已过期，您可以继续留在该页面，或者重新登录',
      okText: '重新登录',
      cancelText: '取消',
    });
    await screen.findByText('登录状态已过期，您可以继续留在该页面，或者重新登录', {}, { timeout: 5000 });
    expect(screen.getByRole('button', { name: '重新登录' })).toBeTruthy();
    // a later 401 while the dialog is open does not open a second one
    await expect(request({ url: '/api/d' })).rejects.toBeInstanceOf(RequestError);
    expect(confirm).toHaveBeenCalledTimes(1);
    // once dismissed, the next 401 asks again
    fireEvent.click(screen.getByRole('button', { name: /取\s*消/ }));
    await expect(request({ url: '/api/e' })).rejects.toBeInstanceOf(RequestError);
    expect(confirm).toHaveBeenCalledTimes(2);
    confirm.mockRestore();
  });

  it('sends an ordinary employee to the payslips on 403', async () => {
    const nav = vi.fn();
    setNavigator(nav);
    setUser({ id: 5, username: '110101199003070011', job: '普通员工', roles: ['ACPAYSLIP_SELECT'] });
    fetchMock.mockResolvedValue(jsonResponse({ status: 403, message: '没有权限' }, 403));
    await expect(request({ url: '/api/users' })).rejects.toMatchObject({ status: 403 });
    expect(nav).toHaveBeenCalledWith('/acPayslip/index');
  });

  it('sends everybody else to /401 on 403', async () => {
    const nav = vi.fn();
    setNavigator(nav);
    setUser({ id: 2, username: 'clerk', job: '人事专员', roles: ['ACCENTRY_ALL'] });
    fetchMock.mockResolvedValue(jsonResponse({ status: 403, message: '没有权限' }, 403));
    await expect(request({ url: '/api/users' })).rejects.toMatchObject({ status: 403 });
    expect(nav).toHaveBeenCalledWith('/401');
  });

  it("reports a timeout as '网络请求超时'", async () => {
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    await expect(request({ url: '/api/slow', timeout: 20 })).rejects.toMatchObject({ kind: 'timeout', message: '网络请求超时' });
    await screen.findByText('网络请求超时', {}, { timeout: 5000 });
  });

  it("reports a network failure as '网络请求错误'", async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(request({ url: '/api/x' })).rejects.toMatchObject({ kind: 'network', message: '网络请求错误' });
    await screen.findByText('网络请求错误', {}, { timeout: 5000 });
  });

  it("shows the server's message for other errors and keeps code and fieldErrors", async () => {
    fetchMock.mockResolvedValue(jsonResponse({ status: 400, message: '验证码错误', code: 'CAPTCHA', fieldErrors: { code: '验证码错误' } }, 400));
    const err = await request({ url: '/auth/login', method: 'POST', data: {} }).catch((e) => e);
    expect(err).toBeInstanceOf(RequestError);
    expect(err).toMatchObject({ status: 400, code: 'CAPTCHA', fieldErrors: { code: '验证码错误' } });
    const note = (await screen.findByText('验证码错误', {}, { timeout: 5000 })).closest('.ant-notification-notice');
    expect(note?.className).toContain('ant-notification-notice-error');
  });

  it('stays quiet with silent: true', async () => {
    const confirm = vi.spyOn(feedback.modal, 'confirm');
    const error = vi.spyOn(feedback.notification, 'error');
    fetchMock.mockResolvedValue(jsonResponse({ status: 401, message: 'no' }, 401));
    await expect(request({ url: '/api/menus/build', silent: true })).rejects.toMatchObject({ status: 401 });
    fetchMock.mockResolvedValue(jsonResponse({ status: 500, message: 'boom' }, 500));
    await expect(request({ url: '/api/x', silent: true })).rejects.toMatchObject({ status: 500 });
    expect(confirm).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
    confirm.mockRestore();
    error.mockRestore();
  });
});

describe('downloadBlob', () => {
  it('shows the message of a JSON answer and rejects', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ message: '用户中文名称不能为空' }, 200));
    await expect(downloadBlob('/api/export/accountsSalary', { method: 'POST', data: {} })).rejects.toBeInstanceOf(RequestError);
    await screen.findByText('用户中文名称不能为空', {}, { timeout: 5000 });
  });

  it('saves a file under the given name', async () => {
    const created: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      created.push(this.download);
    });
    fetchMock.mockResolvedValue(
      new Response('xls', { status: 200, headers: { 'content-type': 'application/vnd.ms-excel', 'content-disposition': "attachment; filename*=UTF-8''%E5%B7%A5%E8%B5%84.xls" } }),
    );
    await downloadBlob('/api/export/x', { fileName: '工资报表' });
    expect(created).toEqual(['工资报表.xls']);
    click.mockRestore();
  });
});

describe('waitFor sanity', () => {
  it('has antd notifications in the document body', async () => {
    notification.error({ title: 'hello' });
    await waitFor(() => expect(document.body.textContent).toContain('hello'));
  });
});
