import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/core/db.ts';
import { TEST_DB } from './helpers.ts';
import { throwawayUrl } from './throwawayUrl.ts';

/**
 * Real `main.ts` processes: two started at the same instant on one empty database both serve (finding S7),
 * and an unreachable database or Redis ends start-up with one operator line and a non-zero exit (finding S8).
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(env: Record<string, string>): Started {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-main-'));
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      DATA_DIR: dataDir,
      WEB_DIST: path.join(dataDir, 'no-web'),
      SCHEDULER_ENABLED: 'false',
      LOG_REQUESTS: 'false',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

/** Poll until the instance answers GET /auth/publicKey; fails if it exits first. */
async function serving(s: Started, port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  s.exited.then((c) => {
    exitCode = c;
  });
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`instance on ${port} exited with ${exitCode}:\n${s.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/auth/publicKey`);
      if (res.status === 200 && (await res.json()).publicKey) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`instance on ${port} did not answer within ${timeoutMs} ms:\n${s.output()}`);
}

async function stop(s: Started): Promise<void> {
  if (s.child.exitCode === null) s.child.kill('SIGTERM');
  await s.exited;
}

describe('start-up of main.ts', () => {
  it('an unreachable database: one line naming it (password masked), no stack, exit code 1', async () => {
    const s = startServer({ DB_URL: 'postgres://x:secret@127.0.0.1:1/db', PORT: String(await freePort()) });
    expect(await s.exited).toBe(1);
    const lines = s.output().trim().split('\n');
    expect(lines).toEqual(['无法连接数据库 / cannot connect to the database postgres://x:***@127.0.0.1:1/db：ECONNREFUSED']);
  }, 60_000);

  it('an unreachable Redis: one line naming it (password masked), exit code 1', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-main-db-'));
    const s = startServer({ DB_URL: `sqlite:${path.join(dir, 'app.db')}`, REDIS_URL: 'redis://:secret@127.0.0.1:1/0', PORT: String(await freePort()), DEMO_DATA: 'false' });
    expect(await s.exited).toBe(1);
    expect(s.output().trim().split('\n')).toEqual(['无法连接 Redis / cannot connect to Redis redis://:***@127.0.0.1:1/0：ECONNREFUSED']);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it(`two instances started at the same instant on one empty ${TEST_DB} database both serve`, async () => {
    const { url, drop } = await throwawayUrl();
    try {
      const ports = [await freePort(), await freePort()];
      // with TEST_REDIS_URL both share a Redis too, as instances behind one load balancer would
      const redis: Record<string, string> = process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL, CACHE_PREFIX: `test:two-${ports[0]}:` } : {};
      const [a, b] = ports.map((port) => startServer({ DB_URL: url, PORT: String(port), DEMO_DATA: 'true', ...redis }));
      try {
        await Promise.all([serving(a, ports[0], 150_000), serving(b, ports[1], 150_000)]);
      } finally {
        await Promise.all([stop(a), stop(b)]);
      }
      const database = await openDatabase(url);
      try {
        const admins = await database.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').execute();
        expect(admins).toHaveLength(1);
        const companies = await database.db.selectFrom('accounts_company').select('company_name').execute();
        expect(companies.length).toBe(new Set(companies.map((c) => c.company_name)).size);
      } finally {
        await database.destroy();
      }
    } finally {
      await drop();
    }
  }, 200_000);
});
