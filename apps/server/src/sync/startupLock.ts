import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Database } from '../core/db.ts';

/** How long a starting instance waits for another one's migrations and sync before giving up. */
const WAIT_MS = 10 * 60_000;

/**
 * Run `fn` (migrations, definition sync, first-start seed) while no other instance on the same database does:
 * PostgreSQL `pg_advisory_lock` (keyed by the schema), MySQL/MariaDB `GET_LOCK` (keyed by the database), both
 * held by one pooled connection while `fn` works through the others and released when that session ends, so a
 * killed instance never leaves it held; SQLite an exclusive lock on a side file `<db>.startup-lock` (SQLite's
 * own file locking, which the OS drops with the process). An in-memory SQLite database needs none.
 */
export async function withStartupLock<T>(database: Database, fn: () => Promise<T>): Promise<T> {
  const { db, dialect } = database;
  if (dialect === 'postgres') {
    return db.connection().execute(async (conn) => {
      const key = sql`hashtext(${'dp-startup:'} || current_schema())`;
      await sql`select pg_advisory_lock(${key})`.execute(conn);
      try {
        return await fn();
      } finally {
        await sql`select pg_advisory_unlock(${key})`.execute(conn);
      }
    });
  }
  if (dialect === 'mysql') {
    return db.connection().execute(async (conn) => {
      // lock names are limited to 64 characters, database names are not much shorter
      const name = sql`concat(${'dp-startup:'}, md5(database()))`;
      const got = await sql<{ got: number | null }>`select get_lock(${name}, ${Math.round(WAIT_MS / 1000)}) as got`.execute(conn);
      if (Number(got.rows[0]?.got) !== 1) throw new Error('等待其他实例完成数据库迁移超时 / timed out waiting for another instance to finish migrating');
      try {
        return await fn();
      } finally {
        await sql`select release_lock(${name})`.execute(conn);
      }
    });
  }
  const file = await sqliteFile(database);
  if (!file) return fn();
  const release = await lockFile(`${file}.startup-lock`);
  try {
    return await fn();
  } finally {
    release();
  }
}

/** The main database file of an SQLite connection ('' for an in-memory database). */
async function sqliteFile(database: Database): Promise<string> {
  const rows = await sql<{ name: string; file: string }>`pragma database_list`.execute(database.db);
  return rows.rows.find((r) => r.name === 'main')?.file ?? '';
}

/** Take an exclusive SQLite lock on `path` (polling, so other work in this process goes on); returns the release. */
async function lockFile(path: string): Promise<() => void> {
  const { default: SQLite } = await import('better-sqlite3');
  // no busy timeout: a synchronous wait would block this process's event loop (polled below instead)
  const lock = new SQLite(path, { timeout: 0 });
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      lock.exec('BEGIN EXCLUSIVE');
      break;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) {
        lock.close();
        throw err;
      }
      await sleep(50 + Math.random() * 50);
    }
  }
  return () => {
    lock.exec('ROLLBACK');
    lock.close();
  };
}
