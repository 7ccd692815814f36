import { z } from 'zod';
import { pageSchema, sizeSchema } from '../resource/index.ts';
import { defineContract } from './contract.ts';
import { queryText } from './schemas.ts';
import { codedIssue, codedText } from '../errors/zodIssues.ts';

/**
 * 系统监控 › 缓存管理, 在线用户 and 服务监控, 系统工具 › SQL监控: the cache keys by namespace (values masked), delete a
 * key, a namespace or the rebuildable caches; the login sessions still valid and 强退; the server's figures; the
 * database statement statistics. Server: apps/server/src/modules/system/cacheManager.ts, monitor.ts,
 * apps/server/src/modules/tools/sqlMonitor; screens: apps/web/src/modules/monitor (CachePage, OnlinePage,
 * ServerMonitorPage), apps/web/src/modules/tools/SqlMonitorPage.tsx.
 */
export const MONITOR_CODES = {
  cacheRead: ['REDIS_ALL', 'REDIS_SELECT'],
  cacheDelete: ['REDIS_ALL', 'REDIS_DELETE'],
  onlineRead: ['ONLINE_ALL', 'ONLINE_SELECT'],
  onlineDelete: ['ONLINE_ALL', 'ONLINE_DELETE'],
  serverRead: ['SERVER_ALL', 'SERVER_SELECT'],
  sqlRead: ['SQL_MONITOR_ALL', 'SQL_MONITOR_SELECT'],
  sqlReset: ['SQL_MONITOR_ALL', 'SQL_MONITOR_DELETE'],
} as const;

// ---- 缓存管理 ------------------------------------------------------------------------------------------------

const cacheTags = ['缓存管理'] as const;
/** A search stops after this many matching keys (SCAN on Redis): the list says it is cut short. */
export const MAX_LISTED_KEYS = 10_000;
const CACHE_KINDS = ['rebuildable', 'protected'] as const;

export const cacheEntry = z.object({
  key: z.string(),
  namespace: z.string(),
  kind: z.enum(CACHE_KINDS),
  type: z.string(),
  value: z.string(),
  valueTruncated: z.boolean(),
  ttl: z.number().int().nullable().meta({ description: '剩余秒数，null 表示不过期' }),
  deletable: z.boolean(),
});
export type CacheEntry = z.infer<typeof cacheEntry>;

export const cacheNamespaceRow = z.object({
  name: z.string(),
  title: z.string(),
  kind: z.enum(CACHE_KINDS),
  deletable: z.boolean(),
  declared: z.boolean(),
  count: z.number().int(),
});
export type CacheNamespaceRow = z.infer<typeof cacheNamespaceRow>;

const namespaceName = z
  .string(codedText('FIELD_NOT_TEXT', { label: '命名空间' }))
  .trim()
  .min(1, codedText('CACHE_DELETE_TARGET'))
  .max(100, codedText('FIELD_TOO_LONG', { label: '命名空间', max: 100 }))
  .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, codedText('CACHE_NAMESPACE_FORMAT'));
const cacheKey = z
  .string(codedText('FIELD_NOT_TEXT', { label: '键' }))
  .min(1, codedText('CACHE_DELETE_TARGET'))
  .max(1000, codedText('FIELD_TOO_LONG', { label: '键', max: 1000 }))
  .refine((s) => !s.includes('\u0000'), codedText('FIELD_NUL', { label: '键' }));
const deleted = z.object({ deleted: z.number().int() });

export const listCacheKeys = defineContract({
  method: 'GET',
  path: '/api/redis',
  auth: MONITOR_CODES.cacheRead,
  summary: '缓存键列表（key 默认 *）',
  tags: cacheTags,
  query: z.object({
    key: queryText({ code: 'FIELD_TOO_LONG', params: { label: '键的搜索条件', max: 200 } }, 200),
    namespace: queryText({ code: 'FIELD_TOO_LONG', params: { label: '命名空间', max: 100 } }, 100),
    page: pageSchema,
    size: sizeSchema,
  }),
  response: z.object({ content: z.array(cacheEntry), totalElements: z.number().int(), truncated: z.boolean() }),
});

