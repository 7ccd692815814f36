/**
 * Keyword searches on PostgreSQL at 100k rows (issue 13 item 6): the users box (blurry: username/email), the
 * staff filters (name, phone) and the company filter (name), each timed through the list endpoint (count +
 * page, as the screen asks), with the trigram indexes of migration 0020 and, as the baseline in the same run,
 * after dropping them. Target: <= 10 ms per search. Needs BENCH_PG_URL (or TEST_PG_URL); skipped otherwise.
 * BENCH_ROWS sets the row count per table (default 100,000).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { KEYWORD_TRGM_INDEXES } from '../apps/server/migrations/0020_keyword_trgm.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { configFromEnv } from '../apps/server/src/config.ts';
import { encryptLoginPassword } from '../apps/server/src/core/auth/keys.ts';
import { DEV_ADMIN_PASSWORD } from '../apps/server/src/seed/index.ts';
import { openThrowawayDatabase } from '../apps/server/test/throwawayDatabase.ts';
import { seedBenchUsers } from './_seedUsers.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = 21;
const WARMUP = 3;
const TARGET_MS = 10;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main() {
  const url = process.env.BENCH_PG_URL ?? process.env.TEST_PG_URL;
  if (!url) {
    console.log('keyword search: skipped (set BENCH_PG_URL to a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/test)');
    return;
  }
  const { database, drop } = await openThrowawayDatabase('postgres', url);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-keyword-data-'));
  const config = { ...configFromEnv({}), dataDir, captchaEnabled: false, logRequests: false, scheduler: false, webDist: undefined, loginRateLimitPerMinute: 100000 };
  // Writes down the SQL the endpoint runs (text and parameters), to time the same statements on their own.
  const recorded: CompiledQuery[] = [];
  let recording = false;
  const recordingDb = database.db.withPlugin({
    transformQuery(args) {
      if (recording) recorded.push(database.db.getExecutor().compileQuery(args.node, args.queryId));
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  });
  const app = await buildApp(config, { database: { ...database, db: recordingDb } });
  try {
    const db = database.db as Kysely<any>;
    const t0 = Date.now();
    await seedBenchUsers(database, ROWS);
    // One statement per table: PostgreSQL generates the rows itself (seconds instead of minutes of round trips).
    await sql`insert into accounts_company (company_name, contact, phone, create_time, update_time)
      select '派遣单位' || g, '联系人' || g, '010-' || lpad(g::text, 8, '0'), now()::text, now()::text from generate_series(1, ${ROWS}) g`.execute(db);
    const firstCompany = Number((await sql<{ id: number }>`select min(id) as id from accounts_company`.execute(db)).rows[0].id);
    await sql`insert into accounts_staff (company_id, staff_name, id_card, phone, create_time, update_time)
      select ${firstCompany} + (g % 1000), '员工' || g, '110101' || lpad(g::text, 12, '0'), '138' || lpad(g::text, 8, '0'), now()::text, now()::text
      from generate_series(1, ${ROWS}) g`.execute(db);
    // Rows loaded into a GIN index right after it was made wait in its pending list, which every search then
    // reads in full (40 ms instead of a few); autovacuum merges them after a bulk load in production, here
    // VACUUM does it at once (and ANALYZE gives the planner the row counts).
    for (const table of ['sys_user', 'accounts_company', 'accounts_staff']) await sql`vacuum analyze ${sql.table(table)}`.execute(db);
    console.log(`PostgreSQL: seeded ${ROWS.toLocaleString('en')} users, companies and staff in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const pk = (await app.inject({ method: 'GET', url: '/auth/publicKey' })).json().publicKey;
    const token = (await app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'admin', password: encryptLoginPassword(pk, DEV_ADMIN_PASSWORD) } })).json().token;
    // a keyword found a few times (4321, 43210..43219 at 100k rows): the page is full, so the count runs too
    const k = String(Math.floor(ROWS * 0.04321));
    const searches: [name: string, url: string, keyword: string][] = [
      ['users blurry', `/api/users?page=0&size=10&sort=id,desc&blurry=user${k}`, `user${k}`],
      ['staff name', `/api/accountsStaff?page=0&size=10&staffName=${encodeURIComponent(`员工${k}`)}`, `员工${k}`],
      ['staff phone', `/api/accountsStaff?page=0&size=10&phone=${k}`, k],
      ['company name', `/api/accountsCompany?page=0&size=10&companyName=${encodeURIComponent(`派遣单位${k}`)}`, `派遣单位${k}`],
    ];
    const get = async (u: string) => {
      const r = await app.inject({ method: 'GET', url: u, headers: { authorization: `Bearer ${token}` } });
      if (r.statusCode !== 200) throw new Error(`${u}: ${r.statusCode} ${r.body}`);
      return r.json().totalElements as number;
    };
    // The search's own statements: those a request runs that carry the keyword (the count and the page; not
    // the user and permission look-ups around them).
    const statements = new Map<string, CompiledQuery[]>();
    for (const [name, u, keyword] of searches) {
      recorded.length = 0;
      recording = true;
      await get(u);
      recording = false;
      const own = recorded.filter((q) => q.parameters.some((p) => typeof p === 'string' && p.includes(keyword.toLowerCase())));
      if (own.length === 0) throw new Error(`${name}: no statement of ${u} carries the keyword`);
      statements.set(name, own);
    }
    async function median21(fn: () => Promise<unknown>): Promise<number> {
      const times: number[] = [];
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const s = process.hrtime.bigint();
        await fn();
        if (i >= WARMUP) times.push(Number(process.hrtime.bigint() - s) / 1e6);
      }
      return median(times);
    }
    async function timeAll(): Promise<Map<string, { sqlMs: number; apiMs: number; total: number; statements: number }>> {
      const out = new Map<string, { sqlMs: number; apiMs: number; total: number; statements: number }>();
      for (const [name, u] of searches) {
        const qs = statements.get(name)!;
        const sqlMs = await median21(async () => {
          for (const q of qs) await db.executeQuery(q);
        });
        const apiMs = await median21(() => get(u));
        out.set(name, { sqlMs, apiMs, total: await get(u), statements: qs.length });
      }
      return out;
    }
    const indexed = await timeAll();
    const definitions = (await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes where schemaname = current_schema()`.execute(db)).rows;
    const names = new Set(KEYWORD_TRGM_INDEXES.map(([i]) => i));
    const mine = definitions.filter((d) => names.has(d.indexname));
    if (mine.length !== KEYWORD_TRGM_INDEXES.length) console.log(`warning: only ${mine.length} of ${KEYWORD_TRGM_INDEXES.length} trigram indexes exist (pg_trgm missing?)`);
    for (const d of mine) await sql`drop index ${sql.id(d.indexname)}`.execute(db);
    const baseline = await timeAll();
    for (const d of mine) await sql.raw(d.indexdef).execute(db);
    for (const [name] of searches) {
      const a = indexed.get(name)!;
      const b = baseline.get(name)!;
      if (a.total !== b.total) throw new Error(`${name}: ${a.total} rows with the indexes, ${b.total} without`);
      console.log(
        `PostgreSQL keyword search, ${name} (${a.total} of ${ROWS.toLocaleString('en')} rows): its ${a.statements} SQL statements median ${a.sqlMs.toFixed(1)} ms with the trigram indexes, ${b.sqlMs.toFixed(1)} ms without (target <= ${TARGET_MS} ms: ${a.sqlMs <= TARGET_MS ? 'OK' : 'MISSED'}); whole request ${a.apiMs.toFixed(1)} ms, ${b.apiMs.toFixed(1)} ms without`,
      );
    }
    // one line for `npm run bench` (bench/run.ts collects the lines starting with [speed])
    const worst = (m: Map<string, { sqlMs: number }>) => Math.max(...[...m.values()].map((v) => v.sqlMs));
    console.log(
      `[speed] PostgreSQL keyword search at ${ROWS.toLocaleString('en')} rows (users, staff, companies), slowest search: ${worst(indexed).toFixed(1)} ms (target <= ${TARGET_MS} ms: ${worst(indexed) <= TARGET_MS ? 'OK' : 'MISSED'}); baseline without the trigram indexes ${worst(baseline).toFixed(1)} ms`,
    );
  } finally {
    await app.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
