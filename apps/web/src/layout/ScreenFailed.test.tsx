import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../crud/testUtils';
import { isChunkLoadError, ScreenFailed } from './ScreenHost';

beforeAll(async () => {
  await setupI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const CHROME = 'Failed to fetch dynamically imported module: http://localhost:3000/assets/ContractWarnPage-Bx1.js';

describe('a screen that failed (U21)', () => {
  it('recognises a chunk that could not be loaded in every browser wording', () => {
    for (const m of [CHROME, 'error loading dynamically imported module: x.js', 'Importing a module script failed.', 'Unable to preload CSS for /assets/a.css']) {
      expect(isChunkLoadError(new Error(m)), m).toBe(true);
    }
    expect(isChunkLoadError(new Error("Cannot read properties of undefined (reading 'map')"))).toBe(false);
  });

  it('says in the UI language that the page could not be loaded and offers a reload, not the browser text', () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    render(<ScreenFailed error={new TypeError(CHROME)} retry={() => undefined} />);
    expect(screen.getByText('页面文件加载失败')).toBeTruthy();
    expect(screen.getByText(/请刷新页面（F5）后再打开/)).toBeTruthy();
    expect(document.body.textContent).not.toContain('Failed to fetch');
    fireEvent.click(screen.getByTestId('screen-reload'));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('keeps 重试 for other errors', () => {
    const retry = vi.fn();
    render(<ScreenFailed error={new Error('boom')} retry={retry} />);
    expect(screen.getByText('页面出错了')).toBeTruthy();
    fireEvent.click(screen.getByRole('button'));
    expect(retry).toHaveBeenCalled();
  });
});
