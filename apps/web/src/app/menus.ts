import { api } from './request';
/**
 * The user's menus (`GET /api/menus/build`, eladmin MenuVo tree) turned into the sidebar tree and the route
 * table of the app: full path -> screen key, title, icon and breadcrumb.
 */

export interface MenuMeta {
  title: string;
  icon?: string | null;
  noCache?: boolean;
}

/** One node of /api/menus/build. */
export interface MenuVo {
  name?: string;
  path: string;
  hidden?: boolean;
  redirect?: string;
  component?: string;
  alwaysShow?: boolean;
  meta?: MenuMeta;
  children?: MenuVo[];
}

export interface Crumb {
  title: string;
  path?: string;
}

/** A page reachable in the app. */
export interface RouteEntry {
  /** Full path, e.g. /system/user. */
  path: string;
  /** Screen key of screens.ts (`crud/accEntry`, `system/user/index`, `dashboard`). */
  component: string;
  /** Chinese title from the server (translate with menuTitle()). */
  title: string;
  icon?: string | null;
  hidden: boolean;
  /** Pinned in the tags bar (cannot be closed). */
  affix?: boolean;
  /** Parent directories, outermost first. */
  parents: Crumb[];
}

/** One sidebar entry: a page (key = its path), a directory (children) or an external link. */
export interface NavItem {
  key: string;
  title: string;
  icon?: string | null;
  path?: string;
  href?: string;
  children?: NavItem[];
}

export interface Navigation {
  items: NavItem[];
  routes: Map<string, RouteEntry>;
}

const isExternal = (p: string) => /^https?:\/\//i.test(p);

function joinPath(base: string, path: string): string {
  if (path.startsWith('/')) return path;
  const b = base.endsWith('/') ? base.slice(0, -1) : base;
  return `${b}/${path}`.replace(/\/{2,}/g, '/');
}

function titleOf(m: MenuVo): string {
  return m.meta?.title ?? m.name ?? m.path;
}

/** Build the sidebar tree and the route table from the menu tree (defensive: bad nodes are skipped). */
export function buildNavigation(menus: readonly MenuVo[] | null | undefined): Navigation {
  const routes = new Map<string, RouteEntry>();

  const visit = (node: MenuVo, base: string, parents: Crumb[], parentHidden: boolean): NavItem | null => {
    if (!node || typeof node.path !== 'string') return null;
    const hidden = parentHidden || !!node.hidden;
    const children = Array.isArray(node.children) ? node.children : [];

    if (isExternal(node.path)) {
      return hidden ? null : { key: node.path, title: titleOf(node), icon: node.meta?.icon, href: node.path };
    }
    const full = base ? joinPath(base, node.path) : node.path.startsWith('/') ? node.path : `/${node.path}`;

    // eladmin wraps a root without children: {path:'/x', component:'Layout', children:[{path:'index', ...}]}
    if (children.length === 1 && !node.alwaysShow && (node.component === 'Layout' || !node.component) && !base) {
      const only = children[0];
      const item = visit({ ...only, meta: { ...only.meta, title: titleOf(only), icon: only.meta?.icon ?? node.meta?.icon } }, full, parents, hidden);
      return item;
    }

    if (children.length > 0) {
      const crumbs = [...parents, { title: titleOf(node) }];
      const kids = children.map((c) => visit(c, full, crumbs, hidden)).filter((c): c is NavItem => !!c);
      if (hidden || kids.length === 0) return null;
      return { key: `dir:${full}`, title: titleOf(node), icon: node.meta?.icon, children: kids };
    }

    if (!node.component || node.component === 'Layout' || node.component === 'ParentView') return null;
    routes.set(full, {
      path: full,
      component: node.component,
      title: titleOf(node),
      icon: node.meta?.icon,
      hidden,
      parents,
    });
    return hidden ? null : { key: full, title: titleOf(node), icon: node.meta?.icon, path: full };
  };

  const items = (menus ?? []).map((m) => visit(m, '', [], false)).filter((m): m is NavItem => !!m);
  return { items, routes };
}

/** Keys of the directories containing `path` (to open the sidebar at the current page). */
export function openKeysFor(items: readonly NavItem[], path: string): string[] {
  const walk = (list: readonly NavItem[], trail: string[]): string[] | null => {
    for (const it of list) {
      if (it.key === path) return trail;
      if (it.children) {
        const found = walk(it.children, [...trail, it.key]);
        if (found) return found;
      }
    }
    return null;
  };
  return walk(items, []) ?? [];
}

/** `GET /api/menus/build` (silent: the layout shows its own notice when the menus cannot be loaded). */
export async function fetchMenus(): Promise<MenuVo[]> {
  const data = await api.get<MenuVo[]>('/api/menus/build', undefined, { silent: true });
  return Array.isArray(data) ? data : [];
}

/**
 * The menus of a session, by token (a new login asks again). AuthProvider prefetches it beside `/auth/info`
 * when a page opens with a token, and the layout reads it: the two requests do not depend on each other.
 */
export function menusQuery(token: string | null) {
  return { queryKey: ['menus', 'build', token], queryFn: fetchMenus, staleTime: Number.POSITIVE_INFINITY };
}
