import crypto from 'node:crypto';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notification } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetRequestStateForTests } from '../app/request';
import { clearSession, getToken, getUser } from '../app/session';
import { jsonResponse, renderWithApp } from '../test/render';
import LoginPage, { afterLoginPath, safeRedirect } from './Login';

const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const PUBLIC_PEM = publicKey.export({ type: 'spki', format: 'pem' }).toString();

function decrypt(b64: string): string {
  return crypto.privateDecrypt({ key: privateKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(b64, 'base64')).toString('utf8');
}

const fetchMock = vi.fn<typeof fetch>();
let captchaCalls = 0;
let loginBodies: Record<string, unknown>[] = [];
let loginAnswer: () => Response = () => jsonResponse({ status: 400, message: '验证码错误' }, 400);

function route(url: string, init?: RequestInit): Response {
  if (url.startsWith('/auth/vCode')) {
    captchaCalls++;
    return jsonResponse({ img: `data:image/svg+xml;base64,${btoa(`<svg xmlns="http://www.w3.org/2000/svg">${captchaCalls}</svg>`)}`, uuid: `uuid-${captchaCalls}` });
  }
  if (url.startsWith('/auth/publicKey')) return jsonResponse({ publicKey: PUBLIC_PEM });
  if (url.startsWith('/auth/login')) {
    loginBodies.push(JSON.parse(String(init?.body)));
    return loginAnswer();
  }
  return jsonResponse({ status: 404, message: 'not found' }, 404);
}

beforeEach(() => {
  captchaCalls = 0;
  loginBodies = [];
  clearSession();
  resetRequestStateForTests();
  fetchMock.mockImplementation(async (input, init) => route(String(input), init));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  notification.destroy();
  clearSession();
});

function renderLogin(path = '/login') {
  return renderWithApp(<LoginPage />, {
    path,
    routes: [
      { path: '/login', element: <LoginPage /> },
      { path: '*', element: <div data-testid="landed">landed</div> },
    ],
  });
}

describe('login form rules', () => {
  it('shows each Chinese message on an empty submit', async () => {
    renderLogin();
    fireEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('请输入用户名')).toBeTruthy();
    expect(await screen.findByText('密码不能小于6个字符')).toBeTruthy();
    expect(await screen.findByText('验证码不能为空')).toBeTruthy();
    expect(loginBodies).toHaveLength(0);
  });

  it('needs at least 6 password characters', async () => {
    const user = userEvent.setup();
    renderLogin();
    const password = screen.getByPlaceholderText('密码');
    await user.type(password, '12345');
    await user.tab();
    expect(await screen.findByText('密码不能小于6个字符')).toBeTruthy();
    await user.type(password, '6');
    await user.tab();
    await waitFor(() => expect(screen.queryByText('密码不能小于6个字符')).toBeNull());
  });

  it('warns when caps lock is on', async () => {
    renderLogin();
    const password = screen.getByPlaceholderText('密码');
    fireEvent.keyUp(password, { key: 'A', modifierCapsLock: true });
    expect(await screen.findByText('Caps lock is On')).toBeTruthy();
    fireEvent.keyUp(password, { key: 'a', modifierCapsLock: false });
    await waitFor(() => expect(screen.queryByText('Caps lock is On')).toBeNull());
  });

  it('refreshes the captcha image on click', async () => {
    renderLogin();
    const img = await screen.findByAltText('验证码');
    const first = img.getAttribute('src');
    fireEvent.click(screen.getByTestId('captcha'));
    await waitFor(() => expect(screen.getByAltText('验证码').getAttribute('src')).not.toBe(first));
    expect(captchaCalls).toBe(2);
  });
});

describe('login submit', () => {
  async function fillAndSubmit(username = 'admin', password = 'admin123', code = 'ab12') {
    const user = userEvent.setup();
    await screen.findByAltText('验证码');
    await user.type(screen.getByPlaceholderText('账号'), username);
    await user.type(screen.getByPlaceholderText('密码'), password);
    await user.type(screen.getByPlaceholderText('验证码'), code);
    await user.click(screen.getByTestId('login-submit'));
  }

  it('sends the RSA-OAEP-SHA256 encrypted password, stores the token and honours redirect', async () => {
    loginAnswer = () =>
      jsonResponse({ token: 'tok-9', expiresAt: new Date(Date.now() + 3600_000).toISOString(), user: { id: 1, username: 'admin', job: '人事专员', roles: ['ADMIN'] } });
    const { router } = renderLogin('/login?redirect=%2Fsystem%2Fuser');
    await fillAndSubmit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/system/user'));
    const body = loginBodies[0];
    expect(body).toMatchObject({ username: 'admin', code: 'ab12', uuid: 'uuid-1', rememberMe: false });
    expect(body.password).not.toBe('admin123');
    expect(decrypt(String(body.password))).toBe('admin123');
    expect(getToken()).toBe('tok-9');
    expect(getUser()?.username).toBe('admin');
    // the password is stored nowhere
    expect(document.cookie).not.toContain('admin123');
    expect(JSON.stringify({ ...localStorage })).not.toContain('admin123');
  });

  it('sends an ordinary employee to the payslips whatever the redirect', async () => {
    loginAnswer = () => jsonResponse({ token: 'tok-e', user: { id: 7, username: '110101199003070011', job: '普通员工', roles: ['ACPAYSLIP_SELECT'] } });
    const { router } = renderLogin('/login?redirect=%2Fsystem%2Fuser');
    await fillAndSubmit('110101199003070011', 'secret1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/acPayslip/index'));
  });

  it('shows the server message and gets a new captcha after a failed login', async () => {
    loginAnswer = () => jsonResponse({ status: 400, message: '验证码错误', code: 'CAPTCHA' }, 400);
    renderLogin();
    await fillAndSubmit();
    expect(await screen.findByText('验证码错误', {}, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(captchaCalls).toBe(2));
    expect((screen.getByPlaceholderText('验证码') as HTMLInputElement).value).toBe('');
    expect(getToken()).toBeNull();
  });
});

describe('redirect helpers', () => {
  it('accepts only in-app paths', () => {
    expect(safeRedirect('/system/user?x=1')).toBe('/system/user?x=1');
    expect(safeRedirect('//evil.example')).toBe('/');
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect('/login')).toBe('/');
    expect(safeRedirect(null)).toBe('/');
    expect(afterLoginPath({ job: '普通员工' }, '/system/user')).toBe('/acPayslip/index');
    expect(afterLoginPath({ job: '薪酬会计' }, null)).toBe('/');
  });
});
