import { appRoutes, buildNavigation, menusQuery, normalizePath } from '../app/menus';
import { queryClient } from '../app/queryClient';
import { fetchUserInfo, getUser } from '../app/auth';
import { prefetchScreenData, preloadScreen } from '../app/screens';
import { getToken } from '../app/session';

let preloadedPath: string | null = null;

/**
 * Load the code of the screen at `path` as soon as the menus say which screen that is, and start its first
 * requests, without waiting for the layout to render (a small chunk of its own, loaded by the router beside
 * `/auth/info`).
 */
export async function preloadScreenAt(path: string): Promise<void> {
  const token = getToken();
  const target = normalizePath(path);
  if (!token || preloadedPath === target) return;
  preloadedPath = target;
  const menus = await queryClient.fetchQuery(menusQuery(token));
  const route = appRoutes(buildNavigation(menus), false).get(target);
  if (!route) return;
  const code = preloadScreen(route.component);
  // its data too, once the session is known to be good (a dead token is for AuthProvider to handle, not
  // for a screen request to report)
  if (getUser() || (await fetchUserInfo().catch(() => null))) prefetchScreenData(route.component);
  await code;
}
