import {
  FullscreenExitOutlined,
  FullscreenOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Breadcrumb, Dropdown, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { logoutAndReload, useAuth } from '../app/auth';
import { feedback } from '../app/feedback';
import { menuTitle } from '../app/i18n';
import { LanguageSwitcher } from '../app/LanguageSwitcher';
import type { RouteEntry } from '../app/menus';
import { ErrorLogButton } from './ErrorLogButton';
import { HeaderSearch } from './HeaderSearch';
import { NoticeBell } from './NoticeBell';

function avatarUrl(avatar: string | null | undefined): string | undefined {
  if (!avatar) return undefined;
  if (/^(https?:|data:|\/)/.test(avatar)) return avatar;
  return `/avatar/${avatar}`;
}

function useFullscreen(): [boolean, () => void] {
  const { t } = useTranslation();
  const [full, setFull] = useState(() => typeof document !== 'undefined' && !!document.fullscreenElement);
  useEffect(() => {
    const on = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', on);
    return () => document.removeEventListener('fullscreenchange', on);
  }, []);
  const toggle = () => {
    if (!document.fullscreenEnabled || !document.documentElement.requestFullscreen) {
      feedback.message.warning(t('navbar.fullscreenUnsupported'));
      return;
    }
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen().catch(() => feedback.message.warning(t('navbar.fullscreenUnsupported')));
  };
  return [full, toggle];
}

/** Top bar: sidebar toggle, breadcrumb, route search, error log, full screen, language, settings, avatar menu. */
export function Navbar({
  current,
  routes,
  collapsed,
  isMobile,
  homeCrumb,
  onToggleSidebar,
  onOpenSettings,
}: {
  current: RouteEntry | undefined;
  routes: RouteEntry[];
  collapsed: boolean;
  isMobile: boolean;
  homeCrumb: RouteEntry | undefined;
  onToggleSidebar: () => void;
  onOpenSettings: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useAuth();
  const [full, toggleFull] = useFullscreen();

  const crumbs: { title: React.ReactNode }[] = [];
  if (homeCrumb && current?.path !== homeCrumb.path) crumbs.push({ title: <Link to={homeCrumb.path}>{menuTitle(homeCrumb.title)}</Link> });
  for (const p of current?.parents ?? []) crumbs.push({ title: menuTitle(p.title) });
  if (current) crumbs.push({ title: menuTitle(current.title) });

  const confirmLogout = () => {
    feedback.modal.confirm({
      title: t('navbar.logoutTitle'),
      content: t('navbar.logoutConfirm'),
      okText: t('actions.ok'),
      cancelText: t('actions.cancel'),
      onOk: () => logoutAndReload('/login'),
    });
  };

  return (
    <div className="app-navbar">
      <span
        className="app-navbar-action app-hamburger"
        role="button"
        aria-label={t('navbar.toggleSidebar')}
        onClick={onToggleSidebar}
        data-testid="sidebar-toggle"
      >
        {collapsed || isMobile ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
      </span>
      {!isMobile && <Breadcrumb className="app-breadcrumb" items={crumbs} />}
      <div className="app-navbar-right">
        {!isMobile && <HeaderSearch routes={routes} />}
        <ErrorLogButton />
        <NoticeBell />
        {!isMobile && (
          <Tooltip title={full ? t('navbar.exitFullscreen') : t('navbar.fullscreen')} placement="bottom">
            <span className="app-navbar-action" role="button" aria-label={t('navbar.fullscreen')} onClick={toggleFull}>
              {full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
            </span>
          </Tooltip>
        )}
        <LanguageSwitcher className="app-navbar-action" />
        <Tooltip title={t('navbar.settings')} placement="bottom">
          <span className="app-navbar-action" role="button" aria-label={t('navbar.settings')} onClick={onOpenSettings} data-testid="open-settings">
            <SettingOutlined />
          </span>
        </Tooltip>
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'center', icon: <UserOutlined />, label: t('navbar.userCenter') },
              { type: 'divider' },
              { key: 'logout', icon: <LogoutOutlined />, label: t('navbar.logout') },
            ],
            onClick: ({ key }) => (key === 'center' ? navigate('/user/center') : confirmLogout()),
          }}
        >
          <span className="app-navbar-user" role="button" data-testid="avatar-menu">
            <Avatar size={30} src={avatarUrl(user?.avatar)} icon={<UserOutlined />} />
            {!isMobile && <span className="app-navbar-username">{user?.cname || user?.username}</span>}
          </span>
        </Dropdown>
      </div>
    </div>
  );
}
