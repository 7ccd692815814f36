import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, type TestApp } from './helpers.ts';
import { multipart, png, type S3Standin, startS3rver } from './storageFixtures.ts';

/** 图床管理 (/api/pictures): images checked by content, width and height read, URLs that work, deletes. */
let t: TestApp;
let auth: Record<string, string>;
beforeAll(async () => {
  // s3rver listens on loopback: allowed as an on-premises endpoint would be
  t = await createTestApp({ storageEndpointAllowlist: ['127.0.0.1'] });
  auth = bearer(await login(t.app, 'admin', DEV_ADMIN_PASSWORD));
});
afterAll(() => t.close());

const upload = (name: string, content: Buffer, headers = auth) => {
  const body = multipart(name, content);
  return t.app.inject({ method: 'POST', url: '/api/pictures', headers: { ...headers, ...body.headers }, payload: body.payload });
};
const list = async (query = '') => (await t.app.inject({ method: 'GET', url: `/api/pictures${query}`, headers: auth })).json();

describe('pictures on local storage', () => {
  it('stores an image with its size, lists it by file name, and its URL serves the image', async () => {
    const image = png(7, 5);
    const res = await upload('营业执照.png', image);
    expect(res.statusCode, res.body).toBe(201);
    const pic = res.json();
    expect(pic).toMatchObject({ filename: '营业执照.png', width: 7, height: 5, size: image.length, username: 'admin' });
    await upload('logo.png', png(2, 2));

    const found = await list('?filename=执照');
    expect(found.totalElements).toBe(1);
    expect(found.content[0].id).toBe(pic.id);
    expect((await list('?blurry=logo')).content[0].filename).toBe('logo.png');
    expect((await list('?size=1&page=1')).content).toHaveLength(1);

    // no token needed: an img tag sends none
    const got = await t.app.inject({ method: 'GET', url: found.content[0].url });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.rawPayload.equals(image)).toBe(true);
  });

  it('refuses what is not a PNG, JPEG, GIF or WebP image by content', async () => {
    const html = await upload('a.png', Buffer.from('<html><script>alert(1)</script></html>'));
    expect(html.statusCode).toBe(400);
    expect(html.json().message).toBe('文件内容与扩展名 png 不符');
    const svg = await upload('a.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
    expect(svg.json().message).toBe('不支持上传 svg 类型的文件');
    const pngAsJpg = await upload('a.jpg', png(2, 2));
    expect(pngAsJpg.json().message).toBe('文件内容与扩展名 jpg 不符');
    // a PNG whose header says 0 x 0: no size can be read
    const zero = png(1, 1);
    zero.writeUInt32BE(0, 16);
    zero.writeUInt32BE(0, 20);
    const broken = await upload('broken.png', zero);
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toBe('无法读取图片尺寸，图片可能已损坏');
    const big = await upload('big.png', Buffer.concat([png(1, 1), Buffer.alloc(10 * 1024 * 1024)]));
    expect(big.statusCode).toBe(413);
  });

  it('deletes one or a selection; an empty selection is refused with the spec message', async () => {
    const a = (await upload('d1.png', png(1, 1))).json();
    const b = (await upload('d2.png', png(1, 1))).json();
    const c = (await upload('d3.png', png(1, 1))).json();
    const empty = await t.app.inject({ method: 'DELETE', url: '/api/pictures', headers: auth, payload: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('请至少选择一条记录');
    expect((await t.app.inject({ method: 'DELETE', url: `/api/pictures/${a.id}`, headers: auth })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: a.url })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/pictures', headers: auth, payload: [b.id, c.id] })).statusCode).toBe(200);
    expect((await list('?filename=d')).totalElements).toBe(0);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/pictures/${a.id}`, headers: auth })).statusCode).toBe(404);
  });

  it('answers to PICTURE codes only', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/pictures' })).statusCode).toBe(401);
  });
});

describe('pictures in a private bucket', () => {
  let s3: S3Standin;
  beforeAll(async () => {
    s3 = await startS3rver('pictures');
    const cfg = { provider: 's3', accessKey: 'S3RVER', secretKey: 'pic-secret', bucket: s3.bucket, host: 'https://img.example.test', zone: '华南', type: '私有', endpoint: s3.endpoint };
    const res = await t.app.inject({ method: 'PUT', url: '/api/qiNiuConfig', headers: auth, payload: cfg });
    expect(res.statusCode, res.body).toBe(204);
  });
  afterAll(() => s3.close());

  it('lists presigned URLs that serve the image', async () => {
    const image = png(4, 3);
    const pic = (await upload('签章.png', image)).json();
    expect(pic.url).toContain('X-Amz-Signature=');
    const got = await fetch(pic.url);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(image)).toBe(true);
    // pictures stored locally before the switch still work
    const older = (await list('?filename=logo')).content[0];
    expect(older.url).toMatch(/^\/api\/storage\/public\/picture\//);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/pictures/${pic.id}`, headers: auth })).statusCode).toBe(200);
    expect((await fetch(pic.url)).status).toBe(404);
  });
});
