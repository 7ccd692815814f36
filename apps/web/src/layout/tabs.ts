import { useSyncExternalStore } from 'react';

/**
 * The visited-tags bar: the pages opened in this session. Every open tab's screen stays mounted (hidden when
 * not active) so switching tabs keeps its state; `refreshKey` remounts one screen.
 */
export interface VisitedTab {
  /** Path without query, the tab's identity. */
  path: string;
  /** Path with query, where clicking the tab goes. */
  fullPath: string;
  title: string;
  component: string;
  affix: boolean;
  refreshKey: number;
}

let tabs: VisitedTab[] = [];
const listeners = new Set<() => void>();

/** The tabs survive a reload of the browser tab (sessionStorage), for the user who opened them. */
const STORAGE_KEY = 'visitedTabs';
type StoredTab = Pick<VisitedTab, 'path' | 'fullPath'>;
let owner: string | undefined;
/** What the previous page load left, read before this load's first tab replaces it. */
let stored: { user?: string; tabs?: StoredTab[] } | null = readStored();

function readStored(): { user?: string; tabs?: StoredTab[] } | null {
  try {
    const raw = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(STORAGE_KEY);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

function persist(): void {
  if (owner === undefined) return;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ user: owner, tabs: tabs.map((t) => ({ path: t.path, fullPath: t.fullPath })) }));
  } catch {
    // storage full or disabled: the tabs just do not survive a reload
  }
}

function set(next: VisitedTab[]): void {
  tabs = next;
  persist();
  for (const l of listeners) l();
}

/**
 * After a reload: reopen the tabs `user` had (in their order, behind the pinned ones), each looked up by `find`
 * (the user's current routes; a page they may no longer open is dropped). Runs once per page load.
 */
export function restoreTabs(user: string, find: (path: string) => Omit<VisitedTab, 'refreshKey' | 'fullPath'> | undefined): void {
  const previous = stored;
  stored = null;
  owner = user;
  if (!previous || previous.user !== user || !Array.isArray(previous.tabs)) {
    persist();
    return;
  }
  const known = new Set(tabs.map((t) => t.path));
  const restored: VisitedTab[] = [];
  for (const s of previous.tabs) {
    const route = typeof s?.path === 'string' ? find(s.path) : undefined;
    if (!route || known.has(route.path)) continue;
    known.add(route.path);
    restored.push({ ...route, fullPath: typeof s.fullPath === 'string' && s.fullPath.startsWith(route.path) ? s.fullPath : route.path, refreshKey: 0 });
  }
  set([...tabs.filter((t) => t.affix), ...restored.filter((t) => t.affix), ...restored.filter((t) => !t.affix), ...tabs.filter((t) => !t.affix)]);
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useVisitedTabs(): VisitedTab[] {
  return useSyncExternalStore(subscribe, () => tabs, () => tabs);
}

export function getVisitedTabs(): VisitedTab[] {
  return tabs;
}

/** Open (or update) the tab of a page; pinned tabs stay first. */
export function openTab(tab: Omit<VisitedTab, 'refreshKey'>): void {
  const existing = tabs.find((t) => t.path === tab.path);
  if (existing) {
    if (existing.fullPath !== tab.fullPath || existing.title !== tab.title || existing.component !== tab.component) {
      set(tabs.map((t) => (t.path === tab.path ? { ...t, ...tab } : t)));
    }
    return;
  }
  const added = { ...tab, refreshKey: 0 };
  set(tab.affix ? [...tabs.filter((t) => t.affix), added, ...tabs.filter((t) => !t.affix)] : [...tabs, added]);
}

/** Close a tab (pinned tabs cannot be closed); returns the remaining tabs. */
export function closeTab(path: string): VisitedTab[] {
  set(tabs.filter((t) => t.path !== path || t.affix));
  return tabs;
}

export function closeOtherTabs(path: string): VisitedTab[] {
  set(tabs.filter((t) => t.path === path || t.affix));
  return tabs;
}

export function closeAllTabs(): VisitedTab[] {
  set(tabs.filter((t) => t.affix));
  return tabs;
}

/** Remount the screen of a tab (the /redirect/* refresh). */
export function refreshTab(path: string): void {
  set(tabs.map((t) => (t.path === path ? { ...t, refreshKey: t.refreshKey + 1 } : t)));
}

/** Forget every tab (logout). */
export function resetTabs(): void {
  set([]);
  owner = undefined;
  stored = null;
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing stored
  }
}

/** Tests: read sessionStorage again as a fresh page load would. */
export function reloadTabsForTests(): void {
  tabs = [];
  owner = undefined;
  stored = readStored();
}
