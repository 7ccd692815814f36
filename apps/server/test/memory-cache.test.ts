import { describe, expect, it } from 'vitest';
import { MEMORY_CACHE_ENTRIES, MemoryCache, openCache } from '../src/core/cache.ts';

// The in-process cache (no REDIS_URL) keeps a bounded number of keys, dropping the least recently used, and honours
// each key's TTL; its storage grows with the entries instead of being allocated for the bound at start (issue 27).
describe('in-process cache', () => {
  it('is what openCache gives without a Redis URL, bounded at MEMORY_CACHE_ENTRIES keys', async () => {
    const cache = await openCache(undefined, 'memory-cache-test:');
    expect(cache).toBeInstanceOf(MemoryCache);
    expect(MEMORY_CACHE_ENTRIES).toBe(200_000);
  });

  it('answers getManyNow at once, as getMany would (the request guard reads token marks this way)', async () => {
    const cache = new MemoryCache(10);
    await cache.set('a', 'A');
    await cache.set('gone', 'x', 1);
    await cache.del('gone');
    const now = cache.getManyNow(['a', 'missing', 'gone']);
    expect(now).toEqual(['A', null, null]);
    expect(await cache.getMany(['a', 'missing', 'gone'])).toEqual(now);
  });

  it('drops the least recently used key when full, not a key just read', async () => {
    const cache = new MemoryCache(3);
    for (const k of ['a', 'b', 'c']) await cache.set(k, k.toUpperCase());
    expect(await cache.get('a')).toBe('A'); // a is now the most recently used; b the least
    await cache.set('d', 'D');
    expect((await cache.keys('*')).sort()).toEqual(['a', 'c', 'd']);
    await cache.set('e', 'E'); // c is the least recently used now
    expect((await cache.keys('*')).sort()).toEqual(['a', 'd', 'e']);
  });

  it('keeps exactly its bound over many more writes', async () => {
    const cache = new MemoryCache(1000);
    for (let i = 0; i < 5000; i++) await cache.set(`k${i}`, String(i));
    const kept = await cache.keys('k*', 10_000);
    expect(kept).toHaveLength(1000);
    expect(await cache.get('k3999')).toBeNull();
    expect(await cache.get('k4000')).toBe('4000');
    expect(await cache.get('k4999')).toBe('4999');
  });

  it('forgets a key when its TTL has passed, and keeps one without a TTL', async () => {
    // real time: lru-cache reads the clock it captured when loaded, which fake timers do not replace
    const cache = new MemoryCache(10);
    await cache.set('short', '1', 1);
    await cache.set('forever', '2');
    expect(await cache.get('short')).toBe('1');
    await new Promise((r) => setTimeout(r, 1100));
    expect(await cache.get('short')).toBeNull();
    expect(await cache.get('forever')).toBe('2');
  });
});
