/**
 * Shared by the benchmarks that start the server: the app configuration of a benchmark run and the ways to act
 * as the seeded admin. Not a benchmark itself (files starting with `_` are skipped by run.ts).
 */
import crypto from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../apps/server/src/config.ts';
import { encryptLoginPassword, type AuthKeys, keysFromPem } from '../apps/server/src/core/auth/keys.ts';
import { signToken } from '../apps/server/src/core/auth/tokens.ts';
import { DEV_ADMIN_PASSWORD } from '../apps/server/src/seed/index.ts';

/**
 * A benchmark's configuration: loopback, no captcha, no request logs, no scheduler (a cron firing mid-run would
 * skew the figures), a login rate limit no run reaches; an SQLite file in `dataDir` unless `overrides` say
 * otherwise (a benchmark that hands buildApp its own database passes any dbUrl).
 */
export function benchConfig(dataDir: string, overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    dbUrl: `sqlite:${path.join(dataDir, 'bench.db')}`,
    cachePrefix: 'bench:',
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
    ...overrides,
  };
}

/** Fresh token keys, for a benchmark that signs its admin token itself instead of logging in. */
export function benchKeys(): AuthKeys {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return keysFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), crypto.randomBytes(32));
}

/** The seeded admin's bearer header, signed with `keys` (no login request, so no login is measured). */
export async function signedAdminHeaders(app: FastifyInstance, keys: AuthKeys): Promise<{ authorization: string }> {
  const admin = await app.ctx.db.selectFrom('sys_user').select(['id', 'token_version']).where('username', '=', 'admin').executeTakeFirstOrThrow();
  return { authorization: `Bearer ${signToken(keys.tokenSecret, Number(admin.id), Number(admin.token_version), 3600).token}` };
}

/** Log in as admin through the app's own routes (public key, encrypted password); the token and its header. */
export async function loginAdmin(app: FastifyInstance, password: string = DEV_ADMIN_PASSWORD): Promise<{ token: string; headers: { authorization: string } }> {
  const pk = (await app.inject({ method: 'GET', url: '/auth/publicKey' })).json().publicKey as string;
  const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'admin', password: encryptLoginPassword(pk, password) } });
  if (login.statusCode !== 200) throw new Error(`admin login: ${login.statusCode} ${login.body}`);
  const token = login.json().token as string;
  return { token, headers: { authorization: `Bearer ${token}` } };
}
