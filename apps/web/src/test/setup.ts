// jsdom polyfills for antd, and the app's i18n in Chinese (the default UI language).
import { cleanup, configure } from '@testing-library/react';
import { Modal, message, notification } from 'antd';
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
// last test; close them and let React settle before jsdom is torn down (else React's scheduler touches a missing
// `window` and vitest reports an unhandled error). On a loaded machine the leave animation takes longer than a fixed
// pause, so wait until the static containers are empty (at most 3 s), then one more beat for React's last work.
afterAll(async () => {
  notification.destroy();
  message.destroy();
  Modal.destroyAll();
  const deadline = Date.now() + 3000;
  const busy = () => document.querySelector('.ant-notification-notice, .ant-message-notice, .ant-modal-root .ant-modal') !== null;
  while (busy() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => setTimeout(resolve, 300));
});
