
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { configFromEnv } from '../apps/server/src/config.ts';
import { likeContains, type Database } from '../apps/server/src/core/db.ts';
import { encryptLoginPassword } from '../apps/server/src/core/auth/keys.ts';
import { validationClock } from '../apps/server/src/crud/routeSchemas.ts';
import { DEV_ADMIN_PASSWORD } from '../apps/server/src/seed/index.ts';
import { permissionCodes } from '@app/shared/resource';
import { userResource } from '@app/shared/resources/user';
import { benchUserCount, openBenchDatabase, seedBenchUsers } from './_seedUsers.ts';

const USERS = benchUserCount();
/** Timed runs per side, taken in alternation (API, raw, API, raw...). */
const RUNS = 100;
/**
 * Untimed pairs first, for 3 s (at least 20 pairs): a server answers the list thousands of times, so the figure is
 * its steady state. 300 pairs (this bench's earlier cap, ~0.3 s) left the request path partly unoptimised by V8:
 * the list measured 0.62-0.65 ms there and 0.45 ms after 3 s, the SQL alone 0.28-0.30 and 0.25 ms.
 */
const WARMUP = { min: 20, ms: 3000 };
/** Issue 13 item 6: the users list within 1.5x the driver (issue 9 allows at most 2x). */
const TARGET_RATIO = 1.5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timeOnce(fn: () => Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/**
 * Median milliseconds of each side. Both sides are warmed up alike before either is timed (JIT, query plans,
 * pool connections), then timed in alternation, so that neither profits from the other's warm-up and load
 * changes on the machine hit both.
 */
async function compare(viaApi: () => Promise<unknown>, viaSql: () => Promise<unknown>): Promise<[api: number, sql: number]> {
  const until = Date.now() + WARMUP.ms;
  for (let i = 0; i < WARMUP.min || Date.now() < until; i++) {
    await viaApi();
    await viaSql();
  }
  const a: number[] = [];
  const s: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    a.push(await timeOnce(viaApi));
    s.push(await timeOnce(viaSql));
  }
  return [median(a), median(s)];
}

/**
 * A Kysely instance over the same connection that can write down the SQL (text and parameters) of what runs
 * through it. The app and the raw side both use it, so both pay the same (tiny) plugin cost.
 */
