import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, type TestApp } from './helpers.ts';
import { multipart, png } from './storageFixtures.ts';

/** 存储管理 on local storage through the HTTP API: upload, list, download, delete, sync, upload safety. */
let t: TestApp;
let auth: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ storageMaxMb: 1 });
  auth = bearer(await login(t.app, 'admin', DEV_ADMIN_PASSWORD));
});
afterAll(() => t.close());

const upload = (name: string, content: Buffer) => {
  const body = multipart(name, content);
  return t.app.inject({ method: 'POST', url: '/api/qiNiuContent', headers: { ...auth, ...body.headers }, payload: body.payload });
};
const list = async (query = '') => (await t.app.inject({ method: 'GET', url: `/api/qiNiuContent${query}`, headers: auth })).json();

describe('storage files on local disk', () => {
  it('uploads, lists with search and paging, downloads the same bytes through a signed link, deletes', async () => {
    const content = Buffer.from('姓名,金额\n张三,100.00\n');
    const res = await upload('工资明细.csv', content);
    expect(res.statusCode, res.body).toBe(200);
    const { id, errno, data } = res.json();
    expect(errno).toBe(0);
    expect(id).toBeGreaterThan(0);
    expect(data[0]).toMatch(/^\/api\/storage\/object\?/);
    await upload('其他.txt', Buffer.from('hello'));

    const page = await list('?key=工资&page=0&size=10');
    expect(page.totalElements).toBe(1);
    expect(page.content[0]).toMatchObject({ id, key: '工资明细.csv', provider: 'local', type: '本地', bytes: content.length, suffix: 'csv', username: 'admin' });
    expect(page.content[0].objectKey).toMatch(/^file\/\d{4}-\d{2}\/[0-9a-f-]{36}\.csv$/);
    expect((await list('?size=1&page=1')).content).toHaveLength(1);
    expect((await list('?size=1&sort=key,asc')).content[0].key).toBe('其他.txt');

    const link = (await t.app.inject({ method: 'GET', url: `/api/qiNiuContent/download/${id}`, headers: auth })).json().url as string;
    const got = await t.app.inject({ method: 'GET', url: link });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(content)).toBe(true);
    expect(got.headers['content-disposition']).toMatch(/^attachment/);
    expect(got.headers['x-content-type-options']).toBe('nosniff');

    expect((await t.app.inject({ method: 'DELETE', url: `/api/qiNiuContent/${id}`, headers: auth })).statusCode).toBe(200);
    expect((await list('?key=工资')).totalElements).toBe(0);
    // the object went with the row: the old link finds nothing
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(404);
  });

  it('deletes a selection, and refuses an empty one with the spec message', async () => {
    const a = (await upload('a.txt', Buffer.from('a'))).json().id;
    const b = (await upload('b.txt', Buffer.from('b'))).json().id;
    const empty = await t.app.inject({ method: 'DELETE', url: '/api/qiNiuContent', headers: auth, payload: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('请至少选择一条记录');
    const res = await t.app.inject({ method: 'DELETE', url: '/api/qiNiuContent', headers: auth, payload: [a, b] });
    expect(res.statusCode, res.body).toBe(200);
    const ids = (await list('?size=100')).content.map((r: { id: number }) => r.id);
    expect(ids).not.toContain(a);
    expect(ids).not.toContain(b);
  });

  it('synchronises files found in the store into the list, and reports rows whose object is gone', async () => {
    const { Readable } = await import('node:stream');
    const store = await t.app.storage.active();
    await store.put('file/2020-01/手工放入.txt', Readable.from([Buffer.from('x')]), { contentType: 'text/plain' });
    const before = (await list('?size=100')).totalElements;
    const res = await t.app.inject({ method: 'POST', url: '/api/qiNiuContent/synchronize', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: '数据同步成功', added: 1, missingRemote: 0 });
    expect((await list('?key=手工放入')).content[0]).toMatchObject({ key: '手工放入.txt', bytes: 1 });
    const again = (await t.app.inject({ method: 'POST', url: '/api/qiNiuContent/synchronize', headers: auth })).json();
    expect(again.added).toBe(0);
    expect((await list('?size=100')).totalElements).toBe(before + 1);
  });

  it('refuses content that does not match its extension, HTML and scripts, and files over the cap', async () => {
    const cases: [string, Buffer, string][] = [
      ['工资.xlsx', png(2, 2), '文件内容与扩展名 xlsx 不符'],
      ['photo.png', Buffer.from('<!doctype html><script>alert(1)</script>'), '文件内容与扩展名 png 不符'],
      ['page.html', Buffer.from('<html></html>'), '不支持上传 html 类型的文件'],
      ['note.txt', Buffer.from('<script>alert(document.cookie)</script>'), '不允许上传网页或脚本内容'],
      ['run.js', Buffer.from('alert(1)'), '不支持上传 js 类型的文件'],
      ['../../../etc/passwd', Buffer.from('root:x:0:0'), '不支持上传 passwd 类型的文件'],
    ];
    for (const [name, content, message] of cases) {
      const res = await upload(name, content);
      expect(res.statusCode, `${name} ${res.body}`).toBe(400);
      expect(res.json().message, name).toBe(message);
    }
    const big = await upload('big.txt', Buffer.alloc(1024 * 1024 + 10, 'a'));
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('上传文件大小不能超过 1.0 MB');
    const noFile = await t.app.inject({ method: 'POST', url: '/api/qiNiuContent', headers: { ...auth, 'content-type': 'application/json' }, payload: {} });
    expect(noFile.statusCode).toBe(400);
    // nothing of the refused uploads was kept, not even a temporary file
    const fs = await import('node:fs');
    const path = await import('node:path');
    expect(fs.readdirSync(path.join(t.config.dataDir, 'storage', '.tmp'))).toEqual([]);
  });

  it('serves SVG only as a download, never inline', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const res = await upload('logo.svg', svg);
    expect(res.statusCode, res.body).toBe(200);
    const got = await t.app.inject({ method: 'GET', url: res.json().data[0] });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-disposition']).toMatch(/^attachment/);
    expect(got.headers['content-security-policy']).toContain('sandbox');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps the storage screen to its permission codes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/qiNiuContent' });
    expect(res.statusCode).toBe(401);
    const cfg = await t.app.inject({ method: 'GET', url: '/api/qiNiuConfig' });
    expect(cfg.statusCode).toBe(401);
  });
});
