import type { CurrentUserAnswer } from '@app/shared/contracts/auth';
import { DEFAULT_ROLE_CODE, ORDINARY_EMPLOYEE_JOB } from '@app/shared/permissions';

/**
 * The browser session: who is logged in, and how requests prove it. Plain module state (with subscribers) so
 * the request layer can read it outside React; `auth.tsx` exposes it to components.
 *
 * The access token is never stored by a script (S6): the server keeps it in an HttpOnly, SameSite=Strict
 * cookie the page cannot read, and hands the page a CSRF token in the readable cookie `dp_csrf`, which the
 * request layer sends back as `X-CSRF-Token` (`authHeaders()`). That cookie is also how the page knows it has
 * a session. Remember-me makes both cookies outlive the browser (the server decides their age). A bearer
 * token is only kept in memory when a server answered with one (API mode, tests). The password is never
 * stored anywhere.
 */

/**
 * The signed-in user as /auth/info and the login answer it (the contract's `currentUserAnswer`, type only: no zod
 * in the page's boot code). Id, name and codes are always there; the rest may be missing from a user set by a test
 * or a caller that only knows part of it.
 */
export type UserInfo = Pick<CurrentUserAnswer, 'id' | 'username' | 'roles'> & Partial<CurrentUserAnswer>;

/** Storage names of the releases that kept the token in script reach; removed when found. */
const LEGACY_TOKEN_KEY = 'dp-token';
const LEGACY_TOKEN_EXPIRES_KEY = 'dp-token-expires';
const REMEMBERED_USERNAME_KEY = 'dp-username';
/** The readable cookie with the session's CSRF token (core/auth/sessionCookie.ts on the server). */
export const CSRF_COOKIE = 'dp_csrf';
export const CSRF_HEADER = 'X-CSRF-Token';

function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  const prefix = `${name}=`;
  for (const part of document.cookie.split(';')) {
    const c = part.trim();
    if (c.startsWith(prefix)) return decodeURIComponent(c.slice(prefix.length));
  }
  return null;
}

function expireCookie(name: string): void {
  if (typeof document !== 'undefined') document.cookie = `${name}=; path=/; max-age=0; SameSite=Strict`;
}

/** A bearer token a server answered with (API mode, tests): memory only, gone with the page. */
let memoryToken: string | null = null;

/**
 * The session's key, or null when logged out: the in-memory bearer token if any, else the CSRF token of
 * the cookie session. Not a secret that opens the API on its own (the HttpOnly cookie does that).
 */
export function getToken(): string | null {
  return memoryToken ?? readCookie(CSRF_COOKIE);
}

/** Headers that authenticate a request: `Authorization` for a bearer token, `X-CSRF-Token` for the cookie session. */
export function authHeaders(): Record<string, string> {
  if (memoryToken) return { Authorization: `Bearer ${memoryToken}` };
  const csrf = readCookie(CSRF_COOKIE);
  return csrf ? { [CSRF_HEADER]: csrf } : {};
}

/** Keep a bearer token for this page only (never in storage). */
export function setToken(token: string): void {
  removeToken();
  memoryToken = token;
  notify();
}

/** The server has just set the session cookies (cookie login): tell the subscribers. */
export function sessionStarted(): void {
  memoryToken = null;
  notify();
}

/** Forget the session on this side: the memory token, the readable CSRF cookie and any legacy stored token. */
export function removeToken(): void {
  memoryToken = null;
  expireCookie(CSRF_COOKIE);
  expireCookie(LEGACY_TOKEN_KEY);
  try {
    localStorage.removeItem(LEGACY_TOKEN_KEY);
    localStorage.removeItem(LEGACY_TOKEN_EXPIRES_KEY);
  } catch {
    /* storage unavailable */
  }
}

/** Remember-me keeps only the user name for the login form (never the password). */
export function getRememberedUsername(): string | null {
  try {
    return localStorage.getItem(REMEMBERED_USERNAME_KEY);
  } catch {
    return null;
  }
}

export function setRememberedUsername(username: string | null): void {
  try {
    if (username) localStorage.setItem(REMEMBERED_USERNAME_KEY, username);
    else localStorage.removeItem(REMEMBERED_USERNAME_KEY);
  } catch {
    /* storage unavailable */
  }
}

// ---- current user ----------------------------------------------------------------------------------------

let currentUser: UserInfo | null = null;
let version = 0;
const listeners = new Set<() => void>();

function notify(): void {
  version++;
  for (const l of listeners) l();
}

/** Subscribe to token/user changes (useSyncExternalStore). */
export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Changes whenever the token or the user changes. */
export function sessionVersion(): number {
  return version;
}

export function getUser(): UserInfo | null {
  return currentUser;
}

export function setUser(user: UserInfo | null): void {
  if (user && (!Array.isArray(user.roles) || user.roles.length === 0)) user = { ...user, roles: [DEFAULT_ROLE_CODE] };
  currentUser = user;
  notify();
}

/** Forget token and user (logout, dead token). */
export function clearSession(): void {
  removeToken();
  currentUser = null;
  notify();
}

/** Is this user a restricted ordinary employee (job '普通员工')? */
export function isOrdinaryEmployee(user: Pick<UserInfo, 'job'> | null | undefined): boolean {
  return user?.job === ORDINARY_EMPLOYEE_JOB;
}

/** Home page of a user: the payslip list for ordinary employees, the dashboard for everybody else. */
export function homePath(user: Pick<UserInfo, 'job'> | null | undefined): string {
  return isOrdinaryEmployee(user) ? '/acPayslip/index' : '/dashboard';
}

/** A safe in-app redirect target from the `redirect` query (never another site, never the login page). */
export function safeRedirect(value: string | null | undefined): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/login')) return '/';
  return value;
}
