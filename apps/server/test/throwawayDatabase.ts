import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/core/db.ts';

export type DialectKind = 'sqlite' | 'postgres' | 'mysql';

/**
 * A fresh, empty database for one test file or benchmark run, dropped afterwards: a new schema on
 * PostgreSQL (search_path), a new database on MySQL/MariaDB, an SQLite file (or memory) otherwise.
 * `url` is the server to use for postgres/mysql.
 */
export async function openThrowawayDatabase(kind: DialectKind, url?: string, opts: { sqliteInMemory?: boolean } = {}): Promise<{ database: Database; drop: () => Promise<void> }> {
  const name = `t_${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
  if (kind === 'postgres') {
    if (!url) throw new Error('a PostgreSQL URL is needed');
    const admin = await openDatabase(url);
    await admin.db.schema.createSchema(name).execute();
    const database = await openDatabase(`${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${name}`)}`);
    return {
      database,
      drop: async () => {
        await database.destroy();
        await admin.db.schema.dropSchema(name).cascade().execute();
        await admin.destroy();
      },
    };
  }
  if (kind === 'mysql') {
    if (!url) throw new Error('a MySQL URL is needed');
    const admin = await openDatabase(url);
    await sql`create database ${sql.id(name)} character set utf8mb4 collate utf8mb4_unicode_ci`.execute(admin.db);
    const u = new URL(url);
    u.pathname = `/${name}`;
    const database = await openDatabase(u.toString());
    return {
      database,
      drop: async () => {
        await database.destroy();
        await sql`drop database ${sql.id(name)}`.execute(admin.db);
        await admin.destroy();
      },
    };
  }
  if (opts.sqliteInMemory) {
    const database = await openDatabase('sqlite::memory:');
    return { database, drop: () => database.destroy() };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-db-'));
  const database = await openDatabase(`sqlite:${path.join(dir, 'app.db')}`);
  return {
    database,
    drop: async () => {
      await database.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
