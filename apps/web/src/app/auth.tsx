// the module itself, not the barrel: the barrel brings the field kinds and zod into the login page's bundle
import { hasPermission as codesPass } from '@app/shared/resource/types';
import type { currentUser, login, logout as logoutContract } from '@app/shared/contracts/auth';
import { type ReactNode, createContext, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { SESSION_ROUTES, callRoute } from './contractClient';
import { encryptPassword } from './crypto';
import { menusQuery } from './menus';
import { queryClient } from './queryClient';
import {
  type UserInfo,
  clearSession,
  getToken,
  removeToken,
  getUser,
  isOrdinaryEmployee as isOrdinary,
  sessionVersion,
  setRememberedUsername,
  sessionStarted,
  setToken,
  setUser,
  subscribeSession,
} from './session';

export type { UserInfo } from './session';
export {
  getToken,
  setToken,
  removeToken,
  getUser,
  clearSession,
  homePath,
  getRememberedUsername,
  isOrdinaryEmployee,
} from './session';

/** 'anonymous': no token; 'loading': token, user info on its way; 'ready': user known; 'error': info failed. */
export type AuthStatus = 'anonymous' | 'loading' | 'ready' | 'error';

export interface AuthContextValue {
  status: AuthStatus;
  token: string | null;
  user: UserInfo | null;
  /** Permission codes of the user (`roles` of /auth/info). */
  permissions: string[];
  isOrdinaryEmployee: boolean;
  /** True when the user holds ADMIN or any of `codes`. */
  hasPermission: (codes: readonly string[]) => boolean;
  /** Revoke the token on the server, forget the session and cached data. */
  logout: (opts?: { revoke?: boolean }) => Promise<void>;
  /** Reload /auth/info (after editing one's own profile, avatar, ...). */
  refresh: () => Promise<UserInfo | null>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export interface LoginInput {
  username: string;
  password: string;
  code: string;
  uuid: string;
  rememberMe: boolean;
}

/** POST /auth/login with the RSA-encrypted password; stores the token and the user. */
export async function loginWithPassword(input: LoginInput): Promise<UserInfo> {
  const password = await encryptPassword(input.password);
  // session 'cookie': the server keeps the token in an HttpOnly cookie and answers without it (S6)
  const res = await callRoute<typeof login>(SESSION_ROUTES.login, {
    body: {
      username: input.username.trim(),
      password,
      code: input.code.trim(),
      uuid: input.uuid,
      rememberMe: input.rememberMe,
      session: 'cookie',
    },
  });
  queryClient.clear();
  if (res.token) setToken(res.token);
  else sessionStarted();
  setRememberedUsername(input.rememberMe ? input.username.trim() : null);
  setUser(res.user);
  return res.user;
}

/**
 * Revoke the token (ignoring failures: it may be dead already) and forget everything. `revoke: false` only
 * forgets, for a session the server has ended itself (a password change ends every session of the user, so a
 * logout request would only be refused with a 401).
 */
export async function logout(opts: { revoke?: boolean } = {}): Promise<void> {
  if (getToken() && opts.revoke !== false) await revokeSession();
  clearSession();
  queryClient.clear();
}

/** DELETE /auth/logout, silent, ignoring failures (the token may be dead already). */
function revokeSession(): Promise<unknown> {
  return callRoute<typeof logoutContract>(SESSION_ROUTES.logout, {}, { silent: true }).catch(() => undefined);
}

/**
 * Log out and load `path` afresh (the avatar menu's logout): the token is revoked and forgotten, then the page
 * is replaced without first re-rendering the app as logged out (no double navigation).
 */
export async function logoutAndReload(path = '/login'): Promise<void> {
  if (getToken()) await revokeSession();
  removeToken();
  window.location.replace(path);
}

let userInfoInFlight: Promise<UserInfo> | null = null;

/**
 * Fetch the current user (`GET /auth/info`) into the session; silent (the caller decides what to do). Callers
 * while a request is on its way share it (the page start and AuthProvider ask for the same thing).
 */
export function fetchUserInfo(): Promise<UserInfo> {
  userInfoInFlight ??= callRoute<typeof currentUser>(SESSION_ROUTES.currentUser, {}, { silent: true })
    .then((user) => {
      setUser(user);
      return user;
    })
    .finally(() => {
      userInfoInFlight = null;
    });
  return userInfoInFlight;
}

/**
 * At page start, before anything renders: with a stored token, ask for the user and the menus at once, in
 * parallel with loading the texts and the first render (AuthProvider then joins these requests; it also
 * handles a failure).
 */
export function startSession(): boolean {
  const token = getToken();
  if (!token || getUser()) return false;
  requestSession(token).catch(() => undefined);
  return true;
}

/** The user and the menus of a session, asked for together (joins requests already on their way). */
function requestSession(token: string): Promise<UserInfo> {
  void queryClient.prefetchQuery(menusQuery(token));
  return fetchUserInfo();
}

/** Loads the user when a token exists and provides `useAuth()`. On failure: logout and reload (spec §2). */
export function AuthProvider({ children, onInfoError }: { children: ReactNode; onInfoError?: () => void }) {
  useSyncExternalStore(subscribeSession, sessionVersion, sessionVersion);
  const token = getToken();
  const user = getUser();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    // getUser() too: the page start's request may have answered between this render and the effect
    if (!token || user || getUser()) return;
    let cancelled = false;
    requestSession(token).catch(async () => {
      if (cancelled) return;
      setFailed(true);
      await logout();
      if (onInfoError) onInfoError();
      else window.location.reload();
    });
    return () => {
      cancelled = true;
    };
  }, [token, user, onInfoError]);

  const refresh = useCallback(async () => {
    if (!getToken()) return null;
    return fetchUserInfo();
  }, []);

  const value = useMemo<AuthContextValue>(() => {
    const permissions = user?.roles ?? [];
    const status: AuthStatus = !token ? 'anonymous' : user ? 'ready' : failed ? 'error' : 'loading';
    return {
      status,
      token,
      user: token ? user : null,
      permissions,
      isOrdinaryEmployee: isOrdinary(user),
      hasPermission: (codes) => codesPass(permissions, codes),
      logout,
      refresh,
    };
  }, [token, user, failed, refresh]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** The session inside components. */
export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth() must be used inside <AuthProvider>');
  return ctx;
}

/** Renders `children` only when the user holds ADMIN or any of `codes` (spec §6: the element is removed). */
export function Permission({ codes, children, fallback = null }: { codes: readonly string[]; children: ReactNode; fallback?: ReactNode }) {
  const { hasPermission } = useAuth();
  if (!codes || codes.length === 0) throw new Error('<Permission> needs a list of permission codes');
  return <>{hasPermission(codes) ? children : fallback}</>;
}
