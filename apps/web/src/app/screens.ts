import { Spin } from 'antd';
import { type ComponentType, createContext, createElement, useContext } from 'react';
import { moduleScreens, screenPrefetches } from '../modules/registry';
import NotImplemented from '../pages/NotImplemented';
import { type Loadable, loadable } from './loadable';

/**
 * Menu `component` keys to lazily loaded screens. `crud/<resource>` is the generic resource page for
 * RESOURCES[<resource>] unless `modules/registry.ts` names a screen for that key; other keys come from the
 * registry; unknown keys show a placeholder.
 */

export type Screen = ComponentType;

const cache = new Map<string, Loadable<object>>();

const screenLoading = () => createElement('div', { className: 'app-screen-loading' }, createElement(Spin));

/** Is there a real screen for this key? */
export function hasScreen(key: string | null | undefined): boolean {
  if (!key) return false;
  return key.startsWith('crud/') ? key.length > 5 : key in moduleScreens;
}

/**
 * The screen component of a menu component key (stable per key, so React keeps its state). `fallback` is
 * used instead of the "not implemented" placeholder for keys without a screen.
 */
export function resolveScreen(key: string | null | undefined): Screen {
  return screenOf(key ?? '').Component;
}

/** Start loading the code of a screen (e.g. the one a page load is heading for, before the layout is up). */
export function preloadScreen(key: string | null | undefined): Promise<unknown> {
  return screenOf(key ?? '').load();
}

/** Start the first requests of a screen that declares them (modules/registry.ts screenPrefetches). */
export function prefetchScreenData(key: string | null | undefined): void {
  if (key) screenPrefetches[key]?.();
}

function screenOf(k: string): Loadable<object> {
  const hit = cache.get(k);
  if (hit) return hit;
  let screen: Loadable<object>;
  // a generic screen with its own overrides is registered under its crud/ key (e.g. crud/taxDeduction)
  if (k.startsWith('crud/') && k.length > 5 && !moduleScreens[k]) {
    const resource = k.slice(5);
    screen = loadable(
      async () => {
        const mod = await import('../crud/ResourcePage');
        const Page = mod.default as ComponentType<{ resource: string }>;
        // biome-ignore lint/correctness/noComponentHookFactories: one stable component per screen key (cached below)
        const CrudScreen = () => createElement(Page, { resource });
        CrudScreen.displayName = `CrudScreen(${resource})`;
        return { default: CrudScreen };
      },
      screenLoading,
      `Screen(${k})`,
    );
  } else if (moduleScreens[k]) {
    screen = loadable(moduleScreens[k], screenLoading, `Screen(${k})`);
  } else {
    // biome-ignore lint/correctness/noComponentHookFactories: one stable component per screen key (cached below)
    const Missing = () => createElement(NotImplemented, { screenKey: k });
    Missing.displayName = `NotImplemented(${k})`;
    screen = { load: () => Promise.resolve(Missing), Component: Missing };
  }
  cache.set(k, screen);
  return screen;
}

/** Where a screen is shown: its tab path and whether that tab is the visible one (screens stay mounted). */
export interface ScreenInfo {
  path: string;
  active: boolean;
}

export const ScreenContext = createContext<ScreenInfo>({ path: '', active: true });

/** The tab a screen lives in (e.g. to pause polling while hidden). */
export function useScreen(): ScreenInfo {
  return useContext(ScreenContext);
}
