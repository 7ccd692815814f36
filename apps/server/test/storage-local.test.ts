import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/** The storage plugin on local disk: checked uploads under server-chosen keys, signed links, safe headers. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6300010000050001' + '0d0a2db40000000049454e44ae426082', 'hex');

describe('local storage plugin', () => {
  it('stores a checked upload under a server-chosen key and serves it through a signed, expiring link', async () => {
    const saved = await t.app.storage.save('file', '../../etc/说明.txt', Readable.from([Buffer.from('工资条说明\n')]));
    expect(saved.key).toMatch(/^file\/\d{4}-\d{2}\/[0-9a-f-]{36}\.txt$/);
    expect(saved.provider).toBe('local');
    expect(saved.filename).toBe('说明.txt');
    const store = await t.app.storage.active();
    expect(await text(await store.get(saved.key))).toBe('工资条说明\n');
    const url = await store.downloadUrl(saved.key, { filename: '说明.txt' });
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('工资条说明\n');
    expect(res.headers['content-disposition']).toContain('attachment');
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''%E8%AF%B4%E6%98%8E.txt");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // the signature covers key, name and expiry
    const tampered = url.replace(/name=[^&]+/, 'name=x.html');
    expect((await t.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(404);
    const otherKey = url.replace(/key=[^&]+/, `key=${encodeURIComponent('file/2020-01/00000000-0000-0000-0000-000000000000.txt')}`);
    expect((await t.app.inject({ method: 'GET', url: otherKey })).statusCode).toBe(404);
    const expired = t.app.storage.signLocalLink(saved.key, 'a.txt', -10);
    expect((await t.app.inject({ method: 'GET', url: expired })).statusCode).toBe(404);
  });

  it('refuses keys that would leave the storage folder', async () => {
    const store = t.app.storage.local;
    await expect(store.get('../keys/secrets.key')).rejects.toMatchObject({ status: 400 });
    await expect(store.get('/etc/passwd')).rejects.toMatchObject({ status: 400 });
    const url = t.app.storage.signLocalLink('../keys/secrets.key', 'x', 60);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(400);
  });

  it('serves raster pictures publicly by key, and nothing else on the public route', async () => {
    const saved = await t.app.storage.save('picture', 'a.png', Readable.from([png]));
    const url = await t.app.storage.imageUrl(saved, saved.key, 'a.png');
    expect(url).toBe(`/api/storage/public/${saved.key}`);
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toMatch(/^inline/);
    const file = await t.app.storage.save('file', 'b.png', Readable.from([png]));
    expect((await t.app.inject({ method: 'GET', url: `/api/storage/public/${file.key}` })).statusCode).toBe(404);
  });
});
