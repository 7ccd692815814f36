import { describe, expect, it } from 'vitest';
import { adminApp, bearer } from './helpers.ts';
import { compiledQueryStats, statementOf } from '../src/crud/compiledQuery.ts';

/**
 * Generic lists run statements compiled once per shape (crud/compiledQuery.ts, issue 27): a second request of the
 * same shape compiles nothing and still answers its own values' rows; another shape (a filter more, another sort, a
 * page of another length for the linked sets) gets its own statement.
 */
const s = adminApp();
const auth = () => bearer(s.token);

async function seedJobs(): Promise<void> {
  const db = s.app.ctx.db;
  const dept = Number((await db.selectFrom('sys_dept').select('id').orderBy('id').executeTakeFirstOrThrow()).id);
  const now = new Date().toISOString();
  const names = [...Array.from({ length: 12 }, (_, i) => `cq甲${i}`), ...Array.from({ length: 7 }, (_, i) => `cq乙${i}`), 'cq_下划线', 'cqX下划线'];
  await db
    .insertInto('sys_job')
    .values(names.map((name, i) => ({ name, sort: i, enabled: i % 3 === 0 ? 0 : 1, dept_id: dept, create_time: now, update_time: now })))
    .execute();
}

const list = async (query: string) => {
  const res = await s.app.inject({ method: 'GET', url: `/api/job?${query}`, headers: auth() });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { content: { name: string; enabled: boolean }[]; totalElements: number };
};

describe('lists compiled once per shape', () => {
  it('the same shape with new values compiles nothing and answers the new values', async () => {
    await seedJobs();
    const first = await list(`name=${encodeURIComponent('cq甲')}&page=0&size=5&sort=sort,asc`);
    expect(first.content.map((r) => r.name)).toEqual(['cq甲0', 'cq甲1', 'cq甲2', 'cq甲3', 'cq甲4']);
    expect(first.totalElements).toBe(12);
    const before = compiledQueryStats.compiled;
    const second = await list(`name=${encodeURIComponent('cq乙')}&page=1&size=5&sort=sort,asc`);
    expect(second.content.map((r) => r.name)).toEqual(['cq乙5', 'cq乙6']);
    expect(second.totalElements).toBe(7);
    expect(compiledQueryStats.compiled).toBe(before);
  });

  it('the user’s wildcards stay literal in a compiled statement', async () => {
    const found = await list(`name=${encodeURIComponent('cq_')}&page=0&size=10`);
    expect(found.content.map((r) => r.name)).toEqual(['cq_下划线']);
  });

  it('another filter or sort is another statement, with the right rows', async () => {
    const before = compiledQueryStats.compiled;
    const off = await list(`name=${encodeURIComponent('cq甲')}&enabled=false&page=0&size=10&sort=sort,asc`);
    expect(off.content.map((r) => r.name)).toEqual(['cq甲0', 'cq甲3', 'cq甲6', 'cq甲9']);
    expect(off.content.every((r) => r.enabled === false)).toBe(true);
    expect(compiledQueryStats.compiled).toBeGreaterThan(before);
    const desc = await list(`name=${encodeURIComponent('cq甲')}&enabled=false&page=0&size=10&sort=sort,desc`);
    expect(desc.content.map((r) => r.name)).toEqual(['cq甲9', 'cq甲6', 'cq甲3', 'cq甲0']);
  });

  it('linked sets (a user’s roles) are read by a statement per page length, each page its own roles', async () => {
    const db = s.app.ctx.db;
    const rolesOf = new Map<number, number[]>();
    for (const r of await db.selectFrom('sys_users_roles').select(['user_id', 'role_id']).orderBy('role_id').execute()) {
      rolesOf.set(Number(r.user_id), [...(rolesOf.get(Number(r.user_id)) ?? []), Number(r.role_id)]);
    }
    for (const size of [1, 2, 1]) {
      for (const page of [0, 1]) {
        const res = await s.app.inject({ method: 'GET', url: `/api/users?page=${page}&size=${size}&sort=id,asc`, headers: auth() });
        expect(res.statusCode, res.body).toBe(200);
        for (const u of res.json().content as { id: number; roles: { id: number }[] }[]) {
          expect(u.roles.map((r) => r.id).sort((a, b) => a - b)).toEqual((rolesOf.get(u.id) ?? []).sort((a, b) => a - b));
        }
      }
    }
  });

  it('a builder that uses a placeholder as a plain value, not a parameter, is refused', () => {
    const db = s.app.ctx.db;
    expect(() =>
      statementOf(db, 'test: placeholder used in JS', [5], (arg) => {
        const limit = Number(arg<number>(0)) || 10; // the placeholder read as a number: NaN, so 10 would be baked in
        return db.selectFrom('sys_job').select('id').limit(limit);
      }),
    ).toThrow(/value 0 is not a parameter/);
  });
});
