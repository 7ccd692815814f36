import { useQuery } from '@tanstack/react-query';
import { Alert, Drawer, Layout, Spin, theme } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useAuth } from '../app/auth';
import { loadable } from '../app/loadable';
import { menuTitle } from '../app/i18n';
import { DASHBOARD, type NavItem, appRoutes, buildNavigation, menusQuery, normalizePath } from '../app/menus';
import { getToken, homePath } from '../app/session';
import { useSettings } from '../app/settings';
import { setPageTitle } from '../app/title';
import { useIsMobile } from '../app/useIsMobile';
import { Navbar } from './Navbar';
import { ScreenHost } from './ScreenHost';
import { SettingsDrawer } from './SettingsDrawer';
import { Sidebar } from './Sidebar';
import { TagsView } from './TagsView';
import { closeOtherTabs, openTab, refreshTab, restoreTabs, useVisitedTabs } from './tabs';
import './layout.css';

export const SIDEBAR_WIDTH = 210;
const SIDEBAR_COLLAPSED_WIDTH = 64;

/** Loads the user's menus (a missing endpoint or a failure leaves an empty menu and a notice). */
function useMenus(userId: number | undefined) {
  return useQuery({ ...menusQuery(getToken()), enabled: userId !== undefined });
}

/** The change-password dialog, loaded only for a user who must change an issued password (rare). */
const InitialPassword = loadable(() => import('../modules/user/InitialPasswordDialog'), () => null, 'InitialPassword');

