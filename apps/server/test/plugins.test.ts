import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, type TestApp } from './helpers.ts';
import { openCache } from '../src/core/cache.ts';
import dbPlugin from '../src/core/plugins/db.ts';
import cachePlugin from '../src/core/plugins/cache.ts';
import errorsPlugin from '../src/core/plugins/errors.ts';
import authPlugin from '../src/core/plugins/auth.ts';
import auditPlugin from '../src/core/plugins/audit.ts';
import contextPlugin from '../src/core/plugins/context.ts';
import { AREAS } from '../src/modules/index.ts';
import { registerStorage } from '../src/core/storage/index.ts';
import { schedulerPlugin } from '../src/core/scheduler/index.ts';

/**
 * The plugin graph of the server (issue 9 item 6): the shared concerns are named fp plugins whose declared
 * dependencies Fastify enforces, the business areas are encapsulated plugins, and the caller is a decorated
 * request property.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const dataDir = path.join(os.tmpdir(), 'dp-plugins-test-unused');

/** Registering `plugin` (with `opts`) on an app holding only `before` fails at start-up with this error. */
async function startupError(before: [FastifyPluginAsync<any>, object][], plugin: FastifyPluginAsync<any>, opts: object = {}) {
  const app = Fastify();
  for (const [p, o] of before) app.register(p, o);
  app.register(plugin, opts);
  const err = await app.ready().then(
    () => null,
    (e: unknown) => e as { code?: string; message: string },
  );
  await app.close().catch(() => undefined);
  return err;
}

describe('plugin graph', () => {
  it('registers every shared concern and every business area by name on the root', () => {
    for (const name of ['db', 'cache', 'errors', 'auth', 'audit', 'ctx', 'storage', 'scheduler']) expect(t.app.hasPlugin(name), name).toBe(true);
    for (const area of ['auth', 'system', 'dispatch', 'payroll', 'storage', 'tools', 'integrations', 'operations', 'jobs', 'home', 'resources']) {
      expect(t.app.hasPlugin(`area:${area}`), area).toBe(true);
    }
  });

  it('builds app.ctx from what the plugins decorated', () => {
    expect(t.app.ctx.db).toBe(t.app.database.db);
    expect(t.app.ctx.dialect).toBe(t.app.database.dialect);
    expect(t.app.ctx.cache).toBe(t.app.cache);
    expect(t.app.ctx.keys).toBe(t.app.authKeys);
  });

  it('refuses auth without db, with fastify-plugin\'s missing-dependency error', async () => {
    const err = await startupError([], authPlugin, { keys: t.app.authKeys, dataDir });
    expect(err?.code).toBe('FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED');
    expect(err?.message).toBe("The dependency 'db' of plugin 'auth' is not registered");
  });

  it('refuses auth without cache, audit without errors, ctx without auth, storage and scheduler without ctx', async () => {
    const db = [dbPlugin, { database: t.app.database }] as [FastifyPluginAsync<any>, object];
    const cache = [cachePlugin, { cache: await openCache(undefined, 'plugins-test:') }] as [FastifyPluginAsync<any>, object];
    const auth = [authPlugin, { keys: t.app.authKeys, dataDir }] as [FastifyPluginAsync<any>, object];
    expect((await startupError([db], authPlugin, { keys: t.app.authKeys, dataDir }))?.message).toBe("The dependency 'cache' of plugin 'auth' is not registered");
    const cache2 = [cachePlugin, { cache: await openCache(undefined, 'plugins-test:') }] as [FastifyPluginAsync<any>, object];
    expect((await startupError([db, cache2, auth], auditPlugin))?.message).toBe("The dependency 'errors' of plugin 'audit' is not registered");
    expect((await startupError([db, cache], contextPlugin, {}))?.message).toBe("The dependency 'auth' of plugin 'ctx' is not registered");
    // storage and the scheduler read app.ctx when they start
    expect((await startupError([], registerStorage))?.message).toBe("The dependency 'ctx' of plugin 'storage' is not registered");
    expect((await startupError([], schedulerPlugin))?.message).toBe("The dependency 'ctx' of plugin 'scheduler' is not registered");
  });

  it('refuses a business area on an app without the shared concerns', async () => {
    const err = await startupError([], AREAS[0] as FastifyPluginAsync);
    expect(err?.code).toBe('FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED');
    expect(err?.message).toMatch(/of plugin 'area:auth' is not registered/);
  });

  it('keeps an area\'s request decorations inside the area (dispatch\'s lookup memo is not on the root)', () => {
    expect(t.app.hasRequestDecorator('user')).toBe(true);
    expect(t.app.hasRequestDecorator('deptScope')).toBe(true);
    // the audit plugin hooks only the routes that log; it puts nothing on every request
    expect(t.app.hasRequestDecorator('auditWriter')).toBe(false);
    expect(t.app.hasRequestDecorator('failure')).toBe(true);
    expect(t.app.hasRequestDecorator('lookupMemo')).toBe(false);
  });
});

describe('request.user', () => {
  let small: FastifyInstance;
  beforeAll(async () => {
    // db (the test app's database, left open), cache, errors and auth only, with two routes that show request.user
    small = Fastify();
    await small.register(dbPlugin, { database: t.app.database });
    await small.register(cachePlugin, { cache: await openCache(undefined, 'plugins-test-user:'), prefix: 'plugins-test-user:' });
    await small.register(errorsPlugin);
    await small.register(authPlugin, { keys: t.app.authKeys, dataDir });
    const show = async (req: { user: unknown }) => ({
      own: Object.hasOwn(req, 'user'),
      user: req.user === null ? null : (req.user as { username: string }).username,
    });
    small.get('/api/who/public', { config: { auth: 'public' } }, show);
    small.get('/api/who/user', { config: { auth: 'user' } }, show);
    await small.ready();
  });
  afterAll(async () => {
    await small.close();
  });

  it('is a declared property, null until a valid token comes along', async () => {
    const res = await small.inject({ method: 'GET', url: '/api/who/public' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ own: true, user: null });
    const forged = await small.inject({ method: 'GET', url: '/api/who/public', headers: bearer('not.a.token') });
    expect(forged.json()).toEqual({ own: true, user: null });
  });

  it('holds the caller on public and guarded routes; guarded routes refuse without it', async () => {
    const token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
    for (const url of ['/api/who/public', '/api/who/user']) {
      const res = await small.inject({ method: 'GET', url, headers: bearer(token) });
      expect(res.statusCode, url).toBe(200);
      expect(res.json(), url).toEqual({ own: true, user: 'admin' });
    }
    const refused = await small.inject({ method: 'GET', url: '/api/who/user' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe('未登录或登录状态已过期');
  });

  it('puts only routes that declare config.auth in the route table, and refuses API routes without it', async () => {
    expect(small.routeTable.map((r) => `${r.method} ${r.url} ${r.auth}`)).toEqual(['GET /api/who/public public', 'GET /api/who/user user']);
    const app = Fastify();
    await app.register(dbPlugin, { database: t.app.database });
    await app.register(cachePlugin, { cache: await openCache(undefined, 'plugins-test-route:'), prefix: 'plugins-test-route:' });
    await app.register(authPlugin, { keys: t.app.authKeys, dataDir });
    expect(() => app.get('/api/unguarded', async () => 'x')).toThrow('route GET /api/unguarded declares no config.auth');
    await app.close();
  });
});
