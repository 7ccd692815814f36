import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { type Database, openDatabase } from '../db.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The application's database (core/db.ts): the Kysely instance, its dialect and how to close it. */
    database: Database;
  }
}

export interface DbPluginOptions {
  /** An opened database to use (tests, benchmarks); it stays open when the app closes: its owner closes it. */
  database?: Database;
  /** Where to open the database when none is given (config.dbUrl). */
  url?: string;
  /**
   * Prepares the database before anything reads the tables: the migrations and the definition sync (src/sync,
   * handed in by app.ts so that core does not import the layers above it). Absent: the database is used as it is.
   */
  prepare?: (database: Database) => Promise<unknown>;
}

/**
 * The `db` plugin: opens (or receives) the database, prepares it when asked and closes what it opened. Registered
 * first, so that, avvio closing plugins in the reverse order, the database is closed after every plugin and
 * module that may still write to it on the way out (scheduler runs, the operation log).
 */
async function dbPlugin(app: FastifyInstance, opts: DbPluginOptions): Promise<void> {
  const owned = !opts.database;
  let database = opts.database;
  if (!database) {
    if (!opts.url) throw new Error('db plugin: neither an opened database nor a URL was given');
    database = await openDatabase(opts.url);
  }
  try {
    // migrations, then the menus/codes/dictionaries the definitions imply, under the start-up lock
    if (opts.prepare) await opts.prepare(database);
  } catch (err) {
    // a failed start-up must not keep the pool (and a PostgreSQL/MariaDB connection) alive
    if (owned) await database.destroy().catch(() => undefined);
    throw err;
  }
  app.decorate('database', database);
  if (owned) {
    const opened = database;
    app.addHook('onClose', async () => {
      await opened.destroy();
    });
  }
}

export default fp(dbPlugin, { name: 'db', fastify: '5.x' });
