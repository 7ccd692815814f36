import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { AppConfig } from '../src/config.ts';
import { openThrowawayDatabase } from './throwawayDatabase.ts';
import { openCache } from '../src/core/cache.ts';
import { keysFromPem, encryptLoginPassword, type AuthKeys } from '../src/core/auth/keys.ts';
import { LoggingMailSender } from '../src/core/mail.ts';
import { seedDatabase, DEV_ADMIN_PASSWORD } from '../src/seed/index.ts';

/**
 * Test harness: a real app on a real, fresh database. TEST_DB picks the dialect (sqlite by default;
 * postgres uses TEST_PG_URL with a throwaway schema, mysql uses TEST_MYSQL_URL with a throwaway database).
 * TEST_REDIS_URL switches the cache to Redis with a unique key prefix.
 */
export const TEST_DB = (process.env.TEST_DB ?? 'sqlite') as 'sqlite' | 'postgres' | 'mysql';
export { DEV_ADMIN_PASSWORD };

let sharedKeys: AuthKeys | undefined;
function testKeys(): AuthKeys {
  if (!sharedKeys) {
    const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    sharedKeys = keysFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), crypto.randomBytes(32));
  }
  return sharedKeys;
}

function freshDatabase() {
  const url = TEST_DB === 'postgres' ? process.env.TEST_PG_URL : TEST_DB === 'mysql' ? process.env.TEST_MYSQL_URL : undefined;
  if (TEST_DB !== 'sqlite' && !url) throw new Error(`TEST_DB=${TEST_DB} needs TEST_${TEST_DB === 'postgres' ? 'PG' : 'MYSQL'}_URL`);
  return openThrowawayDatabase(TEST_DB, url, { sqliteInMemory: true });
}

export interface TestApp {
  app: FastifyInstance;
  mail: LoggingMailSender;
  config: AppConfig;
  close(): Promise<void>;
}

/** Build the app on a fresh migrated and seeded database. */
/** `extraRoutes`: routes a test adds before the app is ready (e.g. one that probes the request user). */
export async function createTestApp(overrides: Partial<AppConfig> = {}, extraRoutes?: (app: FastifyInstance) => void): Promise<TestApp> {
  const { database, drop } = await freshDatabase();
  const config: AppConfig = {
    port: 0,
    host: '127.0.0.1',
    dbUrl: 'test',
    redisUrl: process.env.TEST_REDIS_URL || undefined,
    cachePrefix: `test:${crypto.randomBytes(6).toString('hex')}:`,
    captchaEnabled: false,
    demoData: false,
    dataDir: path.join(os.tmpdir(), `dp-test-${crypto.randomBytes(6).toString('hex')}`),
    production: false,
    webDist: undefined,
    tokenTtlSeconds: 3600,
    rememberMeTtlSeconds: 7 * 24 * 3600,
    loginRateLimitPerMinute: 1000,
    logRequests: false,
    scheduler: false,
    ...overrides,
  };
  const cache = await openCache(config.redisUrl, config.cachePrefix);
  const mail = new LoggingMailSender(() => undefined);
  const app = await buildApp(config, { database, cache, keys: testKeys(), mail });
  await seedDatabase(app.ctx.db, app.ctx.dialect, { adminPassword: undefined, production: false });
  extraRoutes?.(app);
  await app.ready();
  return {
    app,
    mail,
    config,
    close: async () => {
      await cache.clear();
      await app.close();
      await drop();
      // the app's data folder (generated keys, stored files): one per test app
      await fs.promises.rm(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** Log in through the real endpoint (RSA-encrypted password) and return the bearer token. */
export async function login(app: FastifyInstance, username: string, password: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await loginResponse(app, username, password, extra);
  if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
  return res.json().token as string;
}

export async function loginResponse(app: FastifyInstance, username: string, password: string, extra: Record<string, unknown> = {}) {
  const pk = (await app.inject({ method: 'GET', url: '/auth/publicKey' })).json().publicKey as string;
  return app.inject({ method: 'POST', url: '/auth/login', payload: { username, password: encryptLoginPassword(pk, password), ...extra } });
}

/** Headers with a bearer token. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** What adminApp() hands a test file: read inside tests and hooks (set before the file's first test). */
export interface AdminSession {
  app: FastifyInstance;
  /** The admin's bearer token. */
  token: string;
}

/**
 * The usual set-up of a test file: one app on a fresh database with the admin signed in, made before the file's tests
 * and closed after them.
 */
export function adminApp(overrides: Partial<AppConfig> = {}): AdminSession {
  const session = {} as AdminSession;
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await createTestApp(overrides);
    session.app = t.app;
    session.token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
  });
  return session;
}
