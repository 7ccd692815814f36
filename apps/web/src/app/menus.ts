import type { ownMenus } from '@app/shared/contracts/systemTrees';
import { SESSION_ROUTES, callRoute } from './contractClient';
/**
 * The user's menus (`GET /api/menus/build`) for the sidebar and the routes; the page table itself is built by
 * `@app/shared/navigation` (the server uses it too).
 */
export {
  type Crumb,
  type MenuMeta,
  type MenuVo,
  type NavItem,
  type Navigation,
  type RouteEntry,
  DASHBOARD,
  USER_CENTER,
  appRoutes,
  buildNavigation,
  normalizePath,
  openKeysFor,
} from '@app/shared/navigation';
import { type MenuVo, menuTitleTranslations } from '@app/shared/navigation';
import { i18n } from './i18n';

/**
 * `GET /api/menus/build` (silent: the layout shows its own notice when the menus cannot be loaded). Titles the
 * server sends in other languages (a definition's menu) join the `menu` texts that menuTitle() reads.
 */
export async function fetchMenus(): Promise<MenuVo[]> {
  const data = await callRoute<typeof ownMenus>(SESSION_ROUTES.ownMenus, {}, { silent: true });
  const menus = Array.isArray(data) ? data : [];
  for (const [lng, zh, title] of menuTitleTranslations(menus)) i18n.addResourceBundle(lng, 'menu', { [zh]: title }, true, false);
  return menus;
}

/**
 * The menus of a session, by token (a new login asks again). AuthProvider prefetches it beside `/auth/info`
 * when a page opens with a token, and the layout reads it: the two requests do not depend on each other.
 */
export function menusQuery(token: string | null) {
  return { queryKey: ['menus', 'build', token], queryFn: fetchMenus, staleTime: Number.POSITIVE_INFINITY };
}
