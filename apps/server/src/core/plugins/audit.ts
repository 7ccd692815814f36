import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { maskSecrets } from '../errors.ts';
import type { RouteAuth } from '../context.ts';
import { nowIso } from '../db.ts';

const isMutating = (m: string) => m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS';
type Hook<T> = T | T[] | undefined;
const hookList = <T>(h: Hook<T>): T[] => (h === undefined ? [] : Array.isArray(h) ? h : [h]);

/**
 * The kind of log row an answer makes. Only what the server got wrong (5xx, stored with its stack) and refused
 * access or throttling (401, 403, 429: worth an administrator's eye) go to the error log. What the user can put
 * right (400 bad input, 404, 409 a duplicate, 413, 415 ...) is an operation that did not go through: WARN,
 * listed with the operation log and its outcome kept as one line (status and message, never a stack).
 */
export function logTypeOf(status: number): 'INFO' | 'WARN' | 'ERROR' {
  if (status < 400) return 'INFO';
  if (status >= 500 || status === 401 || status === 403 || status === 429) return 'ERROR';
  return 'WARN';
}

function isPlainBody(body: unknown): boolean {
  return body !== null && typeof body === 'object' && !Buffer.isBuffer(body);
}

async function writeOperationLog(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, routeUrl: string, log: string | undefined): Promise<void> {
  const logType = logTypeOf(reply.statusCode);
  const failed = logType !== 'INFO';
  let username = req.user?.username ?? null;
  if (!username && req.url.startsWith('/auth/login')) {
    const b = req.body;
    username = b !== null && typeof b === 'object' && 'username' in b && typeof b.username === 'string' ? b.username.slice(0, 50) : null;
  }
  const query = req.query !== null && typeof req.query === 'object' ? req.query : {};
  const params = JSON.stringify(maskSecrets({ ...query, ...(isPlainBody(req.body) ? { body: req.body } : {}) }));
  try {
    await app.database.db
      .insertInto('sys_log')
      .values({
        log_type: logType,
        username,
        description: log ?? `${req.method} ${routeUrl}`,
        method: `${req.method} ${routeUrl}`,
        params: params.length > 4000 ? `${params.slice(0, 4000)}…` : params,
        request_ip: req.ip,
        browser: String(req.headers['user-agent'] ?? '').slice(0, 255),
        time: Math.round(reply.elapsedTime),
        exception_detail: failed ? (req.failure?.detail ?? `HTTP ${reply.statusCode}`) : null,
        create_time: nowIso(),
      })
      .execute();
  } catch (err) {
    req.log.error({ err }, 'failed to write the operation log');
  }
}

/**
 * The `audit` plugin: the operation/error log (系统监控 › 操作日志/异常日志, read by modules/system/logs.ts).
 * Guarded routes that write, and routes with `config.log`, are logged (logins included), secrets masked;
 * `config.log: ''` opts a route out. Each logged route gets its own onResponse hook, which runs for every answer
 * of that route, refused ones (401/403) included, so the row is on its way to the database as soon as the answer
 * is out (a caller reading the log next finds it). Routes that do not log have no hook: a global one ran on
 * every request only to find nothing to do (issue 27).
 */
async function auditPlugin(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const cfg = route.config as { auth?: RouteAuth; log?: string } | undefined;
    const log = cfg?.log;
    if (!cfg?.auth || log === '' || !(methods.some(isMutating) || log)) return;
    const routeUrl = route.url;
    const writeLog = (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
      if (!isMutating(req.method) && !log) return done();
      writeOperationLog(app, req, reply, routeUrl, log).then(done, done);
    };
    route.onResponse = [writeLog, ...hookList(route.onResponse)];
  });
}

export default fp(auditPlugin, { name: 'audit', fastify: '5.x', dependencies: ['db', 'auth', 'errors'] });
