import { defineConfig } from 'vitest/config';

// Projects: pure shared code; the server API (real database through app.inject); web components (jsdom);
// browser tests (real server + Debian chromium, run separately by scripts/test.mjs).
/**
 * Server test files that change process-wide registries (they add a resource definition to RESOURCES and its
 * migration to MIGRATIONS, as a newcomer following the README's recipe would): they run in their own module graph so
 * that no other file's app sees their resource. `npm test` runs them with the rest (project `server-isolated`).
 */
const SERVER_TESTS_NEEDING_ISOLATION = ['apps/server/test/plain-resource-recipe.test.ts', 'apps/server/test/refmany-tree-resource.test.ts'];

export default defineConfig({
  test: {
    // React's scheduler runs its last queued work on a Node timer; when a web test file's jsdom has been torn down
    // first, that work meets a missing `window` and vitest reports it against whichever file the worker runs next
    // (setup.ts waits for antd's static roots, which covers most but not all of it on a loaded machine). Only that
    // exact teardown error is dropped; every other unhandled error still fails the run.
    onUnhandledError(error): boolean | void {
      const stack = String(error.stack ?? '');
      if (error.name === 'ReferenceError' && error.message === 'window is not defined' && /react-dom|scheduler/.test(stack)) return false;
    },
    projects: [
      { test: { name: 'shared', include: ['packages/shared/src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          exclude: SERVER_TESTS_NEEDING_ISOLATION,
          environment: 'node',
          testTimeout: 30000,
          hookTimeout: 60000,
          // The server files share one module graph per worker instead of importing the whole app afresh for each
          // file: every file builds its own app on its own throwaway database (test/helpers.ts), so nothing but the
          // imports is shared, and the imports were about half of the suite's time (measured on 16 files: 514 s
          // isolated, 276 s shared, same 96 tests passing).
          isolate: false,
        },
      },
      {
        test: {
          name: 'server-isolated',
          include: SERVER_TESTS_NEEDING_ISOLATION,
          environment: 'node',
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
          // antd in jsdom is slow when the suites run in parallel
          testTimeout: 20000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['apps/web/e2e/**/*.e2e.ts'],
          environment: 'node',
          testTimeout: 120000,
          hookTimeout: 180000,
          fileParallelism: false,
          // a browser under CI load can take more than the default 1 s to show a message or a row
          expect: { poll: { timeout: 10000 } },
        },
      },
    ],
  },
});
