import { LRUCache } from 'lru-cache';

/**
 * The cache behind captchas, revoked tokens, rate limits, e-mail codes and cron locks. In-process by
 * default; Redis when REDIS_URL is set, so several server instances share it. Every key is prefixed.
 */
export interface Cache {
  get(key: string): Promise<string | null>;
  /** Several keys in one round trip (values in the order of the keys). */
  getMany(keys: readonly string[]): Promise<(string | null)[]>;
  /**
   * `getMany` answered at once when the cache lives in this process; undefined when it takes a round trip (Redis).
   * The request guard reads a token's revocation mark and the authorization epoch this way, so that a request
   * whose user is cached passes its guard without a promise (issue 27).
   */
  getManyNow(keys: readonly string[]): (string | null)[] | undefined;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /** Set only when absent (a lock); true if this call set it. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Read and delete in one step (single-use values such as captchas). */
  take(key: string): Promise<string | null>;
  del(key: string): Promise<void>;
  /** Increment a counter, starting its TTL on the first increment. */
  incr(key: string, ttlSeconds: number): Promise<number>;
  /** Keys (without the prefix) matching a glob made of literal text and `*`, up to `limit`. */
  keys(pattern: string, limit?: number): Promise<string[]>;
  /** Type, raw string value (strings only) or element count, and remaining TTL of keys, for the cache screen. */
  inspect(keys: readonly string[]): Promise<CacheEntryInfo[]>;
  /** Delete keys (without the prefix); returns how many existed. */
  delMany(keys: readonly string[]): Promise<number>;
  /** What the cache screen's info card shows. */
  serverInfo(): Promise<Record<string, string>>;
  /** Delete every key of this application (never anything else in a shared Redis). */
  clear(): Promise<void>;
  close(): Promise<void>;
  readonly kind: 'memory' | 'redis';
}

/** One key as the cache screen sees it. */
export interface CacheEntryInfo {
  key: string;
  /** Redis type (`string`, `hash`, `list`, `set`, `zset`, `stream`), `none` when the key is gone. */
  type: string;
  /** The raw value of a string key; null for other types and gone keys. */
  value: string | null;
  /** Element count of a non-string key. */
  size?: number;
  /** Seconds left; null when the key does not expire. */
  ttlSeconds: number | null;
}

function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

/** How many keys the in-process cache keeps before it drops the least recently used. */
export const MEMORY_CACHE_ENTRIES = 200_000;

export class MemoryCache implements Cache {
  readonly kind = 'memory' as const;
  private store: LRUCache<string, string>;
  constructor(maxEntries = MEMORY_CACHE_ENTRIES) {
    // Bounded by counting each entry as 1 against maxSize rather than by `max`: with `max`, lru-cache allocates its
    // key, value, link and TTL arrays for every slot at start (~9 MB for 200,000, held from the first second and
    // walked by every full garbage collection, issue 27); counted by size, they grow with the entries.
    this.store = new LRUCache<string, string>({ maxSize: maxEntries, sizeCalculation: () => 1, ttlAutopurge: false });
  }

  async get(key: string) {
    return this.store.get(key) ?? null;
  }
  async getMany(keys: readonly string[]) {
    return this.getManyNow(keys);
  }
  getManyNow(keys: readonly string[]) {
    return keys.map((k) => this.store.get(k) ?? null);
  }
  async set(key: string, value: string, ttlSeconds?: number) {
    this.store.set(key, value, ttlSeconds ? { ttl: ttlSeconds * 1000 } : undefined);
  }
  async setIfAbsent(key: string, value: string, ttlSeconds: number) {
    if (this.store.has(key)) return false;
    this.store.set(key, value, { ttl: ttlSeconds * 1000 });
    return true;
  }
  async take(key: string) {
    const v = this.store.get(key) ?? null;
    this.store.delete(key);
    return v;
  }
  async del(key: string) {
    this.store.delete(key);
  }
  async incr(key: string, ttlSeconds: number) {
    const cur = this.store.get(key);
    if (cur === undefined) {
      this.store.set(key, '1', { ttl: ttlSeconds * 1000 });
      return 1;
    }
    const next = Number(cur) + 1;
    // keep the original expiry
    const remaining = this.store.getRemainingTTL(key);
    this.store.set(key, String(next), { ttl: remaining > 0 && Number.isFinite(remaining) ? remaining : ttlSeconds * 1000 });
    return next;
  }
  async keys(pattern: string, limit = 10_000) {
    const re = globToRegExp(pattern);
    const out: string[] = [];
    for (const k of this.store.keys()) {
      if (re.test(k)) out.push(k);
      if (out.length >= limit) break;
    }
    return out;
  }
  async inspect(keys: readonly string[]) {
    return keys.map((key): CacheEntryInfo => {
      const value = this.store.get(key);
      if (value === undefined) return { key, type: 'none', value: null, ttlSeconds: null };
      const left = this.store.getRemainingTTL(key);
      return { key, type: 'string', value, ttlSeconds: Number.isFinite(left) && left > 0 ? Math.ceil(left / 1000) : null };
    });
  }
  async delMany(keys: readonly string[]) {
    let n = 0;
    for (const k of keys) if (this.store.delete(k)) n++;
    return n;
  }
  async serverInfo() {
    return { kind: 'memory', keys: String(this.store.size), maxKeys: String(this.store.max) };
  }
  async clear() {
    this.store.clear();
  }
  async close() {}
}

