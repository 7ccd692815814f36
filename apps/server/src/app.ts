import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
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
import { apiNotFound, registerWebApp } from './webApp.ts';

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
  if (webDist && fs.existsSync(path.join(webDist, 'index.html'))) await registerWebApp(app, webDist, isApiPath);
  else app.setNotFoundHandler((_req, reply) => apiNotFound(reply));

  app.addHook('onClose', async () => {
    await cache.close();
    if (!opts.database) await database.destroy();
  });
  return app;
}

function isApiPath(url: string): boolean {
  return /^\/(api|auth|taskManagement|dataOrigin|dataManagement|customDatasource|ModelManageMent|instrument|algorithm|qiniu|aliPay)(\/|\?|$)/.test(url);
}
