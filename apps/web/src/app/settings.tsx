import { type ReactNode, createContext, useCallback, useContext, useMemo, useState } from 'react';

/** Layout preferences of the settings drawer, kept in localStorage. */
export interface LayoutSettings {
  themeColor: string;
  darkMode: boolean;
  fixedHeader: boolean;
  tagsView: boolean;
  sidebarLogo: boolean;
  componentSize: 'small' | 'middle' | 'large';
  sidebarCollapsed: boolean;
}

/** Spec §9 layout defaults: theme #409EFF, fixed header off, tags view on, sidebar logo on, medium size. */
export const DEFAULT_SETTINGS: LayoutSettings = {
  themeColor: '#409EFF',
  darkMode: false,
  fixedHeader: false,
  tagsView: true,
  sidebarLogo: true,
  componentSize: 'middle',
  sidebarCollapsed: false,
};

const STORAGE_KEY = 'dp-layout-settings';

function load(): LayoutSettings {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return DEFAULT_SETTINGS;
    const parsed = JSON.parse(raw) as Partial<LayoutSettings>;
    return { ...DEFAULT_SETTINGS, ...parsed };
  } catch {
    return DEFAULT_SETTINGS;
  }
}

interface SettingsContextValue {
  settings: LayoutSettings;
  update: (patch: Partial<LayoutSettings>) => void;
  reset: () => void;
}

const SettingsContext = createContext<SettingsContextValue | null>(null);

export function SettingsProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState<LayoutSettings>(load);
  const update = useCallback((patch: Partial<LayoutSettings>) => {
    setSettings((prev) => {
      const next = { ...prev, ...patch };
      try {
        localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      } catch {
        /* storage unavailable */
      }
      return next;
    });
  }, []);
  const reset = useCallback(() => {
    try {
      localStorage.removeItem(STORAGE_KEY);
    } catch {
      /* storage unavailable */
    }
    setSettings(DEFAULT_SETTINGS);
  }, []);
  const value = useMemo(() => ({ settings, update, reset }), [settings, update, reset]);
  return <SettingsContext.Provider value={value}>{children}</SettingsContext.Provider>;
}

/** Layout settings and their setters. */
export function useSettings(): SettingsContextValue {
  const ctx = useContext(SettingsContext);
  if (!ctx) throw new Error('useSettings() must be used inside <SettingsProvider>');
  return ctx;
}