export const cacheInfo = defineContract({
  method: 'GET',
  path: '/api/redis/info',
  auth: MONITOR_CODES.cacheRead,
  summary: '缓存概况：类型、命名空间及其键数',
  tags: cacheTags,
  response: z.object({ server: z.record(z.string(), z.string()), namespaces: z.array(cacheNamespaceRow), truncated: z.boolean() }),
});

/** The body: the key as a JSON string (eladmin's form), `{key}` or `{namespace}`. */
export const deleteCache = defineContract({
  method: 'DELETE',
  path: '/api/redis',
  auth: MONITOR_CODES.cacheDelete,
  summary: '删除一个键（body 为键，或 {key}、{namespace}）',
  log: '删除缓存',
  tags: cacheTags,
  body: z.union([cacheKey.transform((key) => ({ key, namespace: undefined })), z.strictObject({ key: cacheKey.optional(), namespace: namespaceName.optional() })], {
    ...codedText('CACHE_DELETE_TARGET'),
  }),
  response: deleted,
});

export const clearCache = defineContract({
  method: 'DELETE',
  path: '/api/redis/all',
  auth: MONITOR_CODES.cacheDelete,
  summary: '清空缓存（只删除可重建的命名空间）',
  log: '清空缓存',
  tags: cacheTags,
  response: deleted,
});

// ---- 在线用户 ------------------------------------------------------------------------------------------------

const monitorTags = ['系统监控'] as const;

export const onlineSession = z.object({
  jti: z.string(),
  userId: z.number(),
  username: z.string(),
  nickName: z.string().nullable(),
  deptName: z.string().nullable(),
  ip: z.string(),
  browser: z.string(),
  loginTime: z.string(),
  lastSeen: z.string(),
  current: z.boolean().meta({ description: '是否为调用者自己的会话' }),
});
export type OnlineSession = z.infer<typeof onlineSession>;

export const listOnline = defineContract({
  method: 'GET',
  path: '/api/online',
  auth: MONITOR_CODES.onlineRead,
  summary: '在线用户（仍有效的登录会话）',
  tags: monitorTags,
  query: z.looseObject({ filter: z.string().max(50).optional() }),
  response: z.object({ content: z.array(onlineSession), totalElements: z.number() }),
});

export const kickOnline = defineContract({
  method: 'DELETE',
  path: '/api/online/:jti',
  auth: MONITOR_CODES.onlineDelete,
  summary: '强退：吊销该会话的令牌，立即生效',
  log: '强退用户',
  tags: monitorTags,
  params: z.object({ jti: z.string().min(8).max(64).regex(/^[\w-]+$/) }),
});

// ---- 服务监控 ------------------------------------------------------------------------------------------------

/** The database pool at the time of asking (null where the driver does not tell). */
const poolState = z.object({ total: z.number(), idle: z.number(), waiting: z.number(), max: z.number() });

/** Byte counts; `used` is `total - free` (the disk's free space is what this process may still use). */
const spaceUse = { total: z.number(), free: z.number(), used: z.number() };

export const serverStatusAnswer = z.object({
  /** The application's version (package.json) and Node's. */
  version: z.string(),
  node: z.string(),
  host: z.object({
    platform: z.string(),
    arch: z.string(),
    cpus: z.number().int(),
    /** 1, 5 and 15 minutes. */
    loadAverage: z.array(z.number()),
    /** Busy share of all cores over a 200 ms sample, 0..100 with one decimal. */
    cpuUsagePercent: z.number(),
    uptimeSeconds: z.number().int(),
  }),
  memory: z.object(spaceUse),
  process: z.object({ uptimeSeconds: z.number().int(), rss: z.number(), heapUsed: z.number(), heapTotal: z.number(), external: z.number(), pid: z.number().int() }),
  /** The file system of DATA_DIR; null where it cannot be read. */
  disk: z.object({ path: z.string(), ...spaceUse }).nullable(),
  /** Database size in bytes (null where the database does not tell) and its pool. */
  database: z.object({ dialect: z.enum(['sqlite', 'postgres', 'mysql']), bytes: z.number().nullable(), pool: poolState.nullable() }),
  /** The cache server: memory or redis, and what it reports about itself (Redis INFO fields, or key counts). */
  cache: z.object({ kind: z.enum(['memory', 'redis']), info: z.record(z.string(), z.string()) }),
});
export type ServerStatus = z.infer<typeof serverStatusAnswer>;

