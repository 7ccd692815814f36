import { appRoutes, buildNavigation, menusQuery, normalizePath } from '../app/menus';
import { queryClient } from '../app/queryClient';
import { fetchUserInfo, getUser } from '../app/auth';
import { prefetchScreenData, preloadScreen } from '../app/screens';
import { getToken, homePath } from '../app/session';

let preloadedPath: string | null = null;

/** Tests: forget the path preloaded last. */
export function resetScreenPreloadForTests(): void {
  preloadedPath = null;
}

/**
 * Load the code of the screen at `path` as soon as the menus say which screen that is, and start its first
 * requests, without waiting for the layout to render (a small chunk of its own, loaded by the router beside
 * `/auth/info`).
 */
export async function preloadScreenAt(path: string): Promise<void> {
  const token = getToken();
  let target = normalizePath(path);
  if (!token || preloadedPath === target) return;
  preloadedPath = target;
  // the session is known to be good before any screen request goes out (a dead token is for AuthProvider to
  // handle, not for a screen request to report)
  const user = getUser() ? Promise.resolve(getUser()) : fetchUserInfo().catch(() => null);
  // '/' is the dashboard, or the payslips for an ordinary employee
  if (target === '/') {
    const who = await user;
    if (!who) return;
    target = homePath(who);
  }
  const menus = await queryClient.fetchQuery(menusQuery(token));
  const route = appRoutes(buildNavigation(menus), false).get(target);
  if (!route) return;
  const code = preloadScreen(route.component);
  if (await user) prefetchScreenData(route.component);
  await code;
}
