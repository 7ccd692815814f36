import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/** The built web app as the server sends it: SPA fallback, cache headers, pre-compressed files. */
describe('static web app', () => {
  let t: TestApp;
  let dist: string;
  const script = `console.log(${JSON.stringify('工资'.repeat(400))});`;

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-web-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>劳务派遣薪资</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), script);
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.gz'), zlib.gzipSync(script));
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

  it('sends the pre-compressed file to browsers that accept gzip', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(String(res.headers['content-type'])).toContain('javascript');
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(script);
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
