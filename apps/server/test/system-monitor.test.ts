import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONLINE_SESSIONS, TOUCH_INTERVAL_MS, touchSession } from '../src/core/auth/onlineSessions.ts';
import { verifyToken } from '../src/core/auth/tokens.ts';
import { createTestApp, DEV_ADMIN_PASSWORD, login, TEST_DB, type TestApp } from './helpers.ts';
import { caller, userWithCodes } from './system-fixtures.ts';

/**
 * 系统监控 (M8): the online-session list, 强退 ending a session within one request on every path of the
 * auth hook, and the server monitor's figures; each guarded by its ONLINE_* / SERVER_* codes.
 */
let t: TestApp;
const jtiOf = (token: string) => verifyToken(t.app.ctx.keys.tokenSecret, token)!.jti;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe(`系统监控 (${TEST_DB}, cache ${process.env.TEST_REDIS_URL ? 'redis' : 'memory'})`, () => {
  it('lists login sessions and ends one by 强退 at its next request, leaving the others', async () => {
    const first = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
    const second = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
    const a = caller(t, first);
    const b = caller(t, second);
    const list = await a('GET', '/api/online');
    expect(list.statusCode, list.body).toBe(200);
    const mine = list.json().content.find((s: { jti: string }) => s.jti === jtiOf(first));
    expect(mine).toMatchObject({ username: 'admin', current: true, ip: '127.0.0.1' });
    expect(Date.parse(mine.loginTime)).toBeGreaterThan(Date.now() - 60_000);
    expect(list.json().content.find((s: { jti: string }) => s.jti === jtiOf(second))).toMatchObject({ current: false });

    expect((await b('GET', '/auth/info')).statusCode).toBe(200);
    const kicked = await a('DELETE', `/api/online/${jtiOf(second)}`);
    expect(kicked.statusCode, kicked.body).toBe(204);
    // the very next request with the ended session is refused; the other session goes on
    expect((await b('GET', '/auth/info')).statusCode).toBe(401);
    expect((await a('GET', '/auth/info')).statusCode).toBe(200);
    const after = (await a('GET', '/api/online')).json().content.map((s: { jti: string }) => s.jti);
    expect(after).toContain(jtiOf(first));
    expect(after).not.toContain(jtiOf(second));
    const again = await a('DELETE', `/api/online/${jtiOf(second)}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('ONLINE_SESSION_NOT_FOUND');

    // a logout removes the record too
    const third = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
    expect(await t.app.ctx.cache.get(ONLINE_SESSIONS.key(jtiOf(third)))).not.toBeNull();
    expect((await caller(t, third)('DELETE', '/auth/logout')).statusCode).toBe(200);
    expect(await t.app.ctx.cache.get(ONLINE_SESSIONS.key(jtiOf(third)))).toBeNull();
  });

  it('writes last seen at most once a minute per session', async () => {
    const token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
    const { jti, exp } = verifyToken(t.app.ctx.keys.tokenSecret, token)!;
    const read = async () => JSON.parse((await t.app.ctx.cache.get(ONLINE_SESSIONS.key(jti)))!).lastSeen as string;
    const start = Date.now() + 1000;
    await touchSession(t.app.ctx.cache, jti, exp, start);
    expect(await read()).toBe(new Date(start).toISOString());
    await touchSession(t.app.ctx.cache, jti, exp, start + 10_000);
    expect(await read()).toBe(new Date(start).toISOString());
    await touchSession(t.app.ctx.cache, jti, exp, start + TOUCH_INTERVAL_MS);
    expect(await read()).toBe(new Date(start + TOUCH_INTERVAL_MS).toISOString());
  });

  it('reports the server: CPU, memory, heap, disk of DATA_DIR, database size, cache, uptime, version', async () => {
    const admin = caller(t, await login(t.app, 'admin', DEV_ADMIN_PASSWORD));
    const res = await admin('GET', '/api/monitor/server');
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json();
    expect(s.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(s.host.cpus).toBeGreaterThan(0);
    expect(s.host.cpuUsagePercent).toBeGreaterThanOrEqual(0);
    expect(s.memory.total).toBeGreaterThan(s.memory.free);
    expect(s.process.heapUsed).toBeGreaterThan(0);
    expect(s.process.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(s.disk.total).toBeGreaterThan(0);
    expect(s.database.bytes).toBeGreaterThan(0);
    expect(s.database.dialect).toBe(t.app.ctx.dialect);
    expect(s.cache.kind).toBe(t.app.ctx.cache.kind);
  });

  it('guards the screens by ONLINE_* and SERVER_* codes', async () => {
    const reader = await userWithCodes(t, ['ONLINE_SELECT']);
    expect((await reader.call('GET', '/api/online')).statusCode).toBe(200);
    expect((await reader.call('DELETE', '/api/online/abcdefgh12345678')).statusCode).toBe(403);
    expect((await reader.call('GET', '/api/monitor/server')).statusCode).toBe(403);
    const server = await userWithCodes(t, ['SERVER_SELECT']);
    expect((await server.call('GET', '/api/monitor/server')).statusCode).toBe(200);
    expect((await server.call('GET', '/api/online')).statusCode).toBe(403);
    const kicker = await userWithCodes(t, ['ONLINE_DELETE']);
    expect((await kicker.call('DELETE', '/api/online/abcdefgh12345678')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/online' })).statusCode).toBe(401);
  });
});
