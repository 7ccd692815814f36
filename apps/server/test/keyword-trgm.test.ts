import { CompiledQuery, type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYWORD_TRGM_INDEXES } from '../migrations/0020_keyword_trgm.ts';
import { likeContains } from '../src/core/db.ts';
import { adminToken, createCompany, createStaff, idCard } from './dispatch-fixtures.ts';
import { bearer, createTestApp, TEST_DB, type TestApp } from './helpers.ts';

/**
 * Migration 0020: GIN trigram indexes for the keyword searches on PostgreSQL. The searches must answer exactly
 * what they answered before (checked against a plain case-insensitive "contains" on every dialect, and on
 * PostgreSQL with and without the indexes), and on PostgreSQL the indexes must be able to serve the very SQL
 * the list endpoints run.
 */
let t: TestApp;
let token: string;
const USERS = ['Alice_01', 'alice%x', 'BOB!y', '张三abc', 'xALICEx', 'carol'];
const TERMS = ['alice', 'ALI', '_', '%', '!', '张三', 'ce_0', 'example.COM', 'zzz', 'ol'];
const STAFF = [
  { staffName: '王小明', phone: '13800138001' },
  { staffName: 'Wang_Li', phone: '13900139002' },
  { staffName: 'wang%li', phone: '13700137003' },
  { staffName: '李王', phone: '13600136004' },
];
const STAFF_QUERIES: [field: string, term: string][] = [
  ['staffName', '王'],
  ['staffName', 'wang'],
  ['staffName', '_'],
  ['staffName', '%'],
  ['phone', '0013'],
  ['phone', '1390'],
  ['idCard', '19900307'],
];
const COMPANIES = [
  { companyName: 'Acme_北京', contact: 'Zhao', phone: '010-11112222' },
  { companyName: 'acme%上海', contact: 'zhaO_x', phone: '021-33334444' },
  { companyName: '华东派遣', contact: '钱', phone: '0571-5555' },
];
const COMPANY_QUERIES: [field: string, term: string][] = [
  ['companyName', 'ACME'],
  ['companyName', '_'],
  ['companyName', '%'],
  ['contact', 'zhao'],
  ['phone', '-3333'],
];

const contains = (value: unknown, term: string) => typeof value === 'string' && value.toLowerCase().includes(term.toLowerCase());

beforeAll(async () => {
  t = await createTestApp();
  token = await adminToken(t.app);
  const db = t.app.ctx.db;
  const dept = await db.selectFrom('sys_dept').select('id').executeTakeFirstOrThrow();
  const job = await db.selectFrom('sys_job').select('id').executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  await db
    .insertInto('sys_user')
    .values(
      USERS.map((username, i) => ({
        username,
        cname: `用户${i}`,
        email: `${username.replace(/[^A-Za-z0-9]/g, '') || 'u'}${i}@Example.com`,
        password_hash: 'x',
        enabled: 1,
        dept_id: dept.id,
        job_id: job.id,
        token_version: 0,
        create_time: now,
        update_time: now,
      })),
    )
    .execute();
  const companies = [];
  for (const c of COMPANIES) companies.push(await createCompany(t.app, token, c));
  for (const [i, s] of STAFF.entries()) await createStaff(t.app, token, companies[i % companies.length].id, { ...s, idCard: idCard('1990-03-07', 11 + 2 * i) });
});
afterAll(async () => {
  await t?.close();
});

async function listIds(url: string): Promise<number[]> {
  const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().content as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);
}

