import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Store } from '../src/core/storage/s3Store.ts';
import { qiniuUploadToken } from '../src/modules/storage/uploadToken.ts';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, type TestApp } from './helpers.ts';
import { multipart, png, type S3Standin, startS3rver } from './storageFixtures.ts';

/**
 * 存储管理 on an S3-compatible bucket (s3rver on loopback). s3rver checks no signatures, so the access rule that
 * a private bucket never yields an unsigned URL is asserted on our answers, not on the server's behaviour.
 */
let t: TestApp;
let s3: S3Standin;
let auth: Record<string, string>;
// s3rver knows the access key S3RVER and checks no signature, so any secret works; this one must never leak
const SECRET = 'kodo-secret-Zx81-never-shown';

beforeAll(async () => {
  s3 = await startS3rver();
  // s3rver listens on loopback: allowed as an on-premises endpoint would be
  t = await createTestApp({ storageEndpointAllowlist: ['127.0.0.1'] });
  auth = bearer(await login(t.app, 'admin', DEV_ADMIN_PASSWORD));
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

const config = (over: Record<string, unknown> = {}) => ({
  provider: 's3',
  accessKey: 'S3RVER',
  secretKey: SECRET,
  bucket: s3.bucket,
  host: 'https://files.example.test',
  zone: '华东',
  type: '私有',
  endpoint: s3.endpoint,
  ...over,
});
const saveConfig = (body: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: '/api/qiNiuConfig', headers: auth, payload: body });
const upload = (name: string, content: Buffer, url = '/api/qiNiuContent') => {
  const body = multipart(name, content);
  return t.app.inject({ method: 'POST', url, headers: { ...auth, ...body.headers }, payload: body.payload });
};
const list = async (query = '') => (await t.app.inject({ method: 'GET', url: `/api/qiNiuContent${query}`, headers: auth })).json();
const downloadUrl = async (id: number) => (await t.app.inject({ method: 'GET', url: `/api/qiNiuContent/download/${id}`, headers: auth })).json().url as string;

describe('storage configuration', () => {
  it('tests the settings before saving them, with the provider reason', async () => {
    const wrong = await saveConfig(config({ accessKey: 'NOT-A-KEY' }));
    expect(wrong.statusCode).toBe(400);
    // a known S3 error code, never the provider's message text
    expect(wrong.json().message).toBe('存储配置测试失败：InvalidAccessKeyId');
    const noType = await saveConfig(config({ type: null }));
    expect(noType.json().message).toBe('空间类型不能为空');
    const badHost = await saveConfig(config({ host: 'javascript:alert(1)' }));
    expect(badHost.json().message).toBe('外链域名必须是 http 或 https 地址');
    const badZone = await saveConfig(config({ zone: '火星' }));
    expect(badZone.statusCode).toBe(400);
    expect((await saveConfig(config())).statusCode).toBe(204);
  });

  it('never returns the secret key, keeps it on a masked or empty save, and never logs it', async () => {
    const got = await t.app.inject({ method: 'GET', url: '/api/qiNiuConfig', headers: auth });
    expect(got.json()).toMatchObject({ provider: 's3', accessKey: 'S3RVER', secretKey: '******', hasSecret: true, bucket: s3.bucket, zone: '华东', type: '私有' });
    expect(got.body).not.toContain(SECRET);
    expect((await saveConfig(config({ secretKey: '******' }))).statusCode).toBe(204);
    expect((await saveConfig(config({ secretKey: '' }))).statusCode).toBe(204);
    // still works: the stored secret was kept (an upload goes through the bucket)
    expect((await upload('kept.txt', Buffer.from('kept'))).statusCode).toBe(200);
    const raw = await t.app.ctx.db.selectFrom('tool_storage_config' as never).selectAll().executeTakeFirst();
    expect(JSON.stringify(raw)).not.toContain(SECRET);
    expect(String((raw as { secret_key: string }).secret_key)).toMatch(/^v1:/);
    const logs = await t.app.ctx.db.selectFrom('sys_log').select(['params', 'description']).execute();
    const configLogs = logs.filter((l) => l.description === '修改存储配置');
    expect(configLogs.length).toBeGreaterThan(0);
    for (const l of configLogs) expect(String(l.params)).not.toContain(SECRET);
  });
});

describe('files in an S3 bucket', () => {
  it('uploads, lists, hands out a presigned URL that serves the same bytes, deletes the object with the row', async () => {
    const content = Buffer.concat([Buffer.from('工资条 '), Buffer.alloc(200_000, 7)]).toString('latin1');
    const bytes = Buffer.from(content, 'latin1');
    const res = await upload('报表.txt', bytes);
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json();
    const row = (await list('?key=报表')).content[0];
    expect(row).toMatchObject({ id, key: '报表.txt', provider: 's3', bucket: s3.bucket, type: '私有', bytes: bytes.length });

    const url = await downloadUrl(id);
    expect(url.startsWith(`${s3.endpoint}/${s3.bucket}/file/`)).toBe(true);
    expect(url).toContain('X-Amz-Signature=');
    expect(Number(new URL(url).searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(300);
    const got = await fetch(url);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    expect(got.headers.get('content-disposition')).toMatch(/^attachment/);

    expect((await t.app.inject({ method: 'DELETE', url: `/api/qiNiuContent/${id}`, headers: auth })).statusCode).toBe(200);
    expect((await fetch(url)).status).toBe(404);
  });

  it('a private bucket never yields an unsigned URL; a public one yields host/key', async () => {
    const ids = [(await upload('a.png', png(3, 3))).json().id, (await upload('b.pdf', Buffer.from('%PDF-1.4\n%%EOF\n'))).json().id];
    for (const id of ids) {
      const url = new URL(await downloadUrl(id));
      expect(url.searchParams.get('X-Amz-Signature'), String(url)).toMatch(/^[0-9a-f]{64}$/);
      expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^S3RVER\//);
    }
    // the upload answer too
    const answer = (await upload('c.txt', Buffer.from('c'))).json().data[0] as string;
    expect(answer).toContain('X-Amz-Signature=');

    expect((await saveConfig(config({ type: '公开' }))).statusCode).toBe(204);
    const pub = (await upload('d.txt', Buffer.from('d'))).json();
    expect(pub.data[0]).toMatch(/^https:\/\/files\.example\.test\/file\/\d{4}-\d{2}\/[0-9a-f-]{36}\.txt$/);
    // rows keep the type they were written with: the earlier private files still sign
    expect(await downloadUrl(ids[0])).toContain('X-Amz-Signature=');
    expect((await saveConfig(config({ type: '私有' }))).statusCode).toBe(204);
  });

  it('batch delete removes the objects and the rows; synchronise registers what is only in the bucket', async () => {
    const a = (await upload('x1.txt', Buffer.from('1'))).json().id;
    const b = (await upload('x2.txt', Buffer.from('2'))).json().id;
    const res = await t.app.inject({ method: 'DELETE', url: '/api/qiNiuContent', headers: auth, payload: [a, b] });
    expect(res.statusCode).toBe(200);
    expect((await list('?key=x')).content.filter((r: { key: string }) => /^x\d/.test(r.key))).toHaveLength(0);

    const store = (await t.app.storage.active()) as S3Store;
    await (await store.s3()).client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'reports/2026-11/直传.csv', Body: 'a,b\n' }));
    const sync = await t.app.inject({ method: 'POST', url: '/api/qiNiuContent/synchronize', headers: auth });
    expect(sync.json()).toMatchObject({ message: '数据同步成功', added: 1, missingRemote: 0 });
    const row = (await list('?key=直传')).content[0];
    expect(row).toMatchObject({ key: '直传.csv', objectKey: 'reports/2026-11/直传.csv', bytes: 4, provider: 's3' });
    expect((await fetch(await downloadUrl(row.id))).status).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/qiNiuContent/synchronize', headers: auth })).json().added).toBe(0);
  });

  it('gives a direct-upload URL scoped to one server-chosen key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/qiniu/upload/token?filename=直传文件.xlsx', headers: auth });
    expect(res.statusCode).toBe(200);
    const { provider, method, uploadUrl, key } = res.json();
    expect({ provider, method }).toEqual({ provider: 's3', method: 'PUT' });
    expect(key).toMatch(/^file\/\d{4}-\d{2}\/[0-9a-f-]{36}\.xlsx$/);
    const put = await fetch(uploadUrl, { method: 'PUT', body: 'PK', headers: { 'content-type': 'application/octet-stream' } });
    expect(put.status).toBe(200);
    const refused = await t.app.inject({ method: 'GET', url: '/qiniu/upload/token?filename=x.html', headers: auth });
    expect(refused.statusCode).toBe(400);
  });
});

describe('avatars through the same plugin', () => {
  it('stores an avatar in the bucket and serves it from there', async () => {
    const image = png(5, 5);
    const res = await upload('me.png', image, '/api/users/updateAvatar');
    expect(res.statusCode, res.body).toBe(200);
    const name = res.json().avatar as string;
    const store = (await t.app.storage.active()) as S3Store;
    expect(await store.head(`avatar/${name}`)).toMatchObject({ size: image.length });
    const got = await t.app.inject({ method: 'GET', url: `/avatar/${name}` });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(image)).toBe(true);
  });
});

describe('Qiniu upload token', () => {
  it('matches the frozen vector computed with the qiniu SDK', () => {
    expect(qiniuUploadToken('test-access-key', 'test-secret-key', { scope: 'payroll-bucket', deadline: 1795485379 })).toBe(
      'test-access-key:6gZ9NV7dBQ3WLuSLLRkReGIGuaI=:eyJzY29wZSI6InBheXJvbGwtYnVja2V0IiwiZGVhZGxpbmUiOjE3OTU0ODUzNzl9',
    );
  });
});
