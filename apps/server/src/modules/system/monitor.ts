import fs from 'node:fs';
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { kickOnline, listOnline, serverStatus } from '@app/shared/contracts/monitor';
import { sql } from 'kysely';
import { listSessions, revokeSession } from '../../core/auth/onlineSessions.ts';
import { AppError } from '../../core/errors.ts';
import { queryStatsOf } from '../../core/queryStats.ts';
import { routeContract } from '../../crud/registerContract.ts';

/**
 * 系统监控 (issue 25 item 4, M8):
 * - GET /api/online: the login sessions still valid (user, IP, browser, login time, last seen), from the cache;
 * - DELETE /api/online/{jti}: 强退, the session's token revoked at once (its next request answers 401);
 * - GET /api/monitor/server: CPU, memory, the Node heap, the disk of DATA_DIR, the database's size and pool,
 *   the cache server, uptime and version.
 */

const APP_VERSION = (() => {
  try {
    return String(JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version ?? '');
  } catch {
    return '';
  }
})();

/** CPU busy share over a short sample (os.cpus() times are cumulative since boot). */
async function cpuUsage(sampleMs = 200): Promise<number> {
  const total = () => os.cpus().reduce((acc, c) => ({ idle: acc.idle + c.times.idle, all: acc.all + Object.values(c.times).reduce((a, b) => a + b, 0) }), { idle: 0, all: 0 });
  const a = total();
  await new Promise((r) => setTimeout(r, sampleMs));
  const b = total();
  const all = b.all - a.all;
  return all > 0 ? Math.round((1 - (b.idle - a.idle) / all) * 1000) / 10 : 0;
}

export function registerMonitor(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { cache, config } = app.ctx;

  routeContract(app, listOnline, async (req) => {
      const filter = req.query.filter?.trim().toLowerCase();
      const all = (await listSessions(cache)).filter((s) => !filter || [s.username, s.nickName ?? '', s.ip].some((v) => v.toLowerCase().includes(filter)));
      return { content: all.map((s) => ({ ...s, current: s.jti === req.user!.tokenJti })), totalElements: all.length };
  });

  routeContract(app, kickOnline, async (req, reply) => {
      const ended = await revokeSession(cache, req.params.jti);
      if (!ended) throw new AppError('ONLINE_SESSION_NOT_FOUND', {});
      return reply.code(204).send();
  });

  routeContract(app, serverStatus, async () => {
    const mem = process.memoryUsage();
    let disk: { path: string; total: number; free: number; used: number } | null = null;
    try {
      const st = await fs.promises.statfs(config.dataDir);
      const total = st.blocks * st.bsize;
      const free = st.bavail * st.bsize;
      disk = { path: config.dataDir, total, free, used: total - free };
    } catch {
      disk = null;
    }
    const db = app.ctx.db;
    let databaseBytes: number | null = null;
    try {
      const dialect = app.ctx.dialect;
      const q =
        dialect === 'postgres'
          ? sql<{ n: number }>`select pg_database_size(current_database()) as n`
          : dialect === 'mysql'
            ? sql<{ n: number }>`select coalesce(sum(data_length + index_length), 0) as n from information_schema.tables where table_schema = database()`
            : sql<{ n: number }>`select page_count * page_size as n from pragma_page_count(), pragma_page_size()`;
      databaseBytes = Number((await q.execute(db)).rows[0]?.n ?? 0);
    } catch {
      databaseBytes = null;
    }
    const pool = queryStatsOf(db)?.snapshot().pool ?? null;
    const cacheInfo = await cache.serverInfo().catch(() => ({}) as Record<string, string>);
    return {
      version: APP_VERSION,
      node: process.version,
      host: { platform: `${os.type()} ${os.release()}`, arch: os.arch(), cpus: os.cpus().length, loadAverage: os.loadavg(), cpuUsagePercent: await cpuUsage(), uptimeSeconds: Math.round(os.uptime()) },
      memory: { total: os.totalmem(), free: os.freemem(), used: os.totalmem() - os.freemem() },
      process: { uptimeSeconds: Math.round(process.uptime()), rss: mem.rss, heapUsed: mem.heapUsed, heapTotal: mem.heapTotal, external: mem.external, pid: process.pid },
      disk,
      database: { dialect: app.ctx.dialect, bytes: databaseBytes, pool },
      cache: { kind: cache.kind, info: cacheInfo },
    };
  });
}
