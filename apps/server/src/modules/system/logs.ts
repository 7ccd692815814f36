import type { FastifyInstance, FastifyRequest } from 'fastify';
import { logResource } from '@app/shared/resources/log';
import { permissionCodes } from '@app/shared/resource';
import { notFound } from '../../core/errors.ts';
import { parseId } from '../../crud/registerResource.ts';
import { applyFilters, parsePaging, sortableColumns } from '../../crud/listQuery.ts';
import { rowToApi } from '../../crud/rowMapping.ts';

type Row = Record<string, unknown>;

/**
 * Reading the operation log (written by core/http.ts for logins and every mutating call, secrets masked):
 * INFO and ERROR lists for administrators, an error's detail on request, and each user's own entries.
 */
export function registerLogs(app: FastifyInstance): void {
  const adminOnly = permissionCodes(logResource, 'list');
  const sortable = sortableColumns(logResource);
  const defaultSort: [string, 'asc' | 'desc'][] = [['id', 'desc']];

  async function page(req: FastifyRequest, logType: 'INFO' | 'ERROR', extra?: (qb: any) => any) {
    const query = req.query as Row;
    const paging = parsePaging(query, sortable, defaultSort);
    let qb = applyFilters(app.ctx.db.selectFrom('sys_log'), logResource, query, app.ctx.dialect).where('log_type', '=', logType);
    if (extra) qb = extra(qb);
    const count = await qb.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    const totalElements = Number((count as { n: number } | undefined)?.n ?? 0);
    let rows: Row[] = [];
    if (totalElements > 0) {
      let sel = qb.select(['id', 'username', 'request_ip', 'description', 'method', 'params', 'browser', 'time', 'log_type', 'create_time']);
      for (const [c, d] of paging.sort) sel = sel.orderBy(c, d);
      rows = (await sel.limit(paging.size).offset(paging.page * paging.size).execute()) as Row[];
    }
    return { content: rows.map((r) => rowToApi(logResource, r)), totalElements };
  }

  app.get('/api/logs', { config: { auth: adminOnly } }, (req) => page(req, 'INFO'));

  // The list leaves the exception text out; it can be long and is fetched per entry.
  app.get('/api/logs/error', { config: { auth: adminOnly } }, (req) => page(req, 'ERROR'));

  app.get('/api/logs/error/:id', { config: { auth: adminOnly } }, async (req) => {
    const id = parseId((req.params as { id: string }).id);
    const row = await app.ctx.db.selectFrom('sys_log').select('exception_detail').where('id', '=', id).where('log_type', '=', 'ERROR').executeTakeFirst();
    if (!row) throw notFound('异常日志不存在');
    return { exception: row.exception_detail ?? '' };
  });

  app.get('/api/logs/user', { config: { auth: 'user' } }, async (req) => {
    const result = await page(req, 'INFO', (qb) => qb.where('username', '=', req.user!.username));
    return {
      content: result.content.map((r) => ({ id: r.id, description: r.description, requestIp: r.requestIp, time: r.time, createTime: r.createTime })),
      totalElements: result.totalElements,
    };
  });
}
