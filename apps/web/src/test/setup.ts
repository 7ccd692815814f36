// jsdom polyfills for antd, and the app's i18n in Chinese (the default UI language).
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { initI18n } from '../app/i18n';

// findBy*/waitFor wait up to 5 s (default 1 s): antd screens render slowly in jsdom when CI runs the
// server suites in parallel, and a slow machine is not a failing screen.
configure({ asyncUtilTimeout: 5000 });

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, configurable: true, value: ResizeObserverStub });
  Object.defineProperty(globalThis, 'ResizeObserver', { writable: true, configurable: true, value: ResizeObserverStub });
}

// antd reads computed styles of pseudo elements (scrollbar size); jsdom does not implement that argument
const realGetComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (elt: Element, pseudo?: string | null) => realGetComputedStyle(elt, pseudo ? undefined : pseudo);

// jsdom's scrollTo only logs "not implemented"; scrollIntoView is missing
window.scrollTo = (() => undefined) as typeof window.scrollTo;
if (!HTMLElement.prototype.scrollIntoView) HTMLElement.prototype.scrollIntoView = () => undefined;

beforeAll(async () => {
  await initI18n('zh');
});

afterEach(() => {
  cleanup();
});

// antd's static notifications/modals live in their own React roots and finish leave animations after the
// last test; let them settle before jsdom is torn down (else React touches a missing `window`).
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 300));
});
