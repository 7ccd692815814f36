import { DEFAULT_ROLE_CODE, ORDINARY_EMPLOYEE_JOB } from '@app/shared/permissions';

/**
 * The browser session: the bearer token and the logged-in user. Plain module state (with subscribers) so the
 * request layer can read it outside React; `auth.tsx` exposes it to components.
 *
 * Token storage: with remember-me the token goes to localStorage (survives a browser restart until it
 * expires); without, to a session cookie (gone when the browser closes, shared between tabs).
 * The password is never stored anywhere.
 */

/** The user as `/auth/info` and `/auth/login` return it. */
export interface UserInfo {
  id: number;
  username: string;
  cname?: string | null;
  email?: string | null;
  phone?: string | null;
  avatar?: string | null;
  dept?: string | null;
  deptId?: number | null;
  job?: string | null;
  jobId?: number | null;
  enabled?: boolean;
  createTime?: string;
  /** Permission codes; ['ROLE_SYSTEM_DEFAULT'] when the user holds none. */
  roles: string[];
  roleNames?: string[];
  level?: number | null;
}

const TOKEN_KEY = 'dp-token';
const TOKEN_EXPIRES_KEY = 'dp-token-expires';
const REMEMBERED_USERNAME_KEY = 'dp-username';

function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  const prefix = `${name}=`;
  for (const part of document.cookie.split(';')) {
    const c = part.trim();
    if (c.startsWith(prefix)) return decodeURIComponent(c.slice(prefix.length));
  }
  return null;
}

function writeCookie(name: string, value: string | null): void {
  if (typeof document === 'undefined') return;
  if (value === null) document.cookie = `${name}=; path=/; max-age=0; SameSite=Lax`;
  else document.cookie = `${name}=${encodeURIComponent(value)}; path=/; SameSite=Lax`;
}

/** The bearer token, or null when logged out or expired. */
export function getToken(): string | null {
  const cookie = readCookie(TOKEN_KEY);
  if (cookie) return cookie;
  try {
    const stored = localStorage.getItem(TOKEN_KEY);
    if (!stored) return null;
    const expires = Number(localStorage.getItem(TOKEN_EXPIRES_KEY) ?? 0);
    if (expires && expires < Date.now()) {
      localStorage.removeItem(TOKEN_KEY);
      localStorage.removeItem(TOKEN_EXPIRES_KEY);
      return null;
    }
    return stored;
  } catch {
    return null;
  }
}

/** Save the token after login: localStorage with remember-me, a session cookie otherwise. */
export function setToken(token: string, opts: { rememberMe?: boolean; expiresAt?: string } = {}): void {
  removeToken();
  if (opts.rememberMe) {
    localStorage.setItem(TOKEN_KEY, token);
    const exp = opts.expiresAt ? Date.parse(opts.expiresAt) : Number.NaN;
    if (Number.isFinite(exp)) localStorage.setItem(TOKEN_EXPIRES_KEY, String(exp));
  } else writeCookie(TOKEN_KEY, token);
  notify();
}

export function removeToken(): void {
  writeCookie(TOKEN_KEY, null);
  try {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(TOKEN_EXPIRES_KEY);
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
