import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { MenuIcon } from '../app/icons';
import { menuTitle } from '../app/i18n';
import { type NavItem, openKeysFor } from '../app/menus';
import { useSettings } from '../app/settings';
import logoUrl from '../assets/logo.svg';

type MenuItem = Required<MenuProps>['items'][number];

function toMenuItems(items: readonly NavItem[]): MenuItem[] {
  return items.map((it) => {
    const icon = it.icon ? <MenuIcon key="icon" name={it.icon} /> : undefined;
    const title = menuTitle(it.title);
    if (it.children) return { key: it.key, icon, label: title, children: toMenuItems(it.children) };
    if (it.href) {
      return {
        key: it.key,
        icon,
        label: (
          <a key={it.key} href={it.href} target="_blank" rel="noopener noreferrer">
            {title}
          </a>
        ),
      };
    }
    return { key: it.key, icon, label: title, title };
  });
}

/** Logo + product name and the menu tree; used in the fixed sidebar and in the mobile drawer. */
export function Sidebar({ items, pathname, collapsed, onNavigate }: { items: NavItem[]; pathname: string; collapsed: boolean; onNavigate?: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { settings } = useSettings();
  const [openKeys, setOpenKeys] = useState<string[]>(() => openKeysFor(items, pathname));

  useEffect(() => {
    const needed = openKeysFor(items, pathname);
    setOpenKeys((prev) => (needed.every((k) => prev.includes(k)) ? prev : [...new Set([...prev, ...needed])]));
  }, [items, pathname]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: labels follow the language
  const menuItems = useMemo(() => toMenuItems(items), [items, i18n.language]);

  return (
    <div className="app-sidebar">
      {settings.sidebarLogo && (
        <div className={`app-sidebar-logo${collapsed ? ' collapsed' : ''}`}>
          <img src={logoUrl} alt="" />
          {!collapsed && <span className="app-sidebar-title">{t('appShortName')}</span>}
        </div>
      )}
      <Menu
        className="app-sidebar-menu"
        mode="inline"
        theme="dark"
        inlineCollapsed={collapsed}
        items={menuItems}
        selectedKeys={[pathname]}
        {...(collapsed ? {} : { openKeys, onOpenChange: (keys: string[]) => setOpenKeys(keys) })}
        onClick={({ key }) => {
          if (key.startsWith('/')) {
            navigate(key);
            onNavigate?.();
          }
        }}
      />
    </div>
  );
}
