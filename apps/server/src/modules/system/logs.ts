import type { AnySelect } from '../../crud/registerResource.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { errorLogDetail, listErrorLogs, listLogs, listOwnLogs } from '@app/shared/contracts/system';
import { logResource } from '@app/shared/resources/log';
import { AppError } from '../../core/errors.ts';
import { applyFilters, parsePaging, sortableColumns } from '../../crud/listQuery.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { rowToApi } from '../../crud/rowMapping.ts';
import { countOf } from '../../crud/pagedQuery.ts';

type Row = Record<string, unknown>;

/**
 * Reading the operation log (written by core/http.ts for logins and every mutating call, secrets masked):
 * the operation log (INFO, and WARN: what was refused as a user mistake) and the error log (ERROR) for
 * administrators, the detail of a failed entry on request, and each user's own entries.
 */
export function registerLogs(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const sortable = sortableColumns(logResource);
  const defaultSort: [string, 'asc' | 'desc'][] = [['id', 'desc']];

  async function page(query: Row, logTypes: ('INFO' | 'WARN' | 'ERROR')[], extra?: (qb: AnySelect) => AnySelect) {
    const paging = parsePaging(query, sortable, defaultSort);
    let qb = applyFilters(app.ctx.db.selectFrom('sys_log'), logResource, query, app.ctx.dialect).where('log_type', 'in', logTypes);
    if (extra) qb = extra(qb);
    const totalElements = await countOf(qb);
    let rows: Row[] = [];
    if (totalElements > 0) {
      let sel = qb.select(['id', 'username', 'request_ip', 'description', 'method', 'params', 'browser', 'time', 'log_type', 'create_time']);
      for (const [c, d] of paging.sort) sel = sel.orderBy(sql.ref(c), d);
      rows = (await sel.limit(paging.size).offset(paging.page * paging.size).execute()) as Row[];
    }
    return { content: rows.map((r) => rowToApi(logResource, r)), totalElements };
  }

  // The operation log: what was done, and what was tried and refused as a user mistake (WARN, see core/http.ts).
  routeContract(app, listLogs, (req) => page(req.query, ['INFO', 'WARN']));

  // The list leaves the exception text out; it can be long and is fetched per entry.
  routeContract(app, listErrorLogs, (req) => page(req.query, ['ERROR']));

  routeContract(app, errorLogDetail, async (req) => {
    const id = req.params.id;
    const row = await app.ctx.db.selectFrom('sys_log').select('exception_detail').where('id', '=', id).where('log_type', 'in', ['ERROR', 'WARN']).executeTakeFirst();
    if (!row) throw new AppError('LOG_NOT_FOUND');
    return { exception: row.exception_detail ?? '' };
  });

  routeContract(app, listOwnLogs, async (req) => {
    const result = await page(req.query, ['INFO'], (qb) => qb.where('username', '=', req.user!.username));
    return {
      content: result.content.map((r) => ({ id: r.id, description: r.description, requestIp: r.requestIp, time: r.time, createTime: r.createTime })),
      totalElements: result.totalElements,
    };
  });
}
