import Fastify, { type FastifyInstance } from 'fastify';
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from './config.ts';
import type { Database } from './core/db.ts';
import type { Cache } from './core/cache.ts';
import type { AuthKeys } from './core/auth/keys.ts';
import type { MailSender } from './core/mail.ts';
import { SmtpMailSender } from './modules/integrations/email/mailer.ts';
import { loadOrCreateSecretBox, type SecretBox } from './core/secrets.ts';
import { markInterruptedImports } from './core/excel/importLog.ts';
import { serializerCompiler, validatorCompiler } from './crud/routeSchemas.ts';
import { apiDocsRouteRules, registerApiDocs } from './crud/apiDocs.ts';
import { registerSecurity, SecuredServerResponse } from './core/security.ts';
import { uploadsPlugin } from './core/uploads.ts';
import { registerModules } from './modules/index.ts';
import { registerStorage } from './core/storage/index.ts';
import { registerStoredFileRoutes } from './modules/storage/storedFileRoutes.ts';
import './core/context.ts';
import dbPlugin from './core/plugins/db.ts';
import { prepareDatabase } from './sync/index.ts';
import cachePlugin from './core/plugins/cache.ts';
import errorsPlugin from './core/plugins/errors.ts';
import authPlugin from './core/plugins/auth.ts';
import auditPlugin from './core/plugins/audit.ts';
import contextPlugin from './core/plugins/context.ts';
import { registerWebAssets, webPages } from './webApp.ts';
import { schedulerPlugin } from './core/scheduler/index.ts';

export interface BuildOptions {
  /** Reuse an opened database (tests, benchmarks); otherwise opened from config.dbUrl. */
  database?: Database;
  cache?: Cache;
  keys?: AuthKeys;
  /** Sender used while no SMTP server is configured (tests); without one, sending then fails with a clear message. */
  mail?: MailSender;
  secrets?: SecretBox;
  /** Run migrations and the definition sync (default true). */
  migrate?: boolean;
}

/**
 * Build the whole server (API + static web app) without listening; used by main.ts and every test.
 *
 * The shared concerns are fp plugins with declared dependencies (core/plugins): `db`, `cache`, `errors`,
 * `auth` (db, cache), `audit` (db, auth, errors) and the `ctx` facade (db, cache, auth) the modules read; then
 * security headers and rate limits, uploads, the OpenAPI document, `storage` and `scheduler`; then one
 * encapsulated plugin per business area (modules/index.ts). avvio closes them in the reverse order, so the
 * cache and the database go last.
 */
export async function buildApp(config: AppConfig, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logRequests ? { level: 'info' } : false,
    bodyLimit: 10 * 1024 * 1024,
    // only behind a reverse proxy that sets X-Forwarded-For/-Proto (TRUST_PROXY=true); otherwise clients could forge them
    trustProxy: config.trustProxy ?? false,
    routerOptions: { ignoreTrailingSlash: true },
    // answers whose head starts with the security headers made once (core/security.ts)
    // Fastify types this as a class generic in its request; SecuredServerResponse extends ServerResponse<IncomingMessage>
    http: { ServerResponse: SecuredServerResponse as never },
    // The db plugin migrates and syncs the definitions under the start-up lock: on a busy database, or while another
    // instance holds the lock, that can take longer than Fastify's default 10 s plugin budget (seen on MariaDB while
    // other suites ran). A refused connection still fails at once with its one-line message (startup-processes test).
    pluginTimeout: 180_000,
  });
  // A JSON content type with an empty body reads as "no body" (clients that set the header globally post a
  // bodiless export or download that way); anything else goes through Fastify's own parser and its
  // prototype-poisoning checks.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = String(body); // parseAs 'string'
    if (text.trim() === '') return done(null, undefined);
    return parseJson(req, text, done);
  });
  const migrate = opts.migrate !== false;
  await app.register(dbPlugin, { database: opts.database, url: config.dbUrl, prepare: migrate ? prepareDatabase : undefined });
  // imports whose process is gone are marked 导入中断 in the operation log (S8)
  if (migrate) await markInterruptedImports(app.database.db, !config.redisUrl);
  await app.register(cachePlugin, { cache: opts.cache, redisUrl: config.redisUrl, prefix: config.cachePrefix });
  // the web app's pages answer GETs no route serves (index.html); the API's 404 otherwise
  const webDist = config.webDist && fs.existsSync(path.join(config.webDist, 'index.html')) ? config.webDist : undefined;
  await app.register(errorsPlugin, webDist ? { notFound: webPages(app, webDist, isApiPath) } : {});
  // route schemas are zod (fastify-type-provider-zod): failed parses answer as the app's 400s
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const apiDocs = config.apiDocs !== false;
  if (apiDocs) apiDocsRouteRules(app); // before the route guards read config.auth
  await app.register(authPlugin, { keys: opts.keys, dataDir: config.dataDir });
  await app.register(auditPlugin);
  const secrets = opts.secrets ?? loadOrCreateSecretBox(config.dataDir, config.secretsKey);
  // SMTP with the configuration of 系统工具 › 邮件工具; `opts.mail` (tests) only while none is stored
  const mail = new SmtpMailSender(app.database.db, secrets, { whenNotConfigured: opts.mail, tlsRejectUnauthorized: config.smtpTlsRejectUnauthorized !== false, hostAllowlist: config.smtpHostAllowlist });
  await app.register(contextPlugin, { config, mail, secrets });
  await registerSecurity(app, config);
  // @fastify/multipart, its per-request hooks on multipart requests only (core/uploads.ts)
  await app.register(uploadsPlugin, { limits: { fileSize: 200 * 1024 * 1024, files: 1 } });

  // OpenAPI from the routes' schemas: registered before them so that it sees every route
  if (apiDocs) await registerApiDocs(app);
  // app.storage (local disk or S3-compatible) before the modules that keep files
  await app.register(registerStorage, { fileMaxBytes: (config.storageMaxMb ?? 15) * 1024 * 1024 });
  registerStoredFileRoutes(app);
  // app.scheduler (croner in-process, or BullMQ with REDIS_URL) before the modules that register handlers
  await app.register(schedulerPlugin);
  await registerModules(app);
  if (webDist) registerWebAssets(app, webDist);
  return app;
}

function isApiPath(url: string): boolean {
  return /^\/(api|auth|taskManagement|dataOrigin|dataManagement|customDatasource|ModelManageMent|instrument|algorithm|qiniu|aliPay)(\/|\?|$)/.test(url);
}
