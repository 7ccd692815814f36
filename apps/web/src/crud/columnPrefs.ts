import { useCallback, useState } from 'react';

/**
 * Column preferences of a table (hidden columns, widths), remembered per user and table in localStorage.
 * The key carries the user, so one person's layout never leaks to the next person on a shared computer.
 */

export interface ColumnPrefs {
  hidden: string[];
  widths: Record<string, number>;
}

const EMPTY: ColumnPrefs = { hidden: [], widths: {} };
const PREFIX = 'dp-columns';
export const MIN_COLUMN_WIDTH = 60;

/** localStorage key of a user's preferences for one table. */
export function columnPrefsKey(username: string | null | undefined, table: string): string {
  return `${PREFIX}:${username || '-'}:${table}`;
}

export function loadColumnPrefs(key: string): ColumnPrefs {
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return EMPTY;
    const parsed = JSON.parse(raw) as Partial<ColumnPrefs>;
    const hidden = Array.isArray(parsed.hidden) ? parsed.hidden.filter((h): h is string => typeof h === 'string') : [];
    const widths: Record<string, number> = {};
    if (parsed.widths && typeof parsed.widths === 'object') {
      for (const [k, v] of Object.entries(parsed.widths)) if (typeof v === 'number' && Number.isFinite(v)) widths[k] = Math.max(MIN_COLUMN_WIDTH, v);
    }
    return { hidden, widths };
  } catch {
    return EMPTY;
  }
}

export function saveColumnPrefs(key: string, prefs: ColumnPrefs): void {
  try {
    if (prefs.hidden.length === 0 && Object.keys(prefs.widths).length === 0) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(prefs));
  } catch {
    /* storage full or unavailable: preferences are a convenience */
  }
}

export interface ColumnPrefsApi {
  prefs: ColumnPrefs;
  setHidden: (column: string, hidden: boolean) => void;
  /** Live width while dragging; `persist` on release. */
  setWidth: (column: string, width: number, persist?: boolean) => void;
  reset: () => void;
}

/** State + persistence of one table's column preferences. */
export function useColumnPrefs(key: string): ColumnPrefsApi {
  const [state, setState] = useState<{ key: string; prefs: ColumnPrefs }>(() => ({ key, prefs: loadColumnPrefs(key) }));
  // A different user or table: read its own preferences.
  const prefs = state.key === key ? state.prefs : loadColumnPrefs(key);
  if (state.key !== key) setState({ key, prefs });

  const update = useCallback(
    (fn: (p: ColumnPrefs) => ColumnPrefs, persist: boolean) => {
      setState((s) => {
        const next = fn(s.prefs);
        if (persist) saveColumnPrefs(s.key, next);
        return { key: s.key, prefs: next };
      });
    },
    [],
  );

  return {
    prefs,
    setHidden: useCallback(
      (column, hidden) =>
        update((p) => ({ ...p, hidden: hidden ? [...new Set([...p.hidden, column])] : p.hidden.filter((h) => h !== column) }), true),
      [update],
    ),
    setWidth: useCallback(
      (column, width, persist = true) => update((p) => ({ ...p, widths: { ...p.widths, [column]: Math.max(MIN_COLUMN_WIDTH, Math.round(width)) } }), persist),
      [update],
    ),
    reset: useCallback(() => update(() => EMPTY, true), [update]),
  };
}
