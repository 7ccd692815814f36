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

function set(next: VisitedTab[]): void {
  tabs = next;
  for (const l of listeners) l();
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
}
