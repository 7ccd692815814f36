
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openThrowawayDatabase } from '../apps/server/test/throwawayDatabase.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { configFromEnv } from '../apps/server/src/config.ts';
import { likeContains, type Database } from '../apps/server/src/core/db.ts';
import { encryptLoginPassword } from '../apps/server/src/core/auth/keys.ts';
import { seedDatabase, DEV_ADMIN_PASSWORD } from '../apps/server/src/seed/index.ts';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const RUNS = 50;

async function openBenchDatabase(): Promise<{ database: Database; label: string; cleanup: () => Promise<void> }> {
  const kind = process.env.BENCH_PG_URL ? 'postgres' : process.env.BENCH_MYSQL_URL ? 'mysql' : 'sqlite';
  const { database, drop } = await openThrowawayDatabase(kind, kind === 'postgres' ? process.env.BENCH_PG_URL : process.env.BENCH_MYSQL_URL);
  return { database, label: { sqlite: 'SQLite', postgres: 'PostgreSQL', mysql: 'MariaDB/MySQL' }[kind], cleanup: drop };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function time(fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 5; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    out.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return out;
}

async function main() {
  const { database, label, cleanup } = await openBenchDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-users-data-'));
  const config = { ...configFromEnv({}), dataDir, captchaEnabled: false, logRequests: false, scheduler: false, webDist: undefined, loginRateLimitPerMinute: 100000 };
  const app = await buildApp(config, { database });
  await seedDatabase(database.db, database.dialect, { adminPassword: undefined, production: false });
  const db = database.db;
  const role = await db.selectFrom('sys_role').select('id').where('name', '=', '普通员工').executeTakeFirstOrThrow();
  const depts = (await db.selectFrom('sys_dept').select('id').execute()).map((d) => d.id as number);
  const job = await db.selectFrom('sys_job').select('id').executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const t0 = Date.now();
  const BATCH = database.dialect === 'sqlite' ? 500 : 1000;
  for (let i = 0; i < USERS; i += BATCH) {
    const rows = [];
    for (let j = i; j < Math.min(USERS, i + BATCH); j++) {
      rows.push({ username: `user${j}`, cname: `员工${j}`, email: `user${j}@example.com`, phone: '13800000000', password_hash: 'x', enabled: 1, dept_id: depts[j % depts.length], job_id: job.id, token_version: 0, create_time: now, update_time: now });
    }
    await db.insertInto('sys_user').values(rows).execute();
  }
  const maxUser = await db.selectFrom('sys_user').select((eb) => eb.fn.max('id').as('m')).executeTakeFirstOrThrow();
  await sql`insert into sys_users_roles (user_id, role_id) select id, ${role.id} from sys_user where id > 1`.execute(db);
  console.log(`${label}: seeded ${USERS.toLocaleString('en')} users in ${((Date.now() - t0) / 1000).toFixed(1)} s (max id ${maxUser.m})`);

  const pk = (await app.inject({ method: 'GET', url: '/auth/publicKey' })).json().publicKey;
  const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'admin', password: encryptLoginPassword(pk, DEV_ADMIN_PASSWORD) } });
  const token = login.json().token;

  // The SQL the list endpoint runs for these requests: count, page, and the relation look-ups.
  async function raw(filter: string | null, page: number, size: number) {
    let base = db.selectFrom('sys_user');
    if (filter) base = base.where((eb) => eb.or([likeContains(database.dialect, 'sys_user.username', filter) as never, likeContains(database.dialect, 'sys_user.email', filter) as never]));
    await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    const rows = await base.selectAll().orderBy('id', 'desc').limit(size).offset(page * size).execute();
    const ids = rows.map((r) => r.id as number);
    if (ids.length) {
      await db.selectFrom('sys_dept').select(['id', 'name']).where('id', 'in', [...new Set(rows.map((r) => r.dept_id as number))]).execute();
      await db.selectFrom('sys_job').select(['id', 'name']).where('id', 'in', [...new Set(rows.map((r) => r.job_id as number))]).execute();
      await db.selectFrom('sys_users_roles as ur').innerJoin('sys_role as r', 'r.id', 'ur.role_id').select(['ur.user_id', 'r.id', 'r.name', 'r.level']).where('ur.user_id', 'in', ids).execute();
    }
  }
  async function api(url: string) {
    const r = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
  }
  const cases: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
    ['page=500&size=10', () => api('/api/users?page=500&size=10&sort=id,desc'), () => raw(null, 500, 10)],
    ['blurry=user12 page=3', () => api('/api/users?page=3&size=10&sort=id,desc&blurry=user12'), () => raw('user12', 3, 10)],
  ];
  for (const [name, viaApi, viaSql] of cases) {
    const a = median(await time(viaApi));
    const s = median(await time(viaSql));
    console.log(`${label} ${name}: API median ${a.toFixed(2)} ms, raw SQL median ${s.toFixed(2)} ms, ratio ${(a / s).toFixed(2)}x (target <= 2x)`);
  }
  await app.close();
  await cleanup();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
