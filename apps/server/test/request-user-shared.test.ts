import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CurrentUser } from '../src/core/context.ts';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, type TestApp } from './helpers.ts';
import { adminToken, scopedUser } from './dispatch-fixtures.ts';

/**
 * Issue 27: the authenticated user is made once per session and authorization epoch and shared read-only by that
 * session's requests (no copy per request), and /auth/info answers from a cache keyed on that object. These tests
 * fail if a handler could change the shared user, if requests stopped sharing it, or if the cached /auth/info
 * outlived a change of the user or its roles.
 */
let t: TestApp;
const seen: CurrentUser[] = [];
beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    app.get('/api/test/request-user', { config: { auth: 'user' } }, async (req) => {
      seen.push(req.user!);
      return {};
    });
    // each way a handler could change the caller, chosen by ?how=
    app.get('/api/test/mutate-user', { config: { auth: 'user' } }, async (req) => {
      const user = req.user as unknown as { cname: string; permissions: string[]; roles: { level: number }[] };
      const how = (req.query as { how: string }).how;
      if (how === 'field') user.cname = '篡改';
      else if (how === 'permissions') user.permissions.push('NEVER_GRANTED');
      else if (how === 'role') user.roles[0].level = 0;
      return { changed: how };
    });
  });
});
afterAll(async () => {
  await t?.close();
});

describe('the request user', () => {
  it('is one frozen object shared by the requests of a session', async () => {
    // both sessions first: a login is a write, which starts a new authorization epoch
    const token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
    const other = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
    seen.length = 0;
    for (const tk of [token, token, other, token]) {
      expect((await t.app.inject({ method: 'GET', url: '/api/test/request-user', headers: bearer(tk) })).statusCode).toBe(200);
    }
    expect(seen).toHaveLength(4);
    expect(seen[1]).toBe(seen[0]);
    expect(seen[3]).toBe(seen[0]);
    expect(Object.isFrozen(seen[0])).toBe(true);
    expect(Object.isFrozen(seen[0].permissions)).toBe(true);
    expect(Object.isFrozen(seen[0].roles)).toBe(true);
    expect(Object.isFrozen(seen[0].roles[0])).toBe(true);
    // another session of the same user: its own token fields, the same shared role data
    expect(seen[2]).not.toBe(seen[0]);
    expect(seen[2].tokenJti).not.toBe(seen[0].tokenJti);
    expect(seen[2].permissions).toBe(seen[0].permissions);
  });

  it('cannot be changed by a handler: the write fails and the next request sees the user unchanged', async () => {
    const token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
    const before = (await t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(token) })).json();
    for (const how of ['field', 'permissions', 'role']) {
      const r = await t.app.inject({ method: 'GET', url: `/api/test/mutate-user?how=${how}`, headers: bearer(token) });
      expect(r.statusCode, how).toBe(500);
    }
    const after = await t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(token) });
    expect(after.json()).toEqual(before);
    expect(after.json().cname).toBe('系统管理员');
    expect(after.json().roles).not.toContain('NEVER_GRANTED');
    expect(after.json().level).toBe(1);
  });
});

describe('/auth/info', () => {
  it('answers JSON and follows a change of the user and of its roles at once', async () => {
    const admin = await adminToken(t.app);
    const u = await scopedUser(t.app, { username: 'info_cache', codes: ['USER_SELECT'] });
    const info = () => t.app.inject({ method: 'GET', url: '/auth/info', headers: bearer(u.token) });
    const first = await info();
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    expect(first.json().roles).toEqual(['USER_SELECT']);
    expect((await info()).body).toBe(first.body);

    // the user's name, changed through the users API
    const row = (await t.app.inject({ method: 'GET', url: `/api/users/${u.userId}`, headers: bearer(admin) })).json();
    const job = await t.app.ctx.db.selectFrom('sys_job').select('id').executeTakeFirstOrThrow();
    const payload = { ...row, cname: '新名字', phone: '13800138000', jobId: Number(job.id), roles: row.roles.map((r: { id: number }) => ({ id: r.id })) };
    const put = await t.app.inject({ method: 'PUT', url: '/api/users', headers: bearer(admin), payload });
    expect(put.statusCode, put.body).toBe(204);
    expect((await info()).json().cname).toBe('新名字');

    // the codes of its role, changed through the roles API
    const roleId = row.roles[0].id as number;
    const codes = await t.app.ctx.db.selectFrom('sys_permission').select(['id', 'name']).where('name', 'in', ['USER_SELECT', 'DEPT_SELECT']).execute();
    const assign = await t.app.inject({ method: 'PUT', url: '/api/roles/permission', headers: bearer(admin), payload: { id: roleId, permissions: codes.map((c) => ({ id: Number(c.id) })) } });
    expect(assign.statusCode, assign.body).toBe(204);
    expect((await info()).json().roles).toEqual(['DEPT_SELECT', 'USER_SELECT']);
  });
});
