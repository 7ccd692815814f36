import {
  AccountBookOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  BankOutlined,
  BellOutlined,
  BookOutlined,
  BugOutlined,
  CalculatorOutlined,
  ClockCircleOutlined,
  ContactsOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FieldTimeOutlined,
  FileExcelOutlined,
  FileTextOutlined,
  FolderOpenOutlined,
  HistoryOutlined,
  HomeOutlined,
  IdcardOutlined,
  MenuOutlined,
  MoneyCollectOutlined,
  MonitorOutlined,
  ProfileOutlined,
  ReadOutlined,
  SafetyCertificateOutlined,
  SafetyOutlined,
  SettingOutlined,
  SolutionOutlined,
  SwapOutlined,
  TeamOutlined,
  UserAddOutlined,
  UserDeleteOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { type ComponentType, useEffect, useState } from 'react';

/**
 * Menu icons by antd icon name ('TeamOutlined'). The seeded menu's icons are bundled; any other icon comes
 * with the whole icon set, loaded on demand.
 */

type IconComponent = ComponentType<{ className?: string; style?: React.CSSProperties }>;

const BUNDLED: Record<string, IconComponent> = {
  AccountBookOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  BankOutlined,
  BellOutlined,
  BookOutlined,
  BugOutlined,
  CalculatorOutlined,
  ClockCircleOutlined,
  ContactsOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FieldTimeOutlined,
  FileExcelOutlined,
  FileTextOutlined,
  FolderOpenOutlined,
  HistoryOutlined,
  HomeOutlined,
  IdcardOutlined,
  MenuOutlined,
  MoneyCollectOutlined,
  MonitorOutlined,
  ProfileOutlined,
  ReadOutlined,
  SafetyCertificateOutlined,
  SafetyOutlined,
  SettingOutlined,
  SolutionOutlined,
  SwapOutlined,
  TeamOutlined,
  UserAddOutlined,
  UserDeleteOutlined,
  UserOutlined,
};

const ICON_NAME = /^[A-Z][A-Za-z0-9]*(Outlined|Filled|TwoTone)$/;

// The whole icon set is one lazy chunk, fetched only for an icon outside BUNDLED or by the icon picker. (One
// chunk per icon file made Vite split out every icon antd itself uses too: dozens of tiny requests on the way
// to the first screen.)
let allIcons: Promise<Map<string, IconComponent>> | null = null;
const loaded = new Map<string, IconComponent>();

function loadAllIcons(): Promise<Map<string, IconComponent>> {
  allIcons ??= import('./allIcons').then(({ ALL_ICONS }) => {
    for (const [name, value] of ALL_ICONS) loaded.set(name, value as IconComponent);
    return loaded;
  });
  return allIcons;
}

/** Every antd icon name, sorted (for icon pickers); loads the icon set. */
export async function loadIconNames(): Promise<string[]> {
  return [...(await loadAllIcons()).keys()].sort();
}

/** Load one antd icon component by name (null when there is no such icon). */
export async function loadIcon(name: string): Promise<IconComponent | null> {
  const hit = BUNDLED[name] ?? loaded.get(name);
  if (hit) return hit;
  if (!ICON_NAME.test(name)) return null;
  return (await loadAllIcons()).get(name) ?? null;
}

function lookup(name: string): IconComponent | null {
  return BUNDLED[name] ?? loaded.get(name) ?? null;
}

/** The antd icon called `name`; nothing while loading or when unknown (e.g. an old eladmin svg name). */
export function MenuIcon({ name, className }: { name?: string | null; className?: string }) {
  const [, setLoaded] = useState(0);
  const icon = name ? lookup(name) : null;
  const needsLoad = !!name && !icon && ICON_NAME.test(name);
  useEffect(() => {
    if (!needsLoad || !name) return;
    let live = true;
    loadIcon(name)
      .then(() => live && setLoaded((n) => n + 1))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [needsLoad, name]);
  if (!icon) return null;
  const Icon = icon;
  return <Icon className={className} />;
}
