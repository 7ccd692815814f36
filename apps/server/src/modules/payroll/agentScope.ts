import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorCode } from '@app/shared/errors/catalogue';
import type { ResourceDef } from '@app/shared/resource';
import type { Db } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { type DeptScope, requestDeptScope, whereDeptInScope } from '../../core/rbac.ts';
import { registerExcelRoutes } from '../../crud/excel.ts';
import { registerResource, type WriteContext } from '../../crud/registerResource.ts';
import { checkAgentAndPerson } from './inputRules.ts';

/**
 * Resources kept per withholding agent (派遣单位) and worker — 期初累计数据, 专项附加扣除 — share one access rule:
 * a user limited to some departments sees and writes only the rows of the withholding agents of the client
 * companies they see. Registers the generic routes and the Excel routes of `def` with that rule; every write names
 * a `dispatch_company` agent and a person employed there (inputRules.ts, findings U1); `check` adds the resource's
 * own rules before a write.
 */
export function registerAgentScopedResource(
  app: FastifyInstance,
  def: ResourceDef,
  opts: { forbiddenCode: ErrorCode; check?: (values: Record<string, unknown>, ctx: WriteContext) => void | Promise<void>; templateHints?: Record<string, string> },
): void {
  const column = (f: string) => `${def.table}.${f}`;
  /** The withholding agents of the companies in the caller's scope. */
  const visibleAgents = (db: Db, scope: DeptScope) =>
    whereDeptInScope(db.selectFrom('accounts_company').select('accounts_company.dispatch_company'), 'accounts_company.dept_id', scope);

  async function assertAgentVisible(req: FastifyRequest, db: Db, agent: string): Promise<void> {
    const scope = await requestDeptScope(req, db);
    if (scope === null) return;
    const row = await visibleAgents(db, scope).where('accounts_company.dispatch_company', '=', agent).limit(1).executeTakeFirst();
    if (!row) throw new AppError(opts.forbiddenCode);
  }

  const resource = registerResource(app, def, {
    scope: async (req, qb) => {
      const scope = await requestDeptScope(req, app.ctx.db);
      return scope === null ? qb : qb.where(column('dispatch_company'), 'in', visibleAgents(app.ctx.db, scope));
    },
    beforeWrite: async (values, ctx) => {
      const { req, db, existing } = ctx;
      await assertAgentVisible(req, db, String(values.dispatchCompany ?? existing?.dispatchCompany ?? '').trim());
      await checkAgentAndPerson(req, db, values, existing);
      await opts.check?.(values, ctx);
    },
  });
  registerExcelRoutes(app, resource, { templateHints: { dispatchCompany: '填写扣缴义务人（派遣单位）的名称，须与派遣单位字典一致（不是用工单位）', idCard: '须为该派遣单位下用工单位的在册员工', ...opts.templateHints } });
}
