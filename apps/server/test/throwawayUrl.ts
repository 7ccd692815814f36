import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../src/core/db.ts';
import { TEST_DB } from './helpers.ts';

/**
 * An empty throwaway database named by a DB_URL that several connections or processes can open: a new
 * PostgreSQL schema (search_path in the URL), a new MySQL/MariaDB database, or an SQLite file, of the
 * dialect TEST_DB selects. `drop` removes it.
 */
export async function throwawayUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `t_${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
  if (TEST_DB === 'postgres') {
    const server = process.env.TEST_PG_URL as string;
    const admin = await openDatabase(server);
    await admin.db.schema.createSchema(name).execute();
    await admin.destroy();
    return {
      url: `${server}${server.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${name}`)}`,
      drop: async () => {
        const a = await openDatabase(server);
        await a.db.schema.dropSchema(name).ifExists().cascade().execute();
        await a.destroy();
      },
    };
  }
  if (TEST_DB === 'mysql') {
    const server = process.env.TEST_MYSQL_URL as string;
    const admin = await openDatabase(server);
    await sql`create database ${sql.id(name)} character set utf8mb4 collate utf8mb4_unicode_ci`.execute(admin.db);
    await admin.destroy();
    const u = new URL(server);
    u.pathname = `/${name}`;
    return {
      url: u.toString(),
      drop: async () => {
        const a = await openDatabase(server);
        await sql`drop database if exists ${sql.id(name)}`.execute(a.db);
        await a.destroy();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-db-'));
  return { url: `sqlite:${path.join(dir, 'app.db')}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}
