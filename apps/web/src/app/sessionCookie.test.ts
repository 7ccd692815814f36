import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../test/render';
import { loginWithPassword } from './auth';
import { api, resetRequestStateForTests } from './request';
import { authHeaders, clearSession, getToken } from './session';

vi.mock('./crypto', () => ({ encryptPassword: async (p: string) => `enc(${p})` }));

/** S6 on the web side: the token stays in the server's HttpOnly cookie; the page only holds the CSRF token. */
const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  resetRequestStateForTests();
  clearSession();
  localStorage.clear();
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  clearSession();
});

describe('cookie session', () => {
  it('logs in asking for a cookie session, stores no token, and sends the CSRF header instead of a bearer token', async () => {
    fetchMock.mockImplementation(async (url) => {
      if (String(url) === '/auth/login') {
        // what the server's Set-Cookie leaves readable to the page: the CSRF cookie only (dp_session is HttpOnly)
        document.cookie = 'dp_csrf=csrf-123; path=/';
        return jsonResponse({ expiresAt: new Date(Date.now() + 3600_000).toISOString(), user: { id: 1, username: 'admin', roles: ['ADMIN'] } });
      }
      return jsonResponse({ ok: true });
    });
    await loginWithPassword({ username: 'admin', password: 'admin123', code: '1', uuid: 'u', rememberMe: true });
    const body = JSON.parse(String(fetchMock.mock.calls[0][1]?.body));
    expect(body).toMatchObject({ session: 'cookie', rememberMe: true });
    expect(getToken()).toBe('csrf-123');
    expect(JSON.stringify({ ...localStorage })).not.toMatch(/csrf-123|token/i);

    await api.post('/api/things', { a: 1 });
    const headers = (fetchMock.mock.calls[1][1]?.headers ?? {}) as Record<string, string>;
    expect(headers['X-CSRF-Token']).toBe('csrf-123');
    expect(headers.Authorization).toBeUndefined();
  });

  it('forgets the session: the readable cookie and any token an older release stored', () => {
    document.cookie = 'dp_csrf=csrf-9; path=/';
    localStorage.setItem('dp-token', 'old-token');
    expect(authHeaders()).toEqual({ 'X-CSRF-Token': 'csrf-9' });
    clearSession();
    expect(getToken()).toBeNull();
    expect(authHeaders()).toEqual({});
    expect(localStorage.getItem('dp-token')).toBeNull();
  });
});
