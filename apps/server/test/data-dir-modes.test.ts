import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { AppConfig } from '../src/config.ts';
import { openCache } from '../src/core/cache.ts';
import { openDatabase } from '../src/core/db.ts';
import { LoggingMailSender } from '../src/core/mail.ts';
import { ensurePrivateDir } from '../src/core/privateFiles.ts';

/**
 * N10: DATA_DIR and the SQLite database are readable by the server's account only — DATA_DIR 0700, the
 * database and its -wal/-shm 0600 whatever the umask — and an older, looser DATA_DIR or database is tightened
 * at start with one line each. On a real file database in a temporary DATA_DIR, started the way main.ts does.
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-modes-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

/** main.ts's order: DATA_DIR, then the database, then the app (which writes: migrations, keys). */
async function start(dataDir: string, report: (line: string) => void) {
  ensurePrivateDir(dataDir, report);
  const database = await openDatabase(`sqlite:${path.join(dataDir, 'app.db')}`, { report });
  const config: AppConfig = {
    port: 0,
    host: '127.0.0.1',
    dbUrl: 'test',
    cachePrefix: `test:${crypto.randomBytes(6).toString('hex')}:`,
    captchaEnabled: false,
    demoData: false,
    dataDir,
    production: false,
    webDist: undefined,
    tokenTtlSeconds: 3600,
    rememberMeTtlSeconds: 3600,
    loginRateLimitPerMinute: 1000,
    logRequests: false,
    scheduler: false,
  };
  const cache = await openCache(undefined, config.cachePrefix);
  const app = await buildApp(config, { database, cache, mail: new LoggingMailSender(() => undefined) });
  await app.ready();
  return app;
}

describe('files at rest (N10)', () => {
  it('a new DATA_DIR is 0700 and the database with its -wal and -shm 0600, under the usual umask', async () => {
    const previous = process.umask();
    expect(previous & 0o077).not.toBe(0o077); // the umask alone would leave them readable to others
    const dataDir = path.join(root, 'fresh', 'data');
    const lines: string[] = [];
    const app = await start(dataDir, (l) => lines.push(l));
    try {
      const db = path.join(dataDir, 'app.db');
      expect(fs.existsSync(`${db}-wal`)).toBe(true);
      expect(fs.existsSync(`${db}-shm`)).toBe(true);
      expect(modeOf(dataDir).toString(8)).toBe('700');
      for (const f of [db, `${db}-wal`, `${db}-shm`]) expect(modeOf(f).toString(8), f).toBe('600');
      expect(modeOf(path.join(dataDir, 'keys')).toString(8)).toBe('700');
      expect(lines).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('an existing looser DATA_DIR and database are tightened at start, one line each', async () => {
    const dataDir = path.join(root, 'old');
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    const first = await start(dataDir, () => undefined);
    await first.close();
    const db = path.join(dataDir, 'app.db');
    fs.chmodSync(dataDir, 0o755);
    fs.chmodSync(db, 0o644);
    const lines: string[] = [];
    const app = await start(dataDir, (l) => lines.push(l));
    try {
      expect(modeOf(dataDir).toString(8)).toBe('700');
      for (const f of [db, `${db}-wal`, `${db}-shm`]) expect(modeOf(f).toString(8), f).toBe('600');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toContain(`${dataDir} 0755 -> 0700`);
      expect(lines[1]).toContain(`${db} 0644 -> 0600`);
      // the data is still there (the file was not recreated)
      expect((await app.ctx.db.selectFrom('sys_menu').select('id').execute()).length).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });
});
