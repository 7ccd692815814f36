import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/** The built web app as the server sends it: SPA fallback, cache headers, pre-compressed files, page hints. */
describe('static web app', () => {
  let t: TestApp;
  let dist: string;
  const script = `console.log(${JSON.stringify('工资'.repeat(400))});`;
  const indexHtml =
    '<!doctype html><html><head><title>劳务派遣薪资</title>\n<script type="module" crossorigin src="/assets/index-abc123.js"></script>\n<link rel="modulepreload" crossorigin href="/assets/vendor-v1.js">\n</head><body></body></html>';
  // what the web build writes (apps/web/build/pageChunks.ts); vendor-v1.js is already in index.html
  const pageChunks = {
    layout: { js: ['assets/AppLayout-l1.js', 'assets/vendor-v1.js'], css: ['assets/AppLayout-l1.css'] },
    crud: { js: ['assets/ResourcePage-c1.js'], css: [] },
    screens: {
      'system/user/index': { js: ['assets/UserPage-u1.js', 'assets/AppLayout-l1.js'], css: [] },
      dashboard: { js: ['assets/DashboardPage-d1.js'], css: [] },
    },
    locales: {
      zh: { js: ['assets/zh-t1.js', 'assets/zh_CN-a1.js'], css: [] },
      en: { js: ['assets/en-t1.js'], css: [] },
      ja: { js: ['assets/ja-t1.js', 'assets/ja_JP-a1.js'], css: [] },
    },
  };
  const LOCALE = /\/assets\/(zh|en|ja)[-_]/;
  const hints = (html: string) => [...html.matchAll(/<link rel="(?:modulepreload|preload)"[^>]*href="([^"]+)"/g)].map((m) => m[1]);

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-web-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), indexHtml);
    fs.writeFileSync(path.join(dist, 'page-chunks.json'), JSON.stringify(pageChunks));
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), script);
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.gz'), zlib.gzipSync(script));
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.br'), zlib.brotliCompressSync(script));
    fs.writeFileSync(path.join(dist, 'assets', 'logo-abc.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    // a chunk the build names after the screens sharing it (vite.config.ts CHUNK_GROUPS)
    fs.writeFileSync(path.join(dist, 'assets', 'locale~AppLayout~PayslipPage-x1.js'), script);
    t = await createTestApp({ webDist: dist });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('keeps hashed assets for a year and revalidates index.html', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.body).toBe(script);
    const index = await t.app.inject({ method: 'GET', url: '/' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['cache-control']).toBe('no-cache');
  });

  it('serves chunks whose name joins the screens sharing them with ~', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/locale~AppLayout~PayslipPage-x1.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.body).toBe(script);
  });

  it('sends the pre-compressed file to browsers that accept gzip', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(String(res.headers['content-type'])).toContain('javascript');
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends brotli where accepted, plain bytes otherwise, with the type of the file', async () => {
    const br = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const plain = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    const svg = await t.app.inject({ method: 'GET', url: '/assets/logo-abc.svg' });
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
  });

  it('answers a missing or out-of-folder asset with 404, never with the app', async () => {
    for (const url of ['/assets/index-old999.js', '/assets/..%2Fpage-chunks.json', '/assets/sub/index-abc123.js', '/assets/index-abc123.js.br']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('<html');
    }
  });

  it('hints the layout and the screen the menus put at the path, once each', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/system/user?x=1' });
    expect(res.statusCode).toBe(200);
    expect(hints(res.body).filter((h) => !LOCALE.test(h))).toEqual(['/assets/vendor-v1.js', '/assets/AppLayout-l1.js', '/assets/UserPage-u1.js', '/assets/AppLayout-l1.css']);
    expect(res.body).toContain('<link rel="preload" as="style" crossorigin href="/assets/AppLayout-l1.css">');
    expect(res.body.indexOf('UserPage-u1.js')).toBeLessThan(res.body.indexOf('</head>'));
  });

  it('hints the dashboard at /, the generic page for crud menus, only the layout for unknown paths', async () => {
    expect(hints((await t.app.inject('/')).body)).toContain('/assets/DashboardPage-d1.js');
    // 入职记录 is a crud/accEntry menu (seeded)
    expect(hints((await t.app.inject('/records/accEntry')).body)).toContain('/assets/ResourcePage-c1.js');
    const unknown = hints((await t.app.inject('/no/such/page')).body);
    expect(unknown).toContain('/assets/AppLayout-l1.js');
    expect(unknown.some((h) => /UserPage|Dashboard|ResourcePage/.test(h))).toBe(false);
  });

  it('hints only the texts on the login and error pages', async () => {
    for (const url of ['/login', '/login?redirect=%2Fsystem%2Fuser', '/404', '/401', '/redirect/system/user']) {
      const res = await t.app.inject({ url, headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
      expect(hints(res.body), url).toEqual(['/assets/vendor-v1.js', '/assets/zh-t1.js', '/assets/zh_CN-a1.js']);
    }
  });

  it("hints Chinese (the fallback) and the visitor's language: cookie, then Accept-Language, else English", async () => {
    const localesOf = async (headers: Record<string, string>) =>
      hints((await t.app.inject({ url: '/login', headers })).body)
        .filter((h) => LOCALE.test(h))
        .map((h) => h.replace('/assets/', ''));
    expect(await localesOf({ cookie: 'dp-token=x; language=ja', 'accept-language': 'en-US' })).toEqual(['zh-t1.js', 'zh_CN-a1.js', 'ja-t1.js', 'ja_JP-a1.js']);
    expect(await localesOf({ 'accept-language': 'fr-FR, ja;q=0.5, en;q=0.8' })).toEqual(['zh-t1.js', 'zh_CN-a1.js', 'en-t1.js']);
    expect(await localesOf({ 'accept-language': 'fr-FR' })).toEqual(['zh-t1.js', 'zh_CN-a1.js', 'en-t1.js']);
    expect(await localesOf({ 'accept-language': 'zh-CN' })).toEqual(['zh-t1.js', 'zh_CN-a1.js']);
  });

  it('answers unknown screens with the app and unknown API paths with 404', async () => {
    const screen = await t.app.inject({ method: 'GET', url: '/system/user' });
    expect(screen.statusCode).toBe(200);
    expect(screen.body).toContain('劳务派遣薪资');
    const api = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(api.statusCode).toBe(404);
    expect(api.json().message).toBe('接口不存在');
  });
});
