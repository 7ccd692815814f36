import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheNamespace } from '../src/core/cacheNamespaces.ts';
import { createTestApp, login, loginResponse, bearer, DEV_ADMIN_PASSWORD, type TestApp } from './helpers.ts';

/**
 * 缓存管理 (`api/redis`) on the in-process cache and on a real Redis (TEST_REDIS_URL, else the local
 * redis://127.0.0.1:6379 when it answers; skipped otherwise).
 */
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

async function redisAnswers(url: string): Promise<boolean> {
  const { Redis } = await import('ioredis');
  const r = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}
const haveRedis = await redisAnswers(REDIS_URL);

// a rebuildable namespace of this test's own, beside the application's real ones (authz)
const LOOKUPS = cacheNamespace('testLookups', 'rebuildable', '测试用查找缓存');
const RATE_LIMIT = 6;

for (const kind of ['memory', 'redis'] as const) {
  describe.skipIf(kind === 'redis' && !haveRedis)(`cache manager on ${kind}`, () => {
    let t: TestApp;
    let admin: string;
    let redis: import('ioredis').Redis | undefined;
    const foreignKey = `other-app:${crypto.randomBytes(4).toString('hex')}`;
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(admin) });
    const del = (url: string, payload?: unknown) =>
      payload === undefined
        ? t.app.inject({ method: 'DELETE', url, headers: bearer(admin) })
        : t.app.inject({ method: 'DELETE', url, headers: { ...bearer(admin), 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

    beforeAll(async () => {
      t = await createTestApp({ redisUrl: kind === 'redis' ? REDIS_URL : undefined, loginRateLimitPerMinute: RATE_LIMIT });
      admin = await login(t.app, 'admin', DEV_ADMIN_PASSWORD); // rate limit: 1
      const { cache } = t.app.ctx;
      for (let i = 0; i < 25; i++) await cache.set(LOOKUPS.key(`k${String(i).padStart(2, '0')}`), JSON.stringify({ name: `名称${i}`, password: 'hunter2' }), 600);
      await cache.set(LOOKUPS.key('long'), '名称,'.repeat(400));
      const { token } = (await loginResponse(t.app, 'admin', DEV_ADMIN_PASSWORD)).json(); // rate limit: 2
      await cache.set(LOOKUPS.key('session'), `user 1 token ${token}`);
      if (kind === 'redis') {
        const { Redis } = await import('ioredis');
        redis = new Redis(REDIS_URL);
        // another application in the same Redis, and a key that merely starts like our prefix
        await redis.set(foreignKey, '1', 'EX', 600);
        await redis.set(`${t.config.cachePrefix.slice(0, -1)}x:sibling`, '1', 'EX', 600);
        await redis.hset(`${t.config.cachePrefix}${LOOKUPS.key('zhash')}`, 'a', '1', 'b', '2');
      }
    });
    afterAll(async () => {
      if (redis) {
        await redis.del(foreignKey, `${t.config.cachePrefix.slice(0, -1)}x:sibling`);
        redis.disconnect();
      }
      await t?.close();
    });

    it('lists the application keys by namespace, paged and sorted, without the prefix', async () => {
      const first = await get('/api/redis?namespace=testLookups&size=10');
      expect(first.statusCode).toBe(200);
      const total = kind === 'redis' ? 28 : 27;
      expect(first.json().totalElements).toBe(total);
      expect(first.json().truncated).toBe(false);
      expect(first.json().content.map((r: { key: string }) => r.key)).toEqual(Array.from({ length: 10 }, (_, i) => `testLookups:k${String(i).padStart(2, '0')}`));
      const last = await get('/api/redis?namespace=testLookups&size=10&page=2');
      expect(last.json().content).toHaveLength(total - 20);
      const row = first.json().content[0];
      expect(row).toMatchObject({ namespace: 'testLookups', kind: 'rebuildable', type: 'string', deletable: true });
      expect(row.ttl).toBeGreaterThan(500);
      // secrets in a value are masked field by field
      expect(JSON.parse(row.value)).toEqual({ name: '名称0', password: '******' });

      const search = await get('/api/redis?key=k1');
      expect(search.json().content.map((r: { key: string }) => r.key)).toEqual(Array.from({ length: 10 }, (_, i) => `testLookups:k1${i}`));
      const long = (await get('/api/redis?key=testLookups:long')).json().content[0];
      expect(long.value).toHaveLength(201);
      expect(long.valueTruncated).toBe(true);
      expect(long.ttl).toBeNull();
      // a token inside a rebuildable value is masked too
      expect((await get('/api/redis?key=testLookups:session')).json().content[0].value).toBe('user 1 token ******');
      if (kind === 'redis') {
        const hash = (await get('/api/redis?key=testLookups:zhash')).json().content[0];
        expect(hash).toMatchObject({ type: 'hash', value: '<hash 2 项>' });
      }
    });

    it('never lists other applications or sibling prefixes, and masks protected values', async () => {
      const all = await get('/api/redis?size=100');
      const keys = all.json().content.map((r: { key: string }) => r.key) as string[];
      expect(keys).not.toContain(foreignKey);
      expect(keys.some((k) => k.includes('sibling'))).toBe(false);
      const captcha = (await t.app.inject({ method: 'GET', url: '/auth/vCode' })).json().uuid as string;
      const listed = (await get(`/api/redis?key=${captcha}`)).json().content;
      expect(listed).toEqual([expect.objectContaining({ key: `captcha:${captcha}`, kind: 'protected', value: '******', deletable: false })]);
      const info = (await get('/api/redis/info')).json();
      expect(info.server.kind).toBe(kind);
      const revoked = info.namespaces.find((n: { name: string }) => n.name === 'revoked');
      expect(revoked).toMatchObject({ kind: 'protected', deletable: false, declared: true });
      expect(info.namespaces.find((n: { name: string }) => n.name === 'testLookups')).toMatchObject({ kind: 'rebuildable', count: kind === 'redis' ? 28 : 27 });
    });

    it('deletes one key or a namespace where allowed, refuses protected ones (409)', async () => {
      const { cache } = t.app.ctx;
      expect((await del('/api/redis', { key: 'testLookups:k00' })).json()).toEqual({ deleted: 1 });
      expect(await cache.get('testLookups:k00')).toBeNull();
      // eladmin's form: the key as a JSON string
      expect((await del('/api/redis', 'testLookups:k01')).json()).toEqual({ deleted: 1 });

      await cache.set('loginfail:somebody', '10', 900);
      await cache.set('loginfail:another', '3', 900);
      expect((await del('/api/redis', { namespace: 'loginfail' })).json()).toEqual({ deleted: 2 });
      expect(await cache.get('loginfail:somebody')).toBeNull();

      await cache.set('revoked:abc', '1', 600);
      await cache.set('unknownArea:x', '1', 600);
      for (const body of [{ key: 'revoked:abc' }, { namespace: 'revoked' }, { namespace: 'captcha' }, { key: 'unknownArea:x' }, { namespace: 'rl' }]) {
        const res = await del('/api/redis', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(409);
        expect(res.json().code).toBe('CACHE_KEY_PROTECTED');
      }
      expect(await cache.get('revoked:abc')).toBe('1');
      expect(await cache.get('unknownArea:x')).toBe('1');
      // a key that is not there: 404, also in a protected or unknown namespace (E2)
      for (const key of ['testLookups:gone', 'revoked:gone', 'unknownArea:gone', '../x', '*']) {
        const res = await del('/api/redis', { key });
        expect(res.statusCode, key).toBe(404);
        expect(res.json().code).toBe('CACHE_KEY_NOT_FOUND');
      }
      for (const body of [{}, { key: 'a', namespace: 'b' }, { namespace: 'has space' }, { key: '' }, 42, { other: 1 }]) {
        const res = await del('/api/redis', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
      }
    });

    it('"clear all" clears rebuildable caches only: a logged-out token stays 401, rate limits keep counting', async () => {
      const { cache } = t.app.ctx;
      const other = await login(t.app, 'admin', DEV_ADMIN_PASSWORD); // rate limit: 3
      expect((await t.app.inject({ method: 'DELETE', url: '/auth/logout', headers: bearer(other) })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(other) })).statusCode).toBe(401);
      expect((await loginResponse(t.app, 'nobody-0', 'wrong')).statusCode).toBe(400); // 4
      await cache.set('loginfail:nobody-0', '1', 900);
      const captcha = (await t.app.inject({ method: 'GET', url: '/auth/vCode' })).json().uuid as string;
      const rlBefore = redis ? await redis.keys(`${t.config.cachePrefix}rl:*`) : [];
      if (redis) expect(rlBefore.length).toBeGreaterThan(0);

      const cleared = await del('/api/redis/all');
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json().deleted).toBeGreaterThanOrEqual(24); // testLookups (24 strings left + the long one + hash) and authz
      expect(await cache.keys('testLookups:*')).toEqual([]);

      // the logged-out token is still refused, the admin's own still works
      expect((await t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(other) })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(admin) })).statusCode).toBe(200);
      // captchas, lock-out counters and the rate-limit counters are untouched
      expect(await cache.get(`captcha:${captcha}`)).not.toBeNull();
      expect(await cache.get('loginfail:nobody-0')).not.toBeNull();
      expect(await cache.get('revoked:abc')).toBe('1');
      if (redis) expect((await redis.keys(`${t.config.cachePrefix}rl:*`)).sort()).toEqual(rlBefore.sort());
      for (let i = 2; i < 4; i++) expect((await loginResponse(t.app, `nobody-${i}`, 'wrong')).statusCode).toBe(400); // 5, 6
      expect((await loginResponse(t.app, 'nobody-5', 'wrong')).statusCode).toBe(429);
      // the other application's key is still there
      if (redis) expect(await redis.get(foreignKey)).toBe('1');
    });

    it('needs REDIS codes: a user without them is refused', async () => {
      const anonymous = await t.app.inject({ method: 'GET', url: '/api/redis' });
      expect(anonymous.statusCode).toBe(401);
    });
  });
}