/** The frame around every screen after login: sidebar, navbar, tags bar and the open screens. */
export default function AppLayout() {
  const { t } = useTranslation();
  const { user, isOrdinaryEmployee } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const { settings, update } = useSettings();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const tabs = useVisitedTabs();
  const { token } = theme.useToken();
  const menus = useMenus(user?.id);

  const nav = useMemo(() => buildNavigation(menus.data), [menus.data]);
  const routes = useMemo(() => appRoutes(nav, isOrdinaryEmployee), [nav, isOrdinaryEmployee]);
  const sidebarItems = useMemo<NavItem[]>(
    () => (isOrdinaryEmployee ? nav.items : [{ key: DASHBOARD.path, title: DASHBOARD.title, icon: DASHBOARD.icon, path: DASHBOARD.path }, ...nav.items]),
    [nav.items, isOrdinaryEmployee],
  );

  const pathname = normalizePath(location.pathname);
  const home = homePath(user);
  const redirectTarget = pathname.startsWith('/redirect/') ? pathname.slice('/redirect'.length) + location.search : null;
  // during a /redirect/<path> refresh the frame keeps showing <path> (no flicker of the tags bar)
  const activePath = redirectTarget ? normalizePath(redirectTarget.split('?')[0]) : pathname;
  const current = routes.get(activePath);
  const menusPending = menus.isPending;

  // after a reload, the tabs this user had open come back (once the menus say which pages they may open)
  const username = user?.username;
  useEffect(() => {
    if (menusPending || !username) return;
    restoreTabs(username, (path) => {
      const r = routes.get(path);
      return r && { path: r.path, title: r.title, component: r.component, affix: !!r.affix || (isOrdinaryEmployee && r.path === home) };
    });
  }, [menusPending, username, routes, isOrdinaryEmployee, home]);

  // open a tab for the current page, set the title
  useEffect(() => {
    if (!current || redirectTarget) return;
    openTab({
      path: current.path,
      fullPath: current.path + location.search,
      title: current.title,
      component: current.component,
      // an ordinary employee's payslips are their only page: that tab cannot be closed
      affix: !!current.affix || (isOrdinaryEmployee && current.path === home),
    });
    if (!settings.tagsView) closeOtherTabs(current.path);
  }, [current, location.search, settings.tagsView, redirectTarget, isOrdinaryEmployee, home]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the title follows the language (t changes with it)
  useEffect(() => {
    if (current) setPageTitle(menuTitle(current.title));
  }, [current, t]);

  // the pinned dashboard tab is always there for users who have it
  useEffect(() => {
    if (!isOrdinaryEmployee) openTab({ path: DASHBOARD.path, fullPath: DASHBOARD.path, title: DASHBOARD.title, component: DASHBOARD.component, affix: true });
  }, [isOrdinaryEmployee]);

  // /redirect/<path>: remount that tab's screen, then go back to it
  useEffect(() => {
    if (!redirectTarget) return;
    refreshTab(activePath);
    navigate(redirectTarget, { replace: true });
  }, [redirectTarget, activePath, navigate]);

  useEffect(() => {
    if (!isMobile) setDrawerOpen(false);
  }, [isMobile]);

  // The current page's tab is opened by the effect above, after this render; show its screen in this render
  // already (same key, so it is the same screen once the tab exists) rather than one frame later.
  const shownTabs =
    current && !redirectTarget && !tabs.some((tab) => tab.path === current.path)
      ? [...tabs, { path: current.path, fullPath: current.path + location.search, title: current.title, component: current.component, affix: !!current.affix, refreshKey: 0 }]
      : tabs;

  // An administrator issued this password: nothing else until it is changed (the server refuses the rest anyway).
  if (user?.mustChangePassword) {
    return (
      <div className="app-initial-password" data-testid="initial-password">
        <InitialPassword.Component />
      </div>
    );
  }
  if (pathname === '/') return <Navigate to={home} replace />;
  if (activePath === DASHBOARD.path && isOrdinaryEmployee) return <Navigate to={home} replace />;
  // spec §6: an ordinary employee who types a screen they may not open lands on their payslips, not the 404 page
  if (!current && !menusPending) return <Navigate to={isOrdinaryEmployee && activePath !== home ? home : '/404'} replace />;

  const collapsed = !isMobile && settings.sidebarCollapsed;
  const sidebar = (
    <Sidebar items={sidebarItems} pathname={activePath} collapsed={collapsed} onNavigate={() => setDrawerOpen(false)} />
  );

  return (
    <Layout className={`app-layout${settings.fixedHeader ? ' fixed-header' : ''}${isMobile ? ' mobile' : ''}${settings.darkMode ? ' dark' : ''}`}>
      {isMobile ? (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          size={SIDEBAR_WIDTH}
          closable={false}
          className={`app-sidebar-drawer${settings.darkMode ? ' dark' : ''}`}
          styles={{ body: { padding: 0 } }}
        >
          {sidebar}
        </Drawer>
      ) : (
        <Layout.Sider
          className="app-sider"
          width={SIDEBAR_WIDTH}
          collapsedWidth={SIDEBAR_COLLAPSED_WIDTH}
          collapsed={collapsed}
          trigger={null}
          theme="dark"
        >
          {sidebar}
        </Layout.Sider>
      )}
      <Layout className="app-main-column">
        <div className="app-header" style={{ background: token.colorBgContainer, color: token.colorText, borderColor: token.colorBorderSecondary }}>
          <Navbar
            current={current}
            routes={[...routes.values()]}
            collapsed={collapsed}
            isMobile={isMobile}
            homeCrumb={isOrdinaryEmployee ? undefined : DASHBOARD}
            onToggleSidebar={() => (isMobile ? setDrawerOpen((o) => !o) : update({ sidebarCollapsed: !settings.sidebarCollapsed }))}
            onOpenSettings={() => setSettingsOpen(true)}
          />
          {settings.tagsView && <TagsView activePath={activePath} homePath={home} />}
        </div>
        {menus.isError && <Alert className="app-menu-alert" type="warning" showIcon banner title={t('menuUnavailable')} closable />}
        <Layout.Content className="app-content">
          {shownTabs.map((tab) => (
            <ScreenHost key={`${tab.path}#${tab.refreshKey}`} tab={tab} active={tab.path === activePath} />
          ))}
          {!current && (
            <div className="app-screen-loading">
              <Spin />
            </div>
          )}
        </Layout.Content>
      </Layout>
      <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </Layout>
  );
}
