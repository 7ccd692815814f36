import { sql } from 'kysely';
import { type AppConfig, configFromEnv, connectionFailure, maskUrl, StartupError } from './config.ts';
import { buildApp } from './app.ts';
import { type Database, openDatabase } from './core/db.ts';
import { openCache, type Cache } from './core/cache.ts';
import { ensurePrivateDir } from './core/privateFiles.ts';
import { prepareDatabase } from './sync/index.ts';
import { type SeedResult, seedDatabase } from './seed/index.ts';
import { seedDemoData } from './seed/demo.ts';

/**
 * Start the server: configuration from the environment; the database brought up to this release under the
 * start-up lock (migrations, definition sync, first-start seed, demo data), so instances started together
 * take turns; then serve API + web.
 */
async function main() {
  const config = configFromEnv();
  // DATA_DIR (database, keys, uploads) readable by this account only (N10); an older, looser one is tightened
  ensurePrivateDir(config.dataDir, (line) => console.warn(line));
  const database = await connectDatabase(config.dbUrl);
  const cache = await connectCache(config);
  let seeded: SeedResult = { seeded: false };
  const prepared = await prepareDatabase(database, {
    afterSync: async () => {
      seeded = await seedDatabase(database.db, database.dialect, config);
      if (config.demoData) await seedDemoData(database.db, database.dialect);
    },
  });
  const { migrations, sync } = prepared;
  if (migrations.length || sync.menus.length || sync.permissions.length || sync.dictionaries.length || sync.dictEntries) {
    console.log(
      `数据库已更新 / database updated: ${migrations.length ? `migrations ${migrations.join(', ')}; ` : ''}` +
        `new menus ${sync.menus.length}, permission codes ${sync.permissions.length}, dictionaries ${sync.dictionaries.length}, dictionary entries ${sync.dictEntries}`,
    );
  }
  if (seeded.adminPasswordShown) {
    console.log(`\n  管理员账号 admin 的初始密码 / initial admin password: ${seeded.adminPasswordShown}\n`);
  }
  const app = await buildApp(config, { database, cache, migrate: false });
  await app.listen({ port: config.port, host: config.host });
  const shutdown = async () => {
    await app.close();
    await database.destroy();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

/** Open the database and make sure it answers; an unreachable one is a StartupError naming it. */
async function connectDatabase(url: string): Promise<Database> {
  let database: Database | undefined;
  try {
    database = await openDatabase(url);
    await sql`select 1`.execute(database.db);
    return database;
  } catch (err) {
    await database?.destroy().catch(() => undefined);
    throw new StartupError(`无法连接数据库 / cannot connect to the database ${maskUrl(url)}：${connectionFailure(err)}`);
  }
}

/** Probe Redis once without retries (ioredis would otherwise retry and log each failure), then open the cache. */
async function connectCache(config: AppConfig): Promise<Cache> {
  if (config.redisUrl) {
    const { Redis } = await import('ioredis');
    const probe = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    let socketError: unknown;
    probe.on('error', (err) => {
      socketError ??= err;
    });
    try {
      await probe.connect();
      await probe.ping();
    } catch (err) {
      // without retries connect() only says "Connection is closed."; the socket's error says why
      throw new StartupError(`无法连接 Redis / cannot connect to Redis ${maskUrl(config.redisUrl)}：${connectionFailure(socketError ?? err)}`);
    } finally {
      probe.disconnect();
    }
  }
  return openCache(config.redisUrl, config.cachePrefix);
}

main().catch((err) => {
  if (err instanceof StartupError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
