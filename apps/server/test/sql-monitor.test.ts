import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskParameter, normaliseSql, OVERFLOW_STATEMENT, QueryStats } from '../src/core/queryStats.ts';
import { createTestApp, TEST_DB, type TestApp } from './helpers.ts';
import { adminCaller, type Caller, userWithCodes } from './system-fixtures.ts';

/**
 * 系统工具 › SQL监控: statement statistics from the database layer (core/queryStats.ts through Kysely's log hook
 * in core/db.ts) on the real database of TEST_DB, and the collector's folding, windows and bounds.
 */

interface Statement {
  sql: string;
  count: number;
  errors: number;
  maxParams: string[];
  lastError: string | null;
}

describe('statement folding and bounds', () => {
  it('folds literals, placeholders and lists', () => {
    expect(normaliseSql("select * from t where name = 'O''Brien' and age > 30")).toBe('select * from t where name = ? and age > ?');
    expect(normaliseSql('select * from "t1" where "id" in ($1, $2, $3) limit $4')).toBe('select * from "t1" where "id" in (?...) limit ?');
    expect(normaliseSql('select * from `t1` where `id` in (?)')).toBe('select * from `t1` where `id` in (?...)');
    expect(normaliseSql('select * from `t1` where `id` IN (?, ?, ?, ?)')).toBe('select * from `t1` where `id` in (?...)');
    expect(normaliseSql('insert into t (a, b) values (?, ?), (?, ?), (?, ?)')).toBe('insert into t (a, b) values (?...)...');
    expect(normaliseSql('select col_2, t1.x from t1')).toBe('select col_2, t1.x from t1');
    expect(maskParameter('11010519491231002X')).toBe('string(18)');
    expect(maskParameter(12)).toBe('number');
    expect(maskParameter(null)).toBe('null');
  });

  it('keeps per-minute history for the windows and caps the distinct statements', () => {
    let now = Date.UTC(2026, 0, 1, 8, 0, 0);
    const stats = new QueryStats('sqlite', () => null, 3, () => now);
    stats.record('select 1 from a where x = ?', [1], 5);
    now += 30 * 60_000; // half an hour later
    stats.record('select 1 from a where x = ?', ['secret'], 700);
    stats.record('select 2 from b', [], 1, new Error("Duplicate entry '110105' for key 'uq'"));
    expect(stats.snapshot().statements.find((s) => s.sql.includes('from a'))?.count).toBe(2);
    const last5 = stats.snapshot(5);
    expect(last5.statements.find((s) => s.sql.includes('from a'))).toMatchObject({ count: 1, maxMs: 700, slow: 1, maxParams: ['string(6)'] });
    expect(last5.errors).toBe(1);
    expect(last5.statements.find((s) => s.sql.includes('from b'))?.lastError).not.toContain('110105');
    now += 61 * 60_000;
    expect(stats.snapshot(60).queries).toBe(0);
    expect(stats.snapshot().queries).toBe(3);
    // cap of 3: the fourth and fifth new statements share the overflow entry
    stats.record('select 3 from c', [], 1);
    stats.record('select 4 from d', [], 1);
    stats.record('select 5 from e', [], 1);
    const all = stats.snapshot();
    expect(all.distinctStatements).toBe(4);
    expect(all.capped).toBe(true);
    expect(all.statements.find((s) => s.sql === OVERFLOW_STATEMENT)?.count).toBe(2);
    stats.reset();
    expect(stats.snapshot().queries).toBe(0);
  });
});

let t: TestApp;
let admin: Caller;
beforeAll(async () => {
  t = await createTestApp();
  admin = await adminCaller(t);
});
afterAll(async () => {
  await t?.close();
});

describe(`SQL monitor routes (${TEST_DB})`, () => {
  it('counts a known query under one folded statement, with parameters masked', async () => {
    expect((await admin('DELETE', '/api/monitor/sql')).statusCode).toBe(204);
    const db = t.app.ctx.db;
    await db.selectFrom('accounts_staff').select('id').where('id_card', 'in', ['11010519491231002X', '110105194912310037']).execute();
    await db.selectFrom('accounts_staff').select('id').where('id_card', 'in', ['11010519491231002X']).execute();
    await db.selectFrom('accounts_staff').select('id').where('id_card', 'in', ['1', '2', '3', '4']).execute();
    await sql`select count(*) as n from sys_user where username = 'admin'`.execute(db);
    await sql`select count(*) as n from sys_user where username = 'nobody'`.execute(db);
    await expect(sql`select * from no_such_table_for_monitor`.execute(db)).rejects.toThrow();

    const res = await admin('GET', '/api/monitor/sql?sort=count&limit=1000');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.dialect).toBe(TEST_DB);
    const statements = body.statements as Statement[];
    const staff = statements.filter((s) => s.sql.includes('accounts_staff') && s.sql.includes('id_card'));
    expect(staff).toHaveLength(1);
    expect(staff[0].count).toBe(3);
    expect(staff[0].sql).toContain('in (?...)');
    expect(staff[0].maxParams.every((p) => /^string\(\d+\)$/.test(p))).toBe(true);
    const users = statements.filter((s) => s.sql.includes('from sys_user where username = ?'));
    expect(users).toHaveLength(1);
    expect(users[0].count).toBe(2);
    const failed = statements.find((s) => s.sql.includes('no_such_table_for_monitor'));
    expect(failed).toMatchObject({ errors: 1 });
    expect(failed?.lastError).toBeTruthy();
    expect(body.errors).toBeGreaterThanOrEqual(1);
    expect(res.body).not.toContain('11010519491231002X');
    // the statements are sorted as asked
    const counts = statements.map((s) => s.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    if (TEST_DB === 'sqlite') expect(body.pool).toBeNull();
    else expect(body.pool).toMatchObject({ max: 10 });
    expect(body.pool?.total ?? 0).toBeGreaterThanOrEqual(0);
  });

  it('answers for a window and refuses other windows', async () => {
    const res = await admin('GET', '/api/monitor/sql?window=5');
    expect(res.statusCode).toBe(200);
    expect(res.json().window).toBe(5);
    expect(res.json().queries).toBeGreaterThan(0);
    expect((await admin('GET', '/api/monitor/sql?window=60')).json().window).toBe(60);
    const bad = await admin('GET', '/api/monitor/sql?window=7');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('统计时段只能是 all、5 或 60（分钟）');
    const slow = await admin('GET', '/api/monitor/sql/slow?window=all');
    expect(slow.statusCode).toBe(200);
    expect(slow.json().slowThresholdMs).toBe(300);
  });

  it('resets', async () => {
    expect((await admin('DELETE', '/api/monitor/sql')).statusCode).toBe(204);
    const after = (await admin('GET', '/api/monitor/sql')).json();
    expect(after.statements.some((s: Statement) => s.sql.includes('no_such_table_for_monitor'))).toBe(false);
  });

  it('is for administrators only', async () => {
    const viewer = await userWithCodes(t, ['SQL_MONITOR_SELECT']);
    expect((await viewer.call('GET', '/api/monitor/sql')).statusCode).toBe(200);
    expect((await viewer.call('DELETE', '/api/monitor/sql')).statusCode).toBe(403);
    const other = await userWithCodes(t, ['ACCOUNTSSTAFF_ALL', 'GENERATOR_ALL']);
    expect((await other.call('GET', '/api/monitor/sql')).statusCode).toBe(403);
    expect((await other.call('GET', '/api/monitor/sql/slow')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/monitor/sql' })).statusCode).toBe(401);
  });
});
