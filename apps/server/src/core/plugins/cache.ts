import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { type Cache, openCache } from '../cache.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared cache (core/cache.ts): Redis with REDIS_URL, process memory otherwise. */
    cache: Cache;
  }
}

export interface CachePluginOptions {
  /** A cache to use (tests); closed with the app like an opened one. */
  cache?: Cache;
  redisUrl?: string;
  /** Prefix of every key (config.cachePrefix): instances of one installation share it. */
  prefix: string;
}

/** The `cache` plugin: opens (or receives) the cache and closes it with the app. */
async function cachePlugin(app: FastifyInstance, opts: CachePluginOptions): Promise<void> {
  const cache = opts.cache ?? (await openCache(opts.redisUrl, opts.prefix));
  app.decorate('cache', cache);
  app.addHook('onClose', async () => {
    await cache.close();
  });
}

export default fp(cachePlugin, { name: 'cache', fastify: '5.x' });
