import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageSchema, sizeSchema } from '@app/shared/resource';
import type { CacheEntryInfo } from '../../core/cache.ts';
import { adminMayDelete, declaredNamespace, declaredNamespaces, isRebuildable, namespaceOfKey } from '../../core/cacheNamespaces.ts';
import { AppError } from '../../core/errors.ts';
import { queryText } from '../../crud/routeSchemas.ts';

const SELECT = ['REDIS_ALL', 'REDIS_SELECT'];
const DELETE = ['REDIS_ALL', 'REDIS_DELETE'];

/** A search stops after this many matching keys (SCAN on Redis): the list says it is cut short. */
export const MAX_LISTED_KEYS = 10_000;
const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 100;
/** Characters of a value shown in the list. */
export const PREVIEW_LENGTH = 200;
const MASK = '******';
/** A JWT or another long opaque token inside a rebuildable value. */
const TOKEN_LIKE = /\b(?:eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}|[A-Za-z0-9+/_-]{40,}={0,2})/g;
const SECRET_FIELD = /pass(word)?|secret|privatekey|token|credential|apikey|accesskey|^code$/i;

/**
 * The search box's text as a key pattern of literal text and `*` (the Cache contract): empty or `*` is every
 * key, text with a `*` is used as typed, other text matches anywhere in the key. A namespace narrows it.
 */
export function keyPattern(search: string | undefined, namespace: string | undefined): string {
  const text = (search ?? '').trim();
  const body = text === '' || text === '*' ? '*' : text.includes('*') ? text : `*${text}*`;
  if (!namespace) return body;
  return body.startsWith(`${namespace}:`) ? body : `${namespace}:${body.startsWith('*') ? body : `*${body}`}`;
}

/** Mask fields named like secrets in a JSON value, and token-like strings anywhere. */
function maskValueText(raw: string): string {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object') return JSON.stringify(maskFields(parsed, 0)).replace(TOKEN_LIKE, MASK);
  } catch {
    // not JSON: plain text
  }
  return raw.replace(TOKEN_LIKE, MASK);
}

function maskFields(value: unknown, depth: number): unknown {
  if (depth > 8) return '…';
  if (Array.isArray(value)) return value.map((v) => maskFields(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELD.test(k) ? MASK : maskFields(v, depth + 1);
    return out;
  }
  return value;
}

/**
 * What the list shows of a value: protected (and undeclared) namespaces are masked whole, since their values
 * are captcha answers, e-mail codes and counters; other strings are masked field by field and truncated;
 * other Redis types are described (`<hash 3 项>`), never dumped.
 */
export function previewValue(entry: CacheEntryInfo): { value: string; truncated: boolean } {
  if (entry.type === 'none') return { value: '', truncated: false };
  if (entry.type !== 'string') return { value: `<${entry.type}${entry.size === undefined ? '' : ` ${entry.size} 项`}>`, truncated: false };
  if (!isRebuildable(namespaceOfKey(entry.key))) return { value: MASK, truncated: false };
  const masked = maskValueText(entry.value ?? '');
  return masked.length > PREVIEW_LENGTH ? { value: `${masked.slice(0, PREVIEW_LENGTH)}…`, truncated: true } : { value: masked, truncated: false };
}

const namespaceName = z
  .string({ error: '命名空间必须是文本' })
  .trim()
  .min(1, '请提供要删除的键或命名空间')
  .max(100, '命名空间长度不能超过100个字符')
  .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, '命名空间只能包含字母、数字、下划线和连字符');
const cacheKey = z
  .string({ error: '键必须是文本' })
  .min(1, '请提供要删除的键或命名空间')
  .max(1000, '键长度不能超过1000个字符')
  .refine((s) => !s.includes('\u0000'), '键不能包含空字符');

/** `DELETE /api/redis` body: the key as a JSON string (eladmin's form), `{key}` or `{namespace}`. */
const deleteBody = z.union([cacheKey.transform((key) => ({ key, namespace: undefined })), z.strictObject({ key: cacheKey.optional(), namespace: namespaceName.optional() })], {
  error: '请提供要删除的键或命名空间',
});

const entrySchema = z.object({
  key: z.string(),
  namespace: z.string(),
  kind: z.enum(['rebuildable', 'protected']),
  type: z.string(),
  value: z.string(),
  valueTruncated: z.boolean(),
  ttl: z.number().int().nullable().meta({ description: '剩余秒数，null 表示不过期' }),
  deletable: z.boolean(),
});

/**
 * 系统监控 › 缓存管理 (`api/redis`, spec §7 "Cache"): the application's own keys (only its prefix in a shared
 * Redis; SCAN, never KEYS), grouped by namespace, values masked and truncated; delete a key or a namespace
 * where the namespace allows it; "清空缓存" deletes the rebuildable namespaces only (core/cacheNamespaces.ts).
 */
