import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { antdStaticStyles } from './build/antdStaticStyles.ts';
import { pageChunks } from './build/pageChunks.ts';

const API_TARGET = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:8000';
const proxied = ['/api', '/auth', '/avatar', '/file'];

/**
 * Chunks by what a visit loads, not one per shared module. Left to automatic splitting, the modules shared by
 * different sets of lazy screens became ~150 files, 76 of them on a first visit to the users screen: over HTTP/1.1's
 * six connections per host they queued for about a second, and `/auth/info` and `/api/menus/build` waited behind
 * them (findings' performance list; bench/web-users.ts). Five groups, highest priority first, each taking a
 * module's dependencies with it (so no chunk runs before what it needs):
 * - `boot`: what the entry imports statically (the login page needs it all anyway);
 * - `login`: the login page and what it needs beyond that (so the login page loads no layout or list code);
 * - `locale`: the texts and the antd/dayjs locale of each language, by which languages use them (a login page
 *   loads its own language's, not the layout's code that shares a helper with them);
 * - `layout`: the layout after login and everything it needs (every logged-in page loads it);
 * - `crud`: the generic list/dialog/Excel screens' code, which most screens use.
 * A screen's own chunk then holds what only it needs. A first visit to the users screen loads 12 JS files (was 76;
 * 543 KB gzip, was 563 KB) and is usable in 0.82 s cold (was 1.02 s); the login page 266 KB gzip in 7 files (was
 * 276 KB). The first screen after login (dashboard) loads the crud chunk too: 280 KB more where it loaded 245 KB.
 */
const CHUNK_GROUPS = [
  { name: 'boot', tags: ['$initial' as const], priority: 40 },
  { name: 'login', test: /src[\\/]pages[\\/]Login\.tsx$/, priority: 35 },
  { name: 'locale', test: /antd[\\/]es[\\/]locale[\\/]|dayjs[\\/]locale[\\/]|src[\\/]locales[\\/]/, entriesAware: true, priority: 30 },
  { name: 'layout', test: /src[\\/]layout[\\/]AppLayout\.tsx$/, priority: 20 },
  { name: 'crud', test: /src[\\/]crud[\\/]ResourcePage\.tsx$/, priority: 10 },
];

// The web app: built to apps/web/dist (served by the server with SPA fallback); in dev, API calls go to the
// server on :8000. Screens are lazy chunks; the login page only needs the entry + its own chunk.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), antdStaticStyles(), pageChunks()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((p) => [p, { target: API_TARGET, changeOrigin: true }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: process.env.WEB_MANIFEST === '1',
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: { codeSplitting: { groups: CHUNK_GROUPS } },
      onLog(level, log, handler) {
        // icons.tsx lazy-loads any antd icon by name; icons also imported statically just stay where they are
        if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT' && log.message.includes('@ant-design/icons')) return;
        handler(level, log);
      },
    },
  },
});
