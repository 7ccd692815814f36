/**
 * Shared by the user benchmarks (users-list, web-users): a throwaway database (SQLite, or the server named by
 * BENCH_PG_URL / BENCH_MYSQL_URL) with the first-start seed plus N ordinary users spread over the seeded
 * departments, each holding the 普通员工 role. Not a benchmark itself (files starting with `_` are skipped).
 */
import { sql } from 'kysely';
import type { Database } from '../apps/server/src/core/db.ts';
import { seedDatabase } from '../apps/server/src/seed/index.ts';
import { openThrowawayDatabase } from '../apps/server/test/throwawayDatabase.ts';

export interface BenchDatabase {
  database: Database;
  /** 'SQLite', 'PostgreSQL' or 'MariaDB/MySQL', for the printed figures. */
  label: string;
  cleanup: () => Promise<void>;
}

/** An empty throwaway database of the kind chosen by BENCH_PG_URL / BENCH_MYSQL_URL (default SQLite). */
export async function openBenchDatabase(): Promise<BenchDatabase> {
  const kind = process.env.BENCH_PG_URL ? 'postgres' : process.env.BENCH_MYSQL_URL ? 'mysql' : 'sqlite';
  const { database, drop } = await openThrowawayDatabase(kind, kind === 'postgres' ? process.env.BENCH_PG_URL : process.env.BENCH_MYSQL_URL);
  return { database, label: { sqlite: 'SQLite', postgres: 'PostgreSQL', mysql: 'MariaDB/MySQL' }[kind], cleanup: drop };
}

/** How many users the benchmarks seed: BENCH_USERS, default 100,000. */
export function benchUserCount(): number {
  return Number(process.env.BENCH_USERS ?? 100_000);
}

/**
 * Run the first-start seed (admin admin123, roles, departments, menus...) on a migrated database, then insert
 * `count` users `user0..user<count-1>` (员工<n>, user<n>@example.com) with the 普通员工 role. Returns the seconds
 * the user rows took and the highest user id.
 */
export async function seedBenchUsers(database: Database, count: number): Promise<{ seconds: number; maxId: number }> {
  const db = database.db;
  await seedDatabase(db, database.dialect, { adminPassword: undefined, production: false });
  const role = await db.selectFrom('sys_role').select('id').where('name', '=', '普通员工').executeTakeFirstOrThrow();
  const depts = (await db.selectFrom('sys_dept').select('id').execute()).map((d) => d.id as number);
  const job = await db.selectFrom('sys_job').select('id').executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const t0 = Date.now();
  const BATCH = database.dialect === 'sqlite' ? 500 : 1000;
  for (let i = 0; i < count; i += BATCH) {
    const rows = [];
    for (let j = i; j < Math.min(count, i + BATCH); j++) {
      rows.push({ username: `user${j}`, cname: `员工${j}`, email: `user${j}@example.com`, phone: '13800000000', password_hash: 'x', enabled: 1, dept_id: depts[j % depts.length], job_id: job.id, token_version: 0, create_time: now, update_time: now });
    }
    await db.insertInto('sys_user').values(rows).execute();
  }
  const maxUser = await db.selectFrom('sys_user').select((eb) => eb.fn.max('id').as('m')).executeTakeFirstOrThrow();
  await sql`insert into sys_users_roles (user_id, role_id) select id, ${role.id} from sys_user where id > 1`.execute(db);
  return { seconds: (Date.now() - t0) / 1000, maxId: Number(maxUser.m) };
}
