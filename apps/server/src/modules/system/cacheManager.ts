import type { FastifyInstance } from 'fastify';
import { cacheInfo, clearCache, deleteCache, listCacheKeys, MAX_LISTED_KEYS } from '@app/shared/contracts/monitor';
import type { CacheEntryInfo } from '../../core/cache.ts';
import { adminMayDelete, declaredNamespace, declaredNamespaces, isRebuildable, namespaceOfKey } from '../../core/cacheNamespaces.ts';
import { AppError } from '../../core/errors.ts';
import { routeContract } from '../../crud/registerContract.ts';

export { MAX_LISTED_KEYS };
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

/**
 * 系统监控 › 缓存管理 (`api/redis`, spec §7 "Cache"): the application's own keys (only its prefix in a shared
 * Redis; SCAN, never KEYS), grouped by namespace, values masked and truncated; delete a key or a namespace
 * where the namespace allows it; "清空缓存" deletes the rebuildable namespaces only (core/cacheNamespaces.ts).
 */
export function registerCacheManager(fastify: FastifyInstance): void {
  const app = fastify;
  const { cache } = app.ctx;

  const kindOf = (ns: string) => (isRebuildable(ns) ? ('rebuildable' as const) : ('protected' as const));

  routeContract(app, listCacheKeys, async (req) => {
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

  routeContract(app, cacheInfo, async () => {
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

  routeContract(app, deleteCache, async (req) => {
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
  });

  routeContract(app, clearCache, async () => {
    let n = 0;
    for (const ns of declaredNamespaces()) if (ns.kind === 'rebuildable') n += await cache.delMany(await cache.keys(`${ns.name}:*`, Number.MAX_SAFE_INTEGER));
    return { deleted: n };
  });
}
