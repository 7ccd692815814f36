import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config.ts';
import type { AppContext } from '../context.ts';
import type { MailSender } from '../mail.ts';
import type { SecretBox } from '../secrets.ts';

export interface ContextPluginOptions {
  config: AppConfig;
  mail: MailSender;
  secrets: SecretBox;
}

/**
 * The `ctx` plugin: `app.ctx`, the one object the business modules read their dependencies from, assembled from
 * what the `db`, `cache` and `auth` plugins decorated (the same objects, so both ways of reaching them agree).
 */
async function contextPlugin(app: FastifyInstance, opts: ContextPluginOptions): Promise<void> {
  const ctx: AppContext = {
    config: opts.config,
    db: app.database.db,
    dialect: app.database.dialect,
    cache: app.cache,
    keys: app.authKeys,
    mail: opts.mail,
    secrets: opts.secrets,
  };
  app.decorate('ctx', ctx);
}

export default fp(contextPlugin, { name: 'ctx', fastify: '5.x', dependencies: ['db', 'cache', 'auth'] });
