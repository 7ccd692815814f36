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
  /** Consecutive failures of a scheduled job before it is paused (JOB_MAX_FAILURES, default 3). */
  jobMaxFailures?: number;
  /** BullMQ engine: ms a worker's lock on a run lasts; a killed worker's run is taken back after ~2x (SCHEDULER_LOCK_MS, default 30000). */
  schedulerLockMs?: number;
  /** A cron fire taken up later than this (ms) was missed (no instance ran): the job's misfire policy decides (SCHEDULER_MISFIRE_GRACE_MS, default 60000). */
  schedulerMisfireGraceMs?: number;
  /** Serve the API documentation (/v3/api-docs and the Swagger UI); default true. */
  apiDocs?: boolean;
  /** Key (32 bytes, base64) sealing stored secrets; unset: `<dataDir>/keys/secrets.key`. */
  secretsKey?: string;
  /** Trust X-Forwarded-* from a reverse proxy (Fastify's trustProxy): client IP for rate limits, https for Secure cookies. Default false. */
  trustProxy?: boolean;
  /** Check the SMTP server's TLS certificate (default true). Not read from the environment: only tests, whose SMTP stand-in has a self-signed certificate, set it false. */
  smtpTlsRejectUnauthorized?: boolean;
  /** External models (modules/operations/models/external.ts): MODEL_SITE_ALLOWLIST, MODEL_SITE_PRIVATE_HOSTS, MODEL_TIMEOUT_SECONDS, MODEL_MAX_MB. */
  modelSites?: { allowlist: string[]; privateHosts: string[]; timeoutMs: number; maxBytes: number };
  /** Model outputs older than this many days are removed by the retention job (MODELDATA_KEEP_DAYS, default 180). */
  modelDataKeepDays?: number;
  /** The log retention job never deletes operation/error logs younger than this many days (LOG_RETENTION_MIN_DAYS, default 180). */
  logRetentionMinDays?: number;
  /** Largest all.zip export in bytes (MODELDATA_ZIP_MAX_MB, default 500). */
  modelDataZipMaxBytes?: number;
  /** SQL data sources: hosts, addresses or CIDR ranges allowed although loopback (DATASOURCE_HOST_ALLOWLIST, default none). */
  dataSourceHostAllowlist?: string[];
  /** SMTP server: hosts, addresses or CIDR ranges allowed although loopback, e.g. a relay on this machine (SMTP_HOST_ALLOWLIST, default none). */
  smtpHostAllowlist?: string[];
  /** S3 endpoint: hosts, addresses or CIDR ranges allowed although loopback or private, e.g. on-premises MinIO (STORAGE_ENDPOINT_ALLOWLIST, default none). */
  storageEndpointAllowlist?: string[];
  /** Largest file a data source may be uploaded as, in bytes (DATASOURCE_UPLOAD_MAX_MB, default 50). */
  dataSourceUploadMax?: number;
  /** Size cap of a file uploaded on the storage screen, in MB (STORAGE_MAX_MB, default 15). */
  storageMaxMb?: number;
}

function bool(v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === '') return dflt;
  return !['false', '0', 'no', 'off'].includes(v.toLowerCase());
}

/** A comma-separated allow-list of hosts, addresses or CIDR ranges (core/net/outboundGuard.ts), lower case. */
function listSetting(v: string | undefined): string[] {
  return (v ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
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
    jobMaxFailures: Math.max(1, Number(env.JOB_MAX_FAILURES ?? 3) || 3),
    schedulerLockMs: Math.max(1000, Number(env.SCHEDULER_LOCK_MS ?? 30_000) || 30_000),
    schedulerMisfireGraceMs: Math.max(1000, Number(env.SCHEDULER_MISFIRE_GRACE_MS ?? 60_000) || 60_000),
    apiDocs: bool(env.API_DOCS_ENABLED, true),
    secretsKey: env.SECRETS_KEY || undefined,
    trustProxy: bool(env.TRUST_PROXY, false),
    dataSourceHostAllowlist: listSetting(env.DATASOURCE_HOST_ALLOWLIST),
    smtpHostAllowlist: listSetting(env.SMTP_HOST_ALLOWLIST),
    storageEndpointAllowlist: listSetting(env.STORAGE_ENDPOINT_ALLOWLIST),
    dataSourceUploadMax: Math.max(1, Number(env.DATASOURCE_UPLOAD_MAX_MB ?? 50) || 50) * 1024 * 1024,
    modelSites: {
      allowlist: (env.MODEL_SITE_ALLOWLIST ?? '').split(',').map((s) => s.trim()).filter(Boolean),
      privateHosts: (env.MODEL_SITE_PRIVATE_HOSTS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
      timeoutMs: Math.max(1, Number(env.MODEL_TIMEOUT_SECONDS ?? 600) || 600) * 1000,
      maxBytes: Math.max(1, Number(env.MODEL_MAX_MB ?? 50) || 50) * 1024 * 1024,
    },
    modelDataKeepDays: Math.max(1, Number(env.MODELDATA_KEEP_DAYS ?? 180) || 180),
    logRetentionMinDays: Math.max(1, Math.floor(Number(env.LOG_RETENTION_MIN_DAYS ?? 180) || 180)),
    modelDataZipMaxBytes: Math.max(1, Number(env.MODELDATA_ZIP_MAX_MB ?? 500) || 500) * 1024 * 1024,
    storageMaxMb: Number(env.STORAGE_MAX_MB ?? 15),
  };
}

/** A database or Redis URL fit for logs: the password replaced by `***`. */
export function maskUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1***@');
}

/**
 * A service the server cannot start without was unreachable (database, Redis): main.ts prints `message`
 * (Chinese and English, password masked) as one line instead of a driver's stack and exits non-zero.
 */
export class StartupError extends Error {}

/** The one-line reason of a connection failure: the driver's code (ECONNREFUSED, 28P01...) and first message line. */
export function connectionFailure(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; errors?: { code?: unknown; message?: unknown }[] };
  const inner = Array.isArray(e?.errors) ? e.errors[0] : undefined;
  const code = String(e?.code ?? inner?.code ?? '');
  const message = String(e?.message || inner?.message || '').split('\n')[0].trim();
  if (!code) return message || String(err);
  // `connect ECONNREFUSED 127.0.0.1:5432` says no more than its code beside the URL
  return message && !message.includes(code) ? `${code} ${message}` : code;
}