export function registerCacheManager(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['缓存管理'];
  const { cache } = app.ctx;

  const kindOf = (ns: string) => (isRebuildable(ns) ? ('rebuildable' as const) : ('protected' as const));

  const listQuery = z.object({
    key: queryText('键的搜索条件长度不能超过200个字符', 200),
    namespace: queryText('命名空间长度不能超过100个字符', 100),
    page: pageSchema,
    size: sizeSchema,
  });
  const listResponse = z.object({ content: z.array(entrySchema), totalElements: z.number().int(), truncated: z.boolean() });
  app.get('/api/redis', { config: { auth: SELECT }, schema: { tags, summary: '缓存键列表（key 默认 *）', querystring: listQuery, response: { 200: listResponse } } }, async (req) => {
    const page = req.query.page ?? 0;
    const size = Math.min(req.query.size ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    const found = await cache.keys(keyPattern(req.query.key, req.query.namespace), MAX_LISTED_KEYS + 1);
    const truncated = found.length > MAX_LISTED_KEYS;
    const keys = found.slice(0, MAX_LISTED_KEYS).sort();
    const infos = await cache.inspect(keys.slice(page * size, page * size + size));
    const content = infos.map((info) => {
      const namespace = namespaceOfKey(info.key);
      const { value, truncated: valueTruncated } = previewValue(info);
      return { key: info.key, namespace, kind: kindOf(namespace), type: info.type, value, valueTruncated, ttl: info.ttlSeconds, deletable: adminMayDelete(namespace) };
    });
    return { content, totalElements: keys.length, truncated };
  });

  const namespaceSchema = z.object({
    name: z.string(),
    title: z.string(),
    kind: z.enum(['rebuildable', 'protected']),
    deletable: z.boolean(),
    declared: z.boolean(),
    count: z.number().int(),
  });
  const infoResponse = z.object({ server: z.record(z.string(), z.string()), namespaces: z.array(namespaceSchema), truncated: z.boolean() });
  app.get('/api/redis/info', { config: { auth: SELECT }, schema: { tags, summary: '缓存概况：类型、命名空间及其键数', response: { 200: infoResponse } } }, async () => {
    const found = await cache.keys('*', MAX_LISTED_KEYS + 1);
    const counts = new Map<string, number>();
    for (const key of found.slice(0, MAX_LISTED_KEYS)) counts.set(namespaceOfKey(key), (counts.get(namespaceOfKey(key)) ?? 0) + 1);
    const names = new Set([...declaredNamespaces().map((n) => n.name), ...counts.keys()]);
    const namespaces = [...names].sort().map((name) => {
      const declared = declaredNamespace(name);
      return { name, title: declared?.title ?? '', kind: kindOf(name), deletable: adminMayDelete(name), declared: !!declared, count: counts.get(name) ?? 0 };
    });
    return { server: await cache.serverInfo(), namespaces, truncated: found.length > MAX_LISTED_KEYS };
  });

  const deleted = z.object({ deleted: z.number().int() });
  app.delete(
    '/api/redis',
    { config: { auth: DELETE, log: '删除缓存' }, schema: { tags, summary: '删除一个键（body 为键，或 {key}、{namespace}）', body: deleteBody, response: { 200: deleted } } },
    async (req) => {
      const { key, namespace } = req.body;
      if ((key === undefined) === (namespace === undefined)) throw new AppError('CACHE_DELETE_TARGET', {});
      if (key !== undefined) {
        // A key that is not there is a 404 whatever its namespace: "protected" would suggest it exists.
        const [entry] = await cache.inspect([key]);
        if (!entry || entry.type === 'none') throw new AppError('CACHE_KEY_NOT_FOUND', { key });
        const ns = namespaceOfKey(key);
        if (!adminMayDelete(ns)) throw new AppError('CACHE_KEY_PROTECTED', { namespace: ns });
        return { deleted: await cache.delMany([key]) };
      }
      const ns = namespace as string;
      if (!adminMayDelete(ns)) throw new AppError('CACHE_KEY_PROTECTED', { namespace: ns });
      return { deleted: await cache.delMany(await cache.keys(`${ns}:*`, Number.MAX_SAFE_INTEGER)) };
    },
  );

  app.delete('/api/redis/all', { config: { auth: DELETE, log: '清空缓存' }, schema: { tags, summary: '清空缓存（只删除可重建的命名空间）', response: { 200: deleted } } }, async () => {
    let n = 0;
    for (const ns of declaredNamespaces()) if (ns.kind === 'rebuildable') n += await cache.delMany(await cache.keys(`${ns.name}:*`, Number.MAX_SAFE_INTEGER));
    return { deleted: n };
  });
}
