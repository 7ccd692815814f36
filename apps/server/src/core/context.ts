import type { Cache } from './cache.ts';
import type { AppConfig } from '../config.ts';
import type { Db, DialectName } from './db.ts';
import type { TypedDb } from './dbTypes.ts';
import type { AuthKeys } from './auth/keys.ts';
import type { MailSender } from './mail.ts';
import type { SecretBox } from './secrets.ts';

/** Everything a route or module needs, decorated on the Fastify instance as `app.ctx`. */
export interface AppContext {
  config: AppConfig;
  db: TypedDb & Db;
  dialect: DialectName;
  cache: Cache;
  keys: AuthKeys;
  mail: MailSender;
  /** Seals configuration secrets at rest (core/secrets.ts). */
  secrets: SecretBox;
}

/**
 * The authenticated caller of a request: shared read-only by the requests of one session (core/plugins/auth.ts freezes it), hence readonly
 * throughout.
 */
export interface CurrentUser {
  readonly id: number;
  readonly username: string;
  readonly cname: string | null;
  readonly email: string | null;
  readonly phone: string | null;
  readonly deptId: number | null;
  readonly deptName: string | null;
  readonly jobId: number | null;
  readonly jobName: string | null;
  readonly avatar: string | null;
  readonly enabled: boolean;
  /** Holds a password the server issued (new user, employee login): reaches only what changing it needs (U23). */
  readonly mustChangePassword: boolean;
  readonly createTime: string | null;
  /** Permission codes of all roles (empty -> ROLE_SYSTEM_DEFAULT on the client). */
  readonly permissions: readonly string[];
  readonly roles: readonly { readonly id: number; readonly name: string; readonly level: number; readonly dataScope: string }[];
  /** Smallest (highest) role level; Infinity without roles. */
  readonly level: number;
  readonly tokenJti: string;
  readonly tokenExp: number;
}

/** Route-level access rule: public, any logged-in user, or any of these permission codes (ADMIN passes). */
export type RouteAuth = 'public' | 'user' | string[];

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** Description written to the operation log for this route (mutating routes are always logged). */
    log?: string;
    /** Reachable while the caller still has to change an issued password (who am I, menus, the change, logout). */
    beforePasswordChange?: boolean;
  }
}