export const serverStatus = defineContract({
  method: 'GET',
  path: '/api/monitor/server',
  auth: MONITOR_CODES.serverRead,
  summary: '服务监控：CPU、内存、堆、磁盘、数据库、缓存、运行时间与版本',
  tags: monitorTags,
  response: serverStatusAnswer,
});

// ---- SQL监控 --------------------------------------------------------------------------------------------------

const sqlTags = ['SQL监控'] as const;
/** all (since start, '' or absent), or the last 5 / 60 minutes. */
const windowQuery = z
  .union([z.string(), z.number()], codedText('SQL_MONITOR_WINDOW'))
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '' || v === 'all') return undefined;
    if (v === 5 || v === '5') return 5;
    if (v === 60 || v === '60') return 60;
    ctx.addIssue(codedIssue('SQL_MONITOR_WINDOW'));
    return z.NEVER;
  });

export const SQL_SORTS = ['count', 'totalMs', 'avgMs', 'maxMs', 'errors'] as const;

export const sqlStatement = z.object({
  sql: z.string(),
  kind: z.string(),
  count: z.number(),
  totalMs: z.number(),
  avgMs: z.number(),
  maxMs: z.number(),
  errors: z.number(),
  slow: z.number(),
  maxParams: z.array(z.string()),
  maxAt: z.string().nullable(),
  lastAt: z.string(),
  lastError: z.string().nullable(),
});
export type SqlStatement = z.infer<typeof sqlStatement>;

export const sqlSnapshot = z.object({
  window: z.union([z.literal('all'), z.number()]),
  since: z.string(),
  dialect: z.string(),
  queries: z.number(),
  errors: z.number(),
  slow: z.number(),
  totalMs: z.number(),
  avgMs: z.number(),
  distinctStatements: z.number(),
  capped: z.boolean(),
  maxStatements: z.number(),
  slowThresholdMs: z.number(),
  pool: poolState.nullable(),
  statements: z.array(sqlStatement),
});
export type SqlSnapshot = z.infer<typeof sqlSnapshot>;

export const sqlStatistics = defineContract({
  method: 'GET',
  path: '/api/monitor/sql',
  auth: MONITOR_CODES.sqlRead,
  summary: 'SQL 统计：按归一化语句的次数、总耗时、平均/最大耗时、错误、慢查询与连接池',
  tags: sqlTags,
  query: z.object({
    window: windowQuery,
    sort: z.enum(SQL_SORTS, codedText('SORT_FIELD_UNSUPPORTED')).optional(),
    limit: z
      .union([z.string(), z.number()], codedText('SIZE_INVALID'))
      .optional()
      .transform((v, ctx) => {
        if (v === undefined || v === '') return 100;
        const n = Number(v);
        if (/^\d+$/.test(String(v)) && n > 0) return Math.min(n, 1000);
        ctx.addIssue(codedIssue('SIZE_INVALID'));
        return z.NEVER;
      }),
  }),
  response: sqlSnapshot,
});

export const slowSqlStatements = defineContract({
  method: 'GET',
  path: '/api/monitor/sql/slow',
  auth: MONITOR_CODES.sqlRead,
  summary: '最慢的语句（参数只显示类型与长度）',
  tags: sqlTags,
  query: z.object({ window: windowQuery }),
  response: z.object({ slowThresholdMs: z.number(), content: z.array(sqlStatement) }),
});

export const resetSqlStatistics = defineContract({
  method: 'DELETE',
  path: '/api/monitor/sql',
  auth: MONITOR_CODES.sqlReset,
  summary: '重置 SQL 统计',
  log: '重置SQL监控统计',
  tags: sqlTags,
});
