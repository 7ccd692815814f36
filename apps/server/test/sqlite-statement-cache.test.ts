import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { StatementCachingDatabase } from '../src/core/sqliteStatementCache.ts';

/** A better-sqlite3 database that counts how often it compiles SQL. */
function countingDatabase() {
  const raw = new SQLite(':memory:');
  const compiled: string[] = [];
  const counting = {
    close: () => raw.close(),
    prepare: (text: string) => {
      compiled.push(text);
      return raw.prepare(text);
    },
  };
  return { raw, compiled, counting };
}

describe('SQLite prepared-statement cache', () => {
  let db: Kysely<any> | undefined;
  afterEach(async () => {
    await db?.destroy();
    db = undefined;
  });

  it('compiles each SQL text once, keeps reads and writes apart and keeps results right', async () => {
    const { compiled, counting } = countingDatabase();
    db = new Kysely({ dialect: new SqliteDialect({ database: new StatementCachingDatabase(counting) }) });
    await db.schema.createTable('t').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('name', 'text').execute();
    for (let i = 0; i < 5; i++) {
      const r = await db.insertInto('t').values({ name: `n${i}` }).executeTakeFirstOrThrow();
      // a write goes through run(): the insert id comes back
      expect(Number(r.insertId)).toBe(i + 1);
    }
    for (let i = 1; i <= 5; i++) {
      // a read goes through all(): rows come back, each with this run's parameters
      expect(await db.selectFrom('t').select('name').where('id', '=', i).execute()).toEqual([{ name: `n${i - 1}` }]);
    }
    // RETURNING makes an insert a reader: Kysely must still get its rows
    expect(await db.insertInto('t').values({ name: 'r' }).returning('id').execute()).toEqual([{ id: 6 }]);
    const texts = compiled.filter((s) => !s.startsWith('create'));
    expect(texts.length).toBe(new Set(texts).size);
    expect(texts).toHaveLength(3);
  });

  it('runs transactions through cached begin/commit/rollback statements', async () => {
    const { counting } = countingDatabase();
    db = new Kysely({ dialect: new SqliteDialect({ database: new StatementCachingDatabase(counting) }) });
    await db.schema.createTable('t').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('name', 'text').execute();
    for (let i = 0; i < 3; i++) {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ name: `kept${i}` }).execute();
      });
      await expect(
        db.transaction().execute(async (trx) => {
          await trx.insertInto('t').values({ name: `lost${i}` }).execute();
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
    }
    expect((await db.selectFrom('t').select('name').orderBy('id').execute()).map((r) => r.name)).toEqual(['kept0', 'kept1', 'kept2']);
  });

  it('gives a query a fresh statement while the cached one is still iterating', () => {
    const { raw, compiled, counting } = countingDatabase();
    raw.exec('create table t (id integer primary key); insert into t values (1), (2), (3);');
    const cache = new StatementCachingDatabase(counting);
    const text = 'select id from t order by id';
    const iterator = cache.prepare(text).iterate([]);
    expect(iterator.next().value).toEqual({ id: 1 });
    // the cached statement is mid-iteration: running it again would throw "statement is busy"
    expect(cache.prepare(text).all([])).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect([...iterator]).toEqual([{ id: 2 }, { id: 3 }]);
    // once the iterator is done, the cached one serves again
    expect(cache.prepare(text).all([])).toHaveLength(3);
    expect(compiled.filter((s) => s === text)).toHaveLength(2);
    raw.close();
  });

  it('evicts the least recently used statement beyond its bound', () => {
    const { raw, compiled, counting } = countingDatabase();
    const cache = new StatementCachingDatabase(counting, 2);
    cache.prepare('select 1');
    cache.prepare('select 2');
    cache.prepare('select 1'); // now 'select 2' is the least recently used
    cache.prepare('select 3'); // evicts 'select 2'
    expect(cache.size).toBe(2);
    cache.prepare('select 1');
    cache.prepare('select 2');
    expect(compiled).toEqual(['select 1', 'select 2', 'select 3', 'select 2']);
    raw.close();
  });

  it('sees schema changes made after a statement was cached', async () => {
    const { counting } = countingDatabase();
    db = new Kysely({ dialect: new SqliteDialect({ database: new StatementCachingDatabase(counting) }) });
    await db.schema.createTable('t').addColumn('id', 'integer', (c) => c.primaryKey()).execute();
    await db.insertInto('t').values({ id: 1 }).execute();
    expect(await sql`select * from t`.execute(db).then((r) => r.rows)).toEqual([{ id: 1 }]);
    await db.schema.alterTable('t').addColumn('extra', 'text', (c) => c.defaultTo('x')).execute();
    expect(await sql`select * from t`.execute(db).then((r) => r.rows)).toEqual([{ id: 1, extra: 'x' }]);
  });
});
