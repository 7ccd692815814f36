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
 * Menu icons by antd icon name ('TeamOutlined'). The seeded menu's icons are bundled; any other icon is
 * loaded on demand, one small chunk per icon.
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

// one lazy chunk per icon file of @ant-design/icons, so an unusual icon costs ~1 KB, not the whole set
const ICON_LOADERS = import.meta.glob<{ default: IconComponent }>([
  '../../../../node_modules/@ant-design/icons/es/icons/*Outlined.js',
  '../../../../node_modules/@ant-design/icons/es/icons/*Filled.js',
  '../../../../node_modules/@ant-design/icons/es/icons/*TwoTone.js',
]);
const loaderByName = new Map<string, () => Promise<{ default: IconComponent }>>();
for (const [path, load] of Object.entries(ICON_LOADERS)) {
  const m = /\/([A-Za-z0-9]+)\.js$/.exec(path);
  if (m) loaderByName.set(m[1], load);
}
const loaded = new Map<string, IconComponent>();

/** Every antd icon name (for icon pickers). */
export const ICON_NAMES: string[] = [...loaderByName.keys()].sort();

/** Load one antd icon component by name (null when there is no such icon). */
export async function loadIcon(name: string): Promise<IconComponent | null> {
  const hit = BUNDLED[name] ?? loaded.get(name);
  if (hit) return hit;
  const load = loaderByName.get(name);
  if (!load) return null;
  const mod = await load();
  loaded.set(name, mod.default);
  return mod.default;
}

function lookup(name: string): IconComponent | null {
  return BUNDLED[name] ?? loaded.get(name) ?? null;
}

/** The antd icon called `name`; nothing while loading or when unknown (e.g. an old eladmin svg name). */
export function MenuIcon({ name, className }: { name?: string | null; className?: string }) {
  const [, setLoaded] = useState(0);
  const icon = name ? lookup(name) : null;
  const needsLoad = !!name && !icon && loaderByName.has(name);
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