function sqlRecorder(database: Database) {
  const statements: string[] = [];
  let on = false;
  const db = database.db.withPlugin({
    transformQuery(args) {
      if (on) {
        const q = database.db.getExecutor().compileQuery(args.node, args.queryId);
        statements.push(`${q.sql} ${JSON.stringify(q.parameters)}`);
      }
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  });
  async function record(fn: () => Promise<unknown>): Promise<string[]> {
    statements.length = 0;
    on = true;
    try {
      await fn();
    } finally {
      on = false;
    }
    return [...statements];
  }
  return { db, record };
}

async function main() {
  const { database, label, cleanup } = await openBenchDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-users-data-'));
  const config = { ...configFromEnv({}), dataDir, captchaEnabled: false, logRequests: false, scheduler: false, webDist: undefined, loginRateLimitPerMinute: 100000 };
  const recorder = sqlRecorder(database);
  const app = await buildApp(config, { database: { ...database, db: recorder.db } });
  // The floor of any answer through the same stack: a route guarded like the list (token, permission code, data
  // scope, security headers) that runs the raw side's SQL and answers with the list's own JSON, made beforehand.
  // What the list costs above this is the list's own work (query-string schema, paging, filters, row mapping,
  // look-ups); what this costs above the SQL is inject, routing, the guard and writing the answer. Only for the
  // quick case (the first below): beside a 25 ms search the difference is lost in the noise.
  let floorAnswer = '';
  app.get('/bench/users-floor', { config: { auth: permissionCodes(userResource, 'list') } }, async (_req, reply) => {
    await raw(null, 500, 10);
    reply.type('application/json; charset=utf-8');
    return floorAnswer;
  });
  const seeded = await seedBenchUsers(database, USERS);
  const db = recorder.db;
  console.log(`${label}: seeded ${USERS.toLocaleString('en')} users in ${seeded.seconds.toFixed(1)} s (max id ${seeded.maxId})`);

  const pk = (await app.inject({ method: 'GET', url: '/auth/publicKey' })).json().publicKey;
  const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'admin', password: encryptLoginPassword(pk, DEV_ADMIN_PASSWORD) } });
  const token = login.json().token;

  // The SQL the list endpoint runs for these requests, built and run the way the endpoint does (past the first
  // page: the count, then the page if it lies within the count; then the department, job and role look-ups side
  // by side). Checked below.
  async function raw(filter: string | null, page: number, size: number) {
    let base = db.selectFrom('sys_user');
    if (filter) base = base.where((eb) => eb.or([likeContains(database.dialect, 'sys_user.username', filter) as never, likeContains(database.dialect, 'sys_user.email', filter) as never]));
    const count = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    if (page * size >= Number(count?.n ?? 0)) return;
    const rows = await base.selectAll('sys_user').orderBy('sys_user.id', 'desc').limit(size).offset(page * size).execute();
    if (rows.length === 0) return;
    const ids = rows.map((r) => Number(r.id));
    const deptIds = [...new Set(rows.map((r) => r.dept_id).filter((v) => v !== null).map(Number))];
    const jobIds = [...new Set(rows.map((r) => r.job_id).filter((v) => v !== null).map(Number))];
    await Promise.all([
      deptIds.length ? db.selectFrom('sys_dept').select(['id', 'name']).where('id', 'in', deptIds).execute() : [],
      jobIds.length ? db.selectFrom('sys_job').select(['id', 'name']).where('id', 'in', jobIds).execute() : [],
      db
        .selectFrom('sys_users_roles as l')
        .innerJoin('sys_role as t', 't.id', 'l.role_id')
        .select(['l.user_id as __owner', 't.id as id', 't.name as name', 't.level as level'])
        .where('l.user_id', 'in', ids)
        .orderBy('t.level', 'asc')
        .orderBy('t.id', 'asc')
        .execute(),
    ]);
  }
  async function api(url: string) {
    const r = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
    return r.body;
  }
  const cases: [name: string, url: string, viaSql: () => Promise<unknown>][] = [
    ['page=500&size=10', '/api/users?page=500&size=10&sort=id,desc', () => raw(null, 500, 10)],
    ['blurry=user12 page=3', '/api/users?page=3&size=10&sort=id,desc&blurry=user12', () => raw('user12', 3, 10)],
  ];
  for (const [name, url, viaSql] of cases) {
    const viaApi = () => api(url);
    // Fair comparison: a warm request runs exactly the statements the raw side runs, neither more nor fewer.
    await viaApi();
    const apiSql = await recorder.record(viaApi);
    const rawSql = await recorder.record(viaSql);
    if (apiSql.join('\n') !== rawSql.join('\n')) {
      throw new Error(`${name}: the raw side does not run the endpoint's SQL\nAPI:\n  ${apiSql.join('\n  ')}\nraw:\n  ${rawSql.join('\n  ')}`);
    }
    const [a, s] = await compare(viaApi, viaSql);
    // Route-schema validation (the querystring parse) of these requests, timed inside the validator.
    validationClock.ns = 0;
    validationClock.calls = 0;
    validationClock.on = true;
    for (let i = 0; i < RUNS; i++) await viaApi();
    validationClock.on = false;
    const validationUs = validationClock.ns / RUNS / 1000;
    console.log(
      `${label} ${name}: API median ${a.toFixed(2)} ms, raw SQL median ${s.toFixed(2)} ms, ratio ${(a / s).toFixed(2)}x (target <= ${TARGET_RATIO}x, at most 2x; same ${apiSql.length} SQL statements on both sides); route-schema validation ${validationUs.toFixed(1)} µs per request (${(validationClock.calls / RUNS).toFixed(0)} parts)`,
    );
    if (name === cases[0][0]) {
      floorAnswer = await viaApi();
      const [f, s2] = await compare(() => api('/bench/users-floor'), viaSql);
      const ownWorkUs = Math.max(0, (a - s - (f - s2)) * 1000);
      console.log(
        `${label} ${name}: floor (a guarded route running the same SQL, answering the same JSON made beforehand) ${f.toFixed(2)} ms, ${(f / s2).toFixed(2)}x its SQL (${s2.toFixed(2)} ms); the list's own work above that floor ~${ownWorkUs.toFixed(0)} µs`,
      );
      // one line for `npm run bench` (bench/run.ts collects the lines starting with [speed])
      console.log(
        `[speed] users list on ${label} (${USERS.toLocaleString('en')} users, ${name}): ${a.toFixed(2)} ms, ${(a / s).toFixed(2)}x the same SQL through the driver (target <= ${TARGET_RATIO}x: ${a / s <= TARGET_RATIO ? 'OK' : 'MISSED'}; issue 9's limit 2x: ${a / s <= 2 ? 'OK' : 'MISSED'}); baseline the SQL alone ${s.toFixed(2)} ms; a guarded route that only runs that SQL and answers the same JSON: ${(f / s2).toFixed(2)}x`,
      );
    }
  }
  await app.close();
  await cleanup();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
