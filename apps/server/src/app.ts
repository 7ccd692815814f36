import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from './config.ts';
import { openDatabase, type Database } from './core/db.ts';
import { openCache, type Cache } from './core/cache.ts';
import { loadOrCreateKeys, type AuthKeys } from './core/auth/keys.ts';
import { LoggingMailSender, type MailSender } from './core/mail.ts';
import { installHttpPlumbing } from './core/http.ts';
import { migrateToLatest } from '../migrations/index.ts';
import { registerAuthRoutes } from './modules/auth/routes.ts';
import { registerModules } from './modules/index.ts';
import './core/context.ts';

export interface BuildOptions {
  /** Reuse an opened database (tests, benchmarks); otherwise opened from config.dbUrl. */
  database?: Database;
  cache?: Cache;
  keys?: AuthKeys;
  mail?: MailSender;
  /** Run migrations (default true). */
  migrate?: boolean;
}

/** Build the whole server (API + static web app) without listening; used by main.ts and every test. */
export async function buildApp(config: AppConfig, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const database = opts.database ?? (await openDatabase(config.dbUrl));
  if (opts.migrate !== false) await migrateToLatest(database.db, database.dialect);
  const cache = opts.cache ?? (await openCache(config.redisUrl, config.cachePrefix));
  const keys = opts.keys ?? loadOrCreateKeys(config.dataDir);
  const mail = opts.mail ?? new LoggingMailSender();

  const app = Fastify({
    logger: config.logRequests ? { level: 'info' } : false,
    bodyLimit: 10 * 1024 * 1024,
    trustProxy: false,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.decorate('ctx', { config, db: database.db, dialect: database.dialect, cache, keys, mail });
  installHttpPlumbing(app);
  await app.register(multipart, { limits: { fileSize: 200 * 1024 * 1024, files: 1 } });

  registerAuthRoutes(app);
  await registerModules(app);

  const webDist = config.webDist;
  if (webDist && fs.existsSync(path.join(webDist, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      wildcard: true,
      index: ['index.html'],
      // .br/.gz files written by the web build (scripts/compress-dist.mjs) are sent to browsers that accept them
      preCompressed: true,
      cacheControl: false,
      // Vite names every asset by its content hash, so a browser may keep them for good and never ask again;
      // index.html (and anything unhashed) is revalidated so a new release is picked up at once.
      setHeaders: (reply, filePath) => {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.setNotFoundHandler((req, reply) => {
      if (req.method === 'GET' && !isApiPath(req.url)) return reply.type('text/html').sendFile('index.html');
      reply.status(404).send({ status: 404, message: '接口不存在', timestamp: new Date().toISOString() });
    });
  } else {
    app.setNotFoundHandler((_req, reply) => {
      reply.status(404).send({ status: 404, message: '接口不存在', timestamp: new Date().toISOString() });
    });
  }

  app.addHook('onClose', async () => {
    await cache.close();
    if (!opts.database) await database.destroy();
  });
  return app;
}

function isApiPath(url: string): boolean {
  return /^\/(api|auth|taskManagement|dataOrigin|dataManagement|customDatasource|ModelManageMent|instrument|algorithm|qiniu|aliPay)(\/|\?|$)/.test(url);
}
