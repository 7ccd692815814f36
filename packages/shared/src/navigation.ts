/**
 * The web app's page table, computed from the user's menus (`GET /api/menus/build`, eladmin MenuVo tree):
 * the sidebar tree and full path -> screen key, title, icon and breadcrumb. Shared because the server needs
 * the same answer to "which screen is at this path" (it hints that screen's code in index.html).
 */

export interface MenuMeta {
  title: string;
  icon?: string | null;
  noCache?: boolean;
  /** The title in other UI languages, sent for a definition's menu (ResourceDef.menu) while it keeps its shipped name. */
  titles?: Partial<Record<string, string>>;
}

/** One node of /api/menus/build. */
export interface MenuVo {
  name?: string;
  /** Absent where the menu has none (an external link without an address): such a node is skipped. */
  path?: string;
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
  return m.meta?.title ?? m.name ?? m.path ?? '';
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

/** Routes that exist for every logged-in user besides the menus. */
export const DASHBOARD: RouteEntry = {
  path: '/dashboard',
  component: 'dashboard',
  // not 合同到期提醒: 派遣业务 › 合同到期提醒 is another screen, and two sidebar entries must not share a title
  title: '首页',
  icon: 'DashboardOutlined',
  hidden: false,
  affix: true,
  parents: [],
};
export const USER_CENTER: RouteEntry = { path: '/user/center', component: 'user/center', title: '个人中心', icon: 'UserOutlined', hidden: true, parents: [] };

export function normalizePath(p: string): string {
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

/** Every page of the app for this user: the dashboard (not for ordinary employees), the menus' pages, the personal centre. */
export function appRoutes(nav: Navigation, isOrdinaryEmployee: boolean): Map<string, RouteEntry> {
  const all = new Map<string, RouteEntry>();
  if (!isOrdinaryEmployee) all.set(DASHBOARD.path, DASHBOARD);
  for (const [k, v] of nav.routes) if (!all.has(k)) all.set(k, v);
  all.set(USER_CENTER.path, USER_CENTER);
  return all;
}

/** Every translated title the menus carry (`meta.titles`): [language, Chinese title, title in that language]. */
export function menuTitleTranslations(menus: readonly MenuVo[] | null | undefined): [lng: string, zh: string, title: string][] {
  const out: [string, string, string][] = [];
  const walk = (list: readonly MenuVo[]) => {
    for (const m of list) {
      if (!m || typeof m !== 'object') continue;
      const zh = m.meta?.title;
      if (zh && m.meta?.titles) for (const [lng, title] of Object.entries(m.meta.titles)) if (title) out.push([lng, zh, title]);
      if (Array.isArray(m.children)) walk(m.children);
    }
  };
  walk(menus ?? []);
  return out;
}