class RedisCache implements Cache {
  readonly kind = 'redis' as const;
  constructor(
    private redis: any,
    private prefix: string,
  ) {}
  private k(key: string) {
    return this.prefix + key;
  }
  async get(key: string) {
    return (await this.redis.get(this.k(key))) as string | null;
  }
  async getMany(keys: readonly string[]) {
    if (keys.length === 0) return [];
    return (await this.redis.mget(...keys.map((k) => this.k(k)))) as (string | null)[];
  }
  getManyNow() {
    return undefined;
  }
  async set(key: string, value: string, ttlSeconds?: number) {
    if (ttlSeconds) await this.redis.set(this.k(key), value, 'EX', ttlSeconds);
    else await this.redis.set(this.k(key), value);
  }
  async setIfAbsent(key: string, value: string, ttlSeconds: number) {
    return (await this.redis.set(this.k(key), value, 'EX', ttlSeconds, 'NX')) === 'OK';
  }
  async take(key: string) {
    return (await this.redis.getdel(this.k(key))) as string | null;
  }
  async del(key: string) {
    await this.redis.del(this.k(key));
  }
  async incr(key: string, ttlSeconds: number) {
    const res = await this.redis.multi().incr(this.k(key)).expire(this.k(key), ttlSeconds, 'NX').exec();
    return Number(res[0][1]);
  }
  async keys(pattern: string, limit = 10_000) {
    // SCAN, never KEYS: KEYS blocks a shared Redis.
    const out: string[] = [];
    let cursor = '0';
    do {
      // `?`, `[`, `]` and `\` are literal here, as in the memory cache: only `*` is a wildcard
      const [next, batch] = await this.redis.scan(cursor, 'MATCH', this.k(pattern).replace(/[?[\]\\]/g, '\\$&'), 'COUNT', 500);
      cursor = next;
      for (const full of batch as string[]) {
        out.push(full.slice(this.prefix.length));
        if (out.length >= limit) return out;
      }
    } while (cursor !== '0');
    return out;
  }
  async inspect(keys: readonly string[]) {
    if (keys.length === 0) return [];
    const head = this.redis.pipeline();
    for (const key of keys) head.type(this.k(key)).pttl(this.k(key));
    const heads = (await head.exec()) as [Error | null, unknown][];
    const types = keys.map((_, i) => String(heads[2 * i][1] ?? 'none'));
    const ttls = keys.map((_, i) => Number(heads[2 * i + 1][1]));
    const SIZE: Record<string, string> = { hash: 'hlen', list: 'llen', set: 'scard', zset: 'zcard', stream: 'xlen' };
    const body = this.redis.pipeline();
    keys.forEach((key, i) => {
      const t = types[i];
      if (t === 'string') body.get(this.k(key));
      else if (SIZE[t]) body[SIZE[t]](this.k(key));
      else body.exists(this.k(key));
    });
    const bodies = (await body.exec()) as [Error | null, unknown][];
    return keys.map((key, i): CacheEntryInfo => {
      const type = types[i];
      const ttlSeconds = ttls[i] > 0 ? Math.ceil(ttls[i] / 1000) : null;
      if (type === 'string') return { key, type, value: (bodies[i][1] as string | null) ?? null, ttlSeconds };
      return { key, type, value: null, ...(SIZE[type] ? { size: Number(bodies[i][1] ?? 0) } : {}), ttlSeconds };
    });
  }
  async delMany(keys: readonly string[]) {
    let n = 0;
    for (let i = 0; i < keys.length; i += 500) n += Number(await this.redis.del(...keys.slice(i, i + 500).map((k) => this.k(k))));
    return n;
  }
  async serverInfo() {
    const text = String(await this.redis.info());
    const field = (name: string) => text.match(new RegExp(`^${name}:(.*)$`, 'm'))?.[1]?.trim() ?? '';
    return {
      kind: 'redis',
      version: field('redis_version'),
      usedMemory: field('used_memory_human'),
      connectedClients: field('connected_clients'),
      uptimeDays: field('uptime_in_days'),
    };
  }
  async clear() {
    const keys = await this.keys('*', 1_000_000);
    for (let i = 0; i < keys.length; i += 500) await this.redis.del(...keys.slice(i, i + 500).map((k) => this.k(k)));
  }
  async close() {
    await this.redis.quit();
  }
}

/** Open the cache for a configuration. */
export async function openCache(redisUrl: string | undefined, prefix: string): Promise<Cache> {
  if (!redisUrl) return new MemoryCache();
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2, lazyConnect: true });
  await redis.connect();
  return new RedisCache(redis, prefix);
}
