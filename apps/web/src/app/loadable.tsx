import { type ComponentType, type ReactNode, createElement, useEffect, useState } from 'react';

/**
 * A code-split component that does not suspend.
 *
 * `React.lazy` + `Suspense` make React throttle the reveal: content that replaces a Suspense fallback is held
 * back until 300 ms after the fallback appeared (FALLBACK_THROTTLE_MS in react-dom), even when the chunk
 * arrived long before. On the way from a navigation to the first screen that happened twice (the layout, then
 * the screen) and cost ~0.5 s of idle time. A loadable renders its module at once when it is already loaded
 * (so `load()` it ahead, e.g. while `/auth/info` is on its way) and otherwise shows `fallback` and swaps the
 * module in with an ordinary state update, which React does not throttle.
 *
 * A failed load is thrown in render (for the nearest error boundary) and forgotten, so a retry loads again
 * (React.lazy remembers a failure forever).
 */
export interface Loadable<P extends object> {
  /** Start (or join) loading the module; resolves to the component. */
  load(): Promise<ComponentType<P>>;
  /** Render this: the component once loaded, `fallback` before. */
  Component: ComponentType<P>;
}

export function loadable<P extends object>(
  loader: () => Promise<{ default: ComponentType<P> }>,
  fallback: () => ReactNode,
  displayName = 'Loadable',
): Loadable<P> {
  let component: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | null = null;

  const load = (): Promise<ComponentType<P>> => {
    if (component) return Promise.resolve(component);
    pending ??= loader().then(
      (mod) => {
        component = mod.default;
        return component;
      },
      (err: unknown) => {
        pending = null;
        throw err;
      },
    );
    return pending;
  };

  // biome-ignore lint/correctness/noComponentHookFactories: one component per loadable, created once at module level by its caller
  function LoadableComponent(props: P) {
    const [state, setState] = useState<{ component?: ComponentType<P>; error?: unknown }>(() => ({ component }));
    const ready = state.component ?? component;
    useEffect(() => {
      if (ready) return;
      let live = true;
      load().then(
        (c) => live && setState({ component: c }),
        (error: unknown) => live && setState({ error: error ?? new Error('load failed') }),
      );
      return () => {
        live = false;
      };
    }, [ready]);
    if (state.error) throw state.error;
    return ready ? createElement(ready, props) : fallback();
  }
  LoadableComponent.displayName = displayName;

  return { load, Component: LoadableComponent };
}
