import path from 'node:path';

/** Runtime configuration; names are binding (ARCHITECTURE.md "Configuration names"). */
export interface AppConfig {
  port: number;
  host: string;
  /** sqlite:<file> | sqlite::memory: | postgres://... | mysql://... */
  dbUrl: string;
  /** Unset: in-process cache. */
  redisUrl?: string;
  /** Prefix of every cache key, so several apps (or test runs) can share one Redis. */
  cachePrefix: string;
  captchaEnabled: boolean;
  adminPassword?: string;
  demoData: boolean;
  dataDir: string;
  production: boolean;
  /** Serve the built web app from this folder when it exists. */
  webDist?: string;
  /** Token lifetime in seconds (normal / remember-me). */
  tokenTtlSeconds: number;
  rememberMeTtlSeconds: number;
  /** Login attempts per IP per minute before 429. */
  loginRateLimitPerMinute: number;
  /** Write request logs to stdout. */
  logRequests: boolean;
  /** Run the cron scheduler. */
  scheduler: boolean;
}

function bool(v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === '') return dflt;
  return !['false', '0', 'no', 'off'].includes(v.toLowerCase());
}

/** Read the configuration from environment variables, with the documented defaults. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  return {
    port: Number(env.PORT ?? 8000),
    host: env.HOST ?? '0.0.0.0',
    dbUrl: env.DB_URL ?? `sqlite:${path.join(dataDir, 'app.db')}`,
    redisUrl: env.REDIS_URL || undefined,
    cachePrefix: env.CACHE_PREFIX ?? 'dp:',
    captchaEnabled: bool(env.CAPTCHA_ENABLED, true),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    demoData: bool(env.DEMO_DATA, true),
    dataDir,
    production: env.NODE_ENV === 'production',
    webDist: path.resolve(env.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    tokenTtlSeconds: Number(env.TOKEN_TTL_SECONDS ?? 4 * 3600),
    rememberMeTtlSeconds: Number(env.REMEMBER_ME_TTL_SECONDS ?? 7 * 24 * 3600),
    loginRateLimitPerMinute: Number(env.LOGIN_RATE_LIMIT ?? 20),
    logRequests: bool(env.LOG_REQUESTS, true),
    scheduler: bool(env.SCHEDULER_ENABLED, true),
  };
}