/** Every search's ids, next to the ids a plain case-insensitive "contains" over all rows gives. */
async function searchAll(): Promise<{ got: number[][]; expected: number[][] }> {
  const db = t.app.ctx.db;
  const users = await db.selectFrom('sys_user').select(['id', 'username', 'email']).execute();
  const staff = await db.selectFrom('accounts_staff').select(['id', 'staff_name', 'phone', 'id_card']).execute();
  const companies = await db.selectFrom('accounts_company').select(['id', 'company_name', 'contact', 'phone']).execute();
  const column: Record<string, string> = { staffName: 'staff_name', phone: 'phone', idCard: 'id_card', companyName: 'company_name', contact: 'contact' };
  const ids = (rows: Record<string, unknown>[]) => rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  const got: number[][] = [];
  const expected: number[][] = [];
  for (const term of TERMS) {
    got.push(await listIds(`/api/users?size=1000&blurry=${encodeURIComponent(term)}`));
    expected.push(ids(users.filter((u) => contains(u.username, term) || contains(u.email, term))));
  }
  for (const [field, term] of STAFF_QUERIES) {
    got.push(await listIds(`/api/accountsStaff?size=1000&${field}=${encodeURIComponent(term)}`));
    expected.push(ids(staff.filter((s) => contains((s as Record<string, unknown>)[column[field]], term))));
  }
  for (const [field, term] of COMPANY_QUERIES) {
    got.push(await listIds(`/api/accountsCompany?size=1000&${field}=${encodeURIComponent(term)}`));
    expected.push(ids(companies.filter((c) => contains((c as Record<string, unknown>)[column[field]], term))));
  }
  return { got, expected };
}

describe('keyword search (migration 0020)', () => {
  it('finds exactly the rows whose searched columns contain the keyword, case-insensitively and literally', async () => {
    const { got, expected } = await searchAll();
    expect(got).toEqual(expected);
    // the data really exercises the searches: most find something, and not everything
    expect(got.filter((g) => g.length > 0).length).toBeGreaterThan(got.length / 2);
  });

  it.skipIf(TEST_DB !== 'postgres')('creates the trigram indexes on PostgreSQL, and they serve the endpoints’ SQL', async () => {
    const db = t.app.ctx.db;
    const found = await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes where schemaname = current_schema()`.execute(db);
    const defs = new Map(found.rows.map((r) => [r.indexname, r.indexdef]));
    for (const [index, table, column] of KEYWORD_TRGM_INDEXES) {
      expect(defs.get(index), index).toMatch(new RegExp(`ON \\S*${table} USING gin \\(lower\\(\\(?${column}\\)?(::text)?\\)\\)? \\S*gin_trgm_ops\\)`));
    }
    // the predicate exactly as likeContains builds it, planned with sequential scans priced out: the index
    // must be able to answer it (with the tiny test tables the planner would otherwise rightly scan)
    const plans = await db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const out: string[] = [];
      for (const [, table, column] of KEYWORD_TRGM_INDEXES) {
        const q = (trx as unknown as Kysely<any>).selectFrom(table).select('id').where(likeContains('postgres', `${table}.${column}`, 'ab_c%d')).compile();
        const r = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${q.sql}`, [...q.parameters]));
        out.push(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
      }
      return out;
    });
    for (const [i, [index]] of KEYWORD_TRGM_INDEXES.entries()) expect(plans[i], index).toContain(index);
  });

  it.skipIf(TEST_DB !== 'postgres')('answers the same with and without the indexes on PostgreSQL', async () => {
    const db = t.app.ctx.db;
    const terms = [...TERMS, ...STAFF_QUERIES.map(([, term]) => term), ...COMPANY_QUERIES.map(([, term]) => term)];
    // each indexed column searched for every term, with sequential scans priced out (so through the index
    // while it exists: the small test tables would otherwise be scanned)
    const byColumn = () =>
      db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        const out: number[][] = [];
        for (const [, table, column] of KEYWORD_TRGM_INDEXES) {
          for (const term of terms) {
            const rows = await (trx as unknown as Kysely<any>).selectFrom(table).select('id').where(likeContains('postgres', `${table}.${column}`, term)).orderBy('id').execute();
            out.push(rows.map((r) => Number(r.id)));
          }
        }
        return out;
      });
    const before = { columns: await byColumn(), api: await searchAll() };
    for (const [index] of KEYWORD_TRGM_INDEXES) await sql`drop index ${sql.id(index)}`.execute(db);
    const after = { columns: await byColumn(), api: await searchAll() };
    expect(before.columns).toEqual(after.columns);
    expect(before.columns.some((ids) => ids.length > 0)).toBe(true);
    expect(before.api.got).toEqual(after.api.got);
    expect(after.api.got).toEqual(after.api.expected);
  });
});
