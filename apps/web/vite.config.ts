import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { antdStaticStyles } from './build/antdStaticStyles.ts';
import { pageChunks } from './build/pageChunks.ts';

const API_TARGET = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:8000';
const proxied = ['/api', '/auth', '/avatar', '/file'];

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
      onLog(level, log, handler) {
        // icons.tsx lazy-loads any antd icon by name; icons also imported statically just stay where they are
        if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT' && log.message.includes('@ant-design/icons')) return;
        handler(level, log);
      },
    },
  },
});
