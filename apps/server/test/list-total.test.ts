import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, TEST_DB, type TestApp } from './helpers.ts';
import { EXACT_COUNT_BELOW } from '../src/crud/listTotal.ts';
import { queryStatsOf } from '../src/core/queryStats.ts';

/**
 * A generic list's totalElements (crud/listTotal.ts): exact on SQLite and MySQL; on PostgreSQL the planner's
 * estimate, said by `totalEstimated: true`, once the filter matches EXACT_COUNT_BELOW rows or more.
 */
const JOBS = EXACT_COUNT_BELOW + 2_000;
let t: TestApp;
let auth: Record<string, string>;
let deptId: number;

beforeAll(async () => {
  t = await createTestApp();
  auth = bearer(await login(t.app, 'admin', DEV_ADMIN_PASSWORD));
  const db = t.app.ctx.db;
  deptId = Number((await db.selectFrom('sys_dept').select('id').orderBy('id').executeTakeFirstOrThrow()).id);
  const now = new Date().toISOString();
  for (let i = 0; i < JOBS; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, JOBS - i) }, (_, j) => ({ name: `岗位${i + j}`, sort: 1, enabled: 1, dept_id: deptId, create_time: now, update_time: now }));
    await db.insertInto('sys_job').values(rows as never).execute();
  }
  if (TEST_DB === 'postgres') await sql`analyze sys_job`.execute(db);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('list totals', () => {
  it('a big unfiltered list: exact, except the estimate PostgreSQL gives and says', async () => {
    const exact = Number((await t.app.ctx.db.selectFrom('sys_job').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const res = await t.app.inject({ method: 'GET', url: '/api/job?page=0&size=10', headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.content).toHaveLength(10);
    if (TEST_DB === 'postgres') {
      expect(body.totalEstimated).toBe(true);
      expect(Math.abs(body.totalElements - exact) / exact).toBeLessThan(0.1);
    } else {
      expect(body.totalEstimated).toBeUndefined();
      expect(body.totalElements).toBe(exact);
    }
  });

  it('a selective filter is counted exactly everywhere', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/job?page=0&size=10&name=%E5%B2%97%E4%BD%8D1000', headers: auth });
    const body = res.json();
    const matching = Number((await t.app.ctx.db.selectFrom('sys_job').select((eb) => eb.fn.countAll().as('n')).where('name', 'like', '%岗位1000%').executeTakeFirstOrThrow()).n);
    expect(matching).toBeGreaterThan(10);
    expect(body.totalElements).toBe(matching);
    expect(body.totalEstimated).toBeUndefined();
  });

  it('a short page makes an estimated total exact, a page past the end is empty', async () => {
    const exact = Number((await t.app.ctx.db.selectFrom('sys_job').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const lastPage = Math.floor(exact / 1000);
    const last = (await t.app.inject({ method: 'GET', url: `/api/job?page=${lastPage}&size=1000`, headers: auth })).json();
    expect(last.content).toHaveLength(exact % 1000);
    expect(last.totalElements).toBe(exact);
    expect(last.totalEstimated).toBeUndefined();
    const past = (await t.app.inject({ method: 'GET', url: `/api/job?page=${lastPage + 5}&size=1000`, headers: auth })).json();
    expect(past.content).toEqual([]);
  });

  it('over the network an exact total comes with its page in one statement; SQLite counts only a full first page', async () => {
    const stats = queryStatsOf(t.app.ctx.db);
    if (!stats) throw new Error('no query statistics on the test database');
    const selects = async (url: string) => {
      stats.reset();
      const body = (await t.app.inject({ method: 'GET', url, headers: auth })).json();
      const n = stats
        .snapshot()
        .statements.filter((s) => /\bsys_job\b/.test(s.sql) && /^\s*select/i.test(s.sql))
        .reduce((sum, s) => sum + s.count, 0);
      return { body, n };
    };
    const matching = Number((await t.app.ctx.db.selectFrom('sys_job').select((eb) => eb.fn.countAll().as('n')).where('name', 'like', '%岗位1%').executeTakeFirstOrThrow()).n);
    const filter = `name=${encodeURIComponent('岗位1')}`;
    const first = await selects(`/api/job?page=0&size=10&${filter}`);
    const second = await selects(`/api/job?page=3&size=10&${filter}`);
    const past = await selects(`/api/job?page=${Math.ceil(matching / 10) + 2}&size=10&${filter}`);
    for (const page of [first, second, past]) expect(page.body.totalElements).toBe(matching);
    expect(first.body.content).toHaveLength(10);
    expect(past.body.content).toEqual([]);
    if (TEST_DB === 'sqlite') {
      // in the process: a count and a page
      expect([first.n, second.n, past.n]).toEqual([2, 2, 1]);
    } else {
      // the page carries the count; a page past the end has no row to carry it and is counted on its own
      expect([first.n, second.n, past.n]).toEqual([1, 1, 2]);
    }
  });
});
