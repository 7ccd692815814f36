import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** The part of a better-sqlite3 Database this wrapper needs (kept structural so tests can hand in a fake). */
export interface PreparingDatabase {
  close(): unknown;
  prepare(sql: string): SqliteStatement & { readonly busy: boolean };
}

/**
 * Kysely's SqliteDriver calls `prepare(sql)` for every statement it runs, and better-sqlite3 compiles the SQL
 * anew each time (6.6 % of server CPU under load, finding "Performance"). Kysely builds the same SQL text for
 * the same query shape with the values as parameters, so a statement compiled once can be run again with new
 * parameters. This wrapper keeps the most recently used `max` compiled statements by SQL text.
 *
 * - `reader` is a property of the compiled statement, so Kysely's choice between all() and run() is unchanged.
 * - A statement in the middle of `iterate()` (Kysely's stream) is busy and cannot be run again until the
 *   iterator ends; a query with the same text in that window gets a freshly compiled statement instead.
 * - SQLite re-compiles a statement by itself after a schema change (sqlite3_prepare_v2), so migrations and
 *   `create table` between two runs are safe; a statement whose table was dropped fails as a fresh one would.
 * - Transactions are plain `begin`/`commit`/`rollback` statements on the one connection: caching them changes
 *   nothing about what runs or in which order.
 */
export class StatementCachingDatabase implements SqliteDatabase {
  /** Map keeps insertion order: the first key is the least recently used one. */
  readonly #cache = new Map<string, SqliteStatement & { readonly busy: boolean }>();
  readonly #db: PreparingDatabase;
  readonly #max: number;

  constructor(db: PreparingDatabase, max = 500) {
    this.#db = db;
    this.#max = max;
  }

  prepare(sql: string): SqliteStatement {
    const hit = this.#cache.get(sql);
    if (hit) {
      if (hit.busy) return this.#db.prepare(sql);
      // move to the most recently used end
      this.#cache.delete(sql);
      this.#cache.set(sql, hit);
      return hit;
    }
    const stmt = this.#db.prepare(sql);
    this.#cache.set(sql, stmt);
    if (this.#cache.size > this.#max) this.#cache.delete(this.#cache.keys().next().value as string);
    return stmt;
  }

  /** How many compiled statements are kept (for tests and the SQL monitor). */
  get size(): number {
    return this.#cache.size;
  }

  close(): void {
    this.#cache.clear();
    this.#db.close();
  }
}
