import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/** Issue 27: /login is sent with a hint for the login page's own code, as other pages get their screen's. */
describe('login page hints', () => {
  let t: TestApp;
  let dist: string;
  const indexHtml = '<!doctype html><html><head><title>劳务派遣薪资</title>\n<script type="module" crossorigin src="/assets/index-abc123.js"></script>\n</head><body></body></html>';
  // what the web build writes (apps/web/build/pageChunks.ts), with the login page's files
  const pageChunks = {
    layout: { js: ['assets/AppLayout-l1.js'], css: [] },
    crud: { js: ['assets/ResourcePage-c1.js'], css: [] },
    login: { js: ['assets/Login-g1.js'], css: ['assets/Login-g1.css'] },
    screens: { dashboard: { js: ['assets/DashboardPage-d1.js'], css: [] } },
    locales: { zh: { js: ['assets/zh-t1.js'], css: [] } },
  };
  const hints = (html: string) => [...html.matchAll(/<link rel="(?:modulepreload|preload)"[^>]*href="([^"]+)"/g)].map((m) => m[1]);

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-web-login-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), indexHtml);
    fs.writeFileSync(path.join(dist, 'page-chunks.json'), JSON.stringify(pageChunks));
    t = await createTestApp({ webDist: dist });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('hints the texts and the login page on /login, and the login page nowhere else', async () => {
    for (const url of ['/login', '/login?redirect=%2Fsystem%2Fuser']) {
      const res = await t.app.inject({ url, headers: { 'accept-language': 'zh-CN' } });
      expect(hints(res.body), url).toEqual(['/assets/zh-t1.js', '/assets/Login-g1.js', '/assets/Login-g1.css']);
      expect(res.body).toContain('<link rel="preload" as="style" crossorigin href="/assets/Login-g1.css">');
    }
    for (const url of ['/', '/404', '/redirect/system/user']) expect(hints((await t.app.inject(url)).body).join(), url).not.toContain('Login-g1');
  });
});
