/**
 * Issue 27: the request path against its floor, over HTTP on loopback (prints figures, asserts nothing).
 *   node --import tsx bench/http-floor.ts            SQLite, then PostgreSQL when BENCH_PG_URL or TEST_PG_URL is set
 *   BENCH_USERS=20000 BENCH_STAFF=5000 BENCH_SECONDS=2 BENCH_ROUNDS=1 ...   a smaller, quicker run
 *   BENCH_ONLY=PostgreSQL ...                        one database only
 *   BENCH_PROFILE=bench/out ...                      the product's V8 CPU profile (written when it stops)
 *   BENCH_PROFILE_FLOOR=1 ...                        with BENCH_PROFILE: the floor's profile too (its own file)
 *   BENCH_CASES=info,users ...                       only the cases whose URL holds one of these words
 *
 * One database (100,000 users; a company of 10,000 staff among 30,000), two servers on it as child processes:
 * - the product, started the way `npm start` starts it (the bundled apps/server/dist/main.js, BENCH_TSX=1: the
 *   sources under tsx as before issue 27; no scheduler, no request log, no demo data, NODE_ENV=production);
 * - the floor (bench/_floorServer.ts, bundled alike into bench/out/floor): bare Fastify, the same driver, token
 *   check and SQL, rows mapped by hand.
 * For GET /auth/info, GET /api/users?page=0&size=10 and the big company's staff list: autocannon runs (10
 * connections) taken in alternation (product, floor, floor, product...) after a warm-up of each, then req/s, the
 * server process's CPU µs per request (utime+stime from /proc/<pid>/stat over the run) and the ratio product/floor
 * (target >= 0.8). Idle RSS of both after start (target <= 1.5x the floor), after the runs, and at rest
 * (BENCH_REST_SECONDS, 20, without requests). The load generator runs in this process on the same 2 cores, alike
 * for both sides.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { idCardCheckDigit } from '@app/shared/idcard';
import { openDatabase } from '../apps/server/src/core/db.ts';
import { prepareDatabase } from '../apps/server/src/sync/index.ts';
import { loadOrCreateKeys } from '../apps/server/src/core/auth/keys.ts';
import { signToken } from '../apps/server/src/core/auth/tokens.ts';
import { seedBenchUsers } from './_seedUsers.ts';
import { buildServerIfChanged, bundleServer, SERVER_DIST } from '../scripts/build-server.mjs';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const STAFF = Number(process.env.BENCH_STAFF ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const TARGET_RATIO = 0.8;
const TARGET_RSS = 1.5;
const ROOT = path.resolve(import.meta.dirname, '..');
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** CPU seconds (user + system) a process (all its threads) or, with `mainThread`, its JavaScript thread has used so far. */
function cpuSeconds(pid: number, mainThread = false): number {
  const stat = fs.readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

interface Server {
  name: string;
  child: ChildProcess;
  base: string;
}

/** `args`: what follows `node` (a built .js file, or `--import tsx` and a .ts file). */
async function startServer(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<Server> {
  const port = await freePort();
  // BENCH_PROFILE=<folder>: the product writes a V8 CPU profile there when it stops (open it in Chrome DevTools)
  const profile = (name === 'product' || process.env.BENCH_PROFILE_FLOOR === '1') && process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`] : [];
  const child = spawn(process.execPath, [...profile, ...args], { cwd: ROOT, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      await fetch(`${base}/auth/info`);
      return { name, child, base };
    } catch {
      if (Date.now() > until) throw new Error(`${name} did not start`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function stopServer(s: Server): Promise<void> {
  if (s.child.exitCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (s.child.exitCode === null) s.child.kill('SIGKILL');
}

/** One autocannon run; requests answered 2xx and the server's CPU seconds over it. */
async function load(s: Server, url: string, headers: Record<string, string>, seconds: number): Promise<{ requests: number; seconds: number; cpu: number; mainCpu: number }> {
  const [cpu0, main0] = [cpuSeconds(s.child.pid!), cpuSeconds(s.child.pid!, true)];
  const result = await autocannon({ url: `${s.base}${url}`, connections: CONNECTIONS, duration: seconds, headers });
  const [cpu, mainCpu] = [cpuSeconds(s.child.pid!) - cpu0, cpuSeconds(s.child.pid!, true) - main0];
  if (result.non2xx || result.errors) throw new Error(`${s.name} ${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { requests: result['2xx'], seconds: result.duration, cpu, mainCpu };
}

/** The same answer on both sides (ids and totals; the floor maps staff without the product's conversions). */
async function sameAnswer(product: Server, floor: Server, url: string, headers: Record<string, string>): Promise<string> {
  const answers = await Promise.all(
    [product, floor].map(async (s) => {
      const res = await fetch(`${s.base}${url}`, { headers });
      const body = Buffer.from(await res.arrayBuffer());
      // bytes on the wire per answer (head + body): a bigger answer costs more to write on both sides
      const head = [...res.headers].reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
      return { json: JSON.parse(body.toString('utf8')) as Record<string, any>, bytes: `${head} + ${body.length}` };
    }),
  );
  const [a, b] = answers.map((x) => x.json);
  const sizes = `bytes head+body ${answers[0].bytes} / ${answers[1].bytes}`;
  if (url === '/auth/info') return JSON.stringify(a) === JSON.stringify(b) ? `same JSON; ${sizes}` : `DIFFERENT: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  const ids = (x: Record<string, any>) => JSON.stringify([x.totalElements, x.content.map((r: { id: number }) => r.id)]);
  return ids(a) === ids(b) ? `same ids and totalElements (${a.totalElements}); ${sizes}` : `DIFFERENT: ${ids(a)} vs ${ids(b)}`;
}

/** A valid, distinct ID card per staff number (birth dates from 1960 on, then the sequence number). */
function idCard(i: number): string {
  const born = new Date(Date.UTC(1960, 0, 1) + (i % 20_000) * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
  const first17 = `110101${born}${String(Math.floor(i / 20_000)).padStart(3, '0')}`;
  return first17 + idCardCheckDigit(first17);
}

async function seedStaff(db: Awaited<ReturnType<typeof openDatabase>>['db']): Promise<number> {
  const now = new Date().toISOString();
  for (const n of [1, 2, 3]) await sql`insert into accounts_company (company_name, dept_id, create_time, update_time) values (${`基准单位${n}`}, 1, ${now}, ${now})`.execute(db);
  const companies = (await db.selectFrom('accounts_company').select('id').orderBy('id').execute()).map((c) => Number(c.id));
  const big = companies[0];
  const BATCH = 500;
  for (let i = 0; i < STAFF * 3; i += BATCH) {
    const rows = [];
    for (let j = i; j < Math.min(STAFF * 3, i + BATCH); j++) {
      const company = companies[j % 3];
      rows.push({ company_id: company, company_name: `基准单位${(j % 3) + 1}`, staff_name: `员工${j}`, id_card: idCard(j), phone: '13800138000', job_state: '在职', create_time: now, update_time: now });
    }
    await db.insertInto('accounts_staff').values(rows as never).execute();
  }
  return big;
}

async function benchOn(label: string, dbUrl: string, dataDir: string): Promise<string[]> {
  const setup = await openDatabase(dbUrl);
  await prepareDatabase(setup);
  const t0 = Date.now();
  await seedBenchUsers(setup, USERS);
  const bigCompany = await seedStaff(setup.db);
  if (setup.dialect === 'postgres') for (const t of ['sys_user', 'accounts_staff', 'sys_users_roles']) await sql`analyze ${sql.table(t)}`.execute(setup.db);
  const admin = await setup.db.selectFrom('sys_user').select(['id', 'token_version']).where('username', '=', 'admin').executeTakeFirstOrThrow();
  await setup.destroy();
  console.log(`${label}: seeded ${USERS.toLocaleString('en')} users and ${(STAFF * 3).toLocaleString('en')} staff (${STAFF.toLocaleString('en')} in the big company) in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

  const keys = loadOrCreateKeys(dataDir);
  const token = signToken(keys.tokenSecret, Number(admin.id), Number(admin.token_version), 3600).token;
  const headers = { authorization: `Bearer ${token}` };
  const env = { DB_URL: dbUrl, DATA_DIR: dataDir, HOST: '127.0.0.1', NODE_ENV: 'production', ADMIN_PASSWORD: 'Bench-admin-123', CAPTCHA_ENABLED: 'false', DEMO_DATA: 'false', LOG_REQUESTS: 'false', SCHEDULER_ENABLED: 'false' };
  const product = await startServer('product', PRODUCT, env);
  const floor = await startServer('floor', [FLOOR], env);
  const lines: string[] = [];
  try {
    await new Promise((r) => setTimeout(r, 2000));
    const idle = [rssMb(product.child.pid!), rssMb(floor.child.pid!)];
    const cases: [name: string, url: string][] = [
      ['GET /auth/info', '/auth/info'],
      [`GET /api/users?page=0&size=10 (${USERS.toLocaleString('en')} users)`, '/api/users?page=0&size=10'],
      [`staff list of a ${STAFF.toLocaleString('en')}-staff company`, `/api/accountsStaff?companyId=${bigCompany}&page=0&size=10`],
    ];
    // BENCH_CASES=info,users: only the cases whose URL holds one of these words
    const only = process.env.BENCH_CASES?.split(',');
    for (const [name, url] of cases.filter(([, u]) => !only || only.some((w) => u.includes(w)))) {
      const same = await sameAnswer(product, floor, url, headers);
      // warm-up (JIT, statement caches, pools), then the timed runs in alternation
      for (const s of [product, floor]) await load(s, url, headers, Math.min(2, SECONDS));
      const sum = new Map<Server, { requests: number; seconds: number; cpu: number; mainCpu: number }>([
        [product, { requests: 0, seconds: 0, cpu: 0, mainCpu: 0 }],
        [floor, { requests: 0, seconds: 0, cpu: 0, mainCpu: 0 }],
      ]);
      for (let round = 0; round < ROUNDS; round++) {
        for (const s of round % 2 ? [floor, product] : [product, floor]) {
          const r = await load(s, url, headers, SECONDS);
          const t = sum.get(s)!;
          t.requests += r.requests;
          t.seconds += r.seconds;
          t.cpu += r.cpu;
          t.mainCpu += r.mainCpu;
        }
      }
      const [p, f] = [sum.get(product)!, sum.get(floor)!];
      const [pRate, fRate] = [p.requests / p.seconds, f.requests / f.seconds];
      const [pCpu, fCpu] = [(p.cpu / p.requests) * 1e6, (f.cpu / f.requests) * 1e6];
      // of which the JavaScript thread (the rest: garbage-collector helpers, compiler and libuv threads)
      const [pMain, fMain] = [(p.mainCpu / p.requests) * 1e6, (f.mainCpu / f.requests) * 1e6];
      const ratio = pRate / fRate;
      const line = `${label} ${name}: product ${pRate.toFixed(0)} req/s, ${pCpu.toFixed(0)} µs CPU/request (main thread ${pMain.toFixed(0)}); floor ${fRate.toFixed(0)} req/s, ${fCpu.toFixed(0)} µs CPU/request (main thread ${fMain.toFixed(0)}); ratio ${ratio.toFixed(2)} (target >= ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'OK' : 'MISSED'}); CPU ratio floor/product ${(fCpu / pCpu).toFixed(2)}; answers: ${same}`;
      console.log(line);
      lines.push(line);
    }
    const afterRuns = [rssMb(product.child.pid!), rssMb(floor.child.pid!)];
    // At rest: V8's memory reducer shrinks a heap some seconds after the requests stop (seen at ~16 s after start);
    // BENCH_REST_SECONDS=0 skips this figure.
    const restSeconds = Number(process.env.BENCH_REST_SECONDS ?? 20);
    let rest = '';
    if (restSeconds > 0) {
      await new Promise((r) => setTimeout(r, restSeconds * 1000));
      const [p, f] = [rssMb(product.child.pid!), rssMb(floor.child.pid!)];
      rest = `; at rest (${restSeconds} s without requests) ${p.toFixed(0)} / ${f.toFixed(0)} MB, ${(p / f).toFixed(2)}x`;
    }
    const rssLine = `${label} idle RSS: product ${idle[0].toFixed(0)} MB, floor ${idle[1].toFixed(0)} MB, ${(idle[0] / idle[1]).toFixed(2)}x (target <= ${TARGET_RSS}x: ${idle[0] / idle[1] <= TARGET_RSS ? 'OK' : 'MISSED'}); after the runs ${afterRuns[0].toFixed(0)} / ${afterRuns[1].toFixed(0)} MB${rest}`;
    console.log(rssLine);
    lines.push(rssLine);
  } finally {
    await stopServer(product);
    await stopServer(floor);
  }
  return lines;
}

/**
 * The product as `npm start` runs it (the bundle scripts/build-server.mjs makes; BENCH_TSX=1: the TypeScript sources
 * under the tsx loader, as `npm start` did before), and the floor bundled the same way, so that neither carries a
 * loader the other lacks.
 */
/** The node options `npm start` gives the built server (package.json "start"), so the product runs here as it is started. */
function startFlags(): string[] {
  const start: string = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  const m = /node ((?:--\S+ )*)apps\/server\/dist\/main\.js/.exec(start);
  if (!m) throw new Error(`package.json "start" no longer runs apps/server/dist/main.js: ${start}`);
  return m[1].split(' ').filter(Boolean);
}
const PRODUCT = process.env.BENCH_TSX === '1' ? ['--import', 'tsx', 'apps/server/src/main.ts'] : [...startFlags(), path.join(SERVER_DIST, 'main.js')];
const FLOOR = path.join(ROOT, 'bench/out/floor/_floorServer.js');

async function main() {
  if (process.env.BENCH_TSX !== '1') await buildServerIfChanged();
  await bundleServer(path.join(ROOT, 'bench/_floorServer.ts'), path.dirname(FLOOR));
  const pgUrl = process.env.BENCH_PG_URL ?? process.env.TEST_PG_URL;
  let kinds: ['SQLite' | 'PostgreSQL', string | undefined][] = [['SQLite', undefined]];
  if (pgUrl) kinds.push(['PostgreSQL', pgUrl]);
  // BENCH_ONLY=SQLite or PostgreSQL: one of them
  if (process.env.BENCH_ONLY) kinds = kinds.filter(([label]) => label === process.env.BENCH_ONLY);
  for (const [label, url] of kinds) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-floor-'));
    let dbUrl = `sqlite:${path.join(dataDir, 'app.db')}`;
    let drop = async () => {};
    if (url) {
      const schema = `bench_floor_${Date.now().toString(36)}`;
      const adminDb = await openDatabase(url);
      await adminDb.db.schema.createSchema(schema).execute();
      dbUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      drop = async () => {
        await adminDb.db.schema.dropSchema(schema).cascade().execute();
        await adminDb.destroy();
      };
    }
    try {
      const lines = await benchOn(label, dbUrl, dataDir);
      for (const l of lines) console.log(`[speed] ${l}`);
    } finally {
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
