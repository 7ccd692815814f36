import type { FastifyInstance, FastifyRequest } from 'fastify';
import { payrollStaffOptions, payrollUnmatchedInputs, UNMATCHED_CODES } from '@app/shared/contracts/payrollInputs';
import { hasPermission } from '@app/shared/resource';
import { routeContract } from '../../crud/registerContract.ts';
import { requestDeptScope, whereDeptInScope } from '../../core/rbac.ts';
import { likeContains } from '../../core/db.ts';
import { type TaxInputTable, unmatchedTaxInputs } from './inputMatching.ts';

/**
 * The lookups behind the payroll input screens (findings U1, U7):
 * - `GET /api/payroll/staffOptions?q=&agent=&companyId=`: up to 20 staff records whose name or ID card contains
 *   `q`, with their client company and its withholding agent, for the person picker of 专项附加扣除, 期初累计数据 and
 *   员工加班扣款 (a company's staff may be thousands: the picker searches, it does not load them all);
 * - `GET /api/payroll/unmatchedInputs?table=&month=&agent=`: the rows of those screens that no salary row reads
 *   (inputMatching.ts), each with its reason, for the 无法匹配 check screen.
 * Both are limited to the companies (and their agents) in the caller's data scope.
 */

const PICKER_LIMIT = 20;
/** A check list longer than this is cut (the screen says so); filters narrow it. */
const CHECK_LIMIT = 2000;

export function registerInputChecks(app: FastifyInstance): void {
  /** The client companies visible to the caller (null: all). */
  async function visibleCompanyIds(req: FastifyRequest): Promise<Set<number> | null> {
    const scope = await requestDeptScope(req, app.ctx.db);
    if (scope === null) return null;
    const rows = await whereDeptInScope(app.ctx.db.selectFrom('accounts_company').select(['id']), 'dept_id', scope).execute();
    return new Set(rows.map((r) => Number(r.id)));
  }

  routeContract(app, payrollStaffOptions, async (req) => {
    const { q, agent, companyId } = req.query;
    let qb = app.ctx.db
      .selectFrom('accounts_staff as s')
      .innerJoin('accounts_company as c', 'c.id', 's.company_id')
      .select(['s.id', 's.staff_name', 's.id_card', 's.phone', 's.job_state', 's.company_id', 'c.company_name', 'c.dispatch_company']);
    if (q) qb = qb.where((eb) => eb.or([likeContains(app.ctx.dialect, 's.staff_name', q), likeContains(app.ctx.dialect, 's.id_card', q.toUpperCase())]));
    if (agent) qb = qb.where('c.dispatch_company', '=', agent);
    if (companyId) qb = qb.where('s.company_id', '=', companyId);
    const scope = await requestDeptScope(req, app.ctx.db);
    qb = whereDeptInScope(qb, 'c.dept_id', scope);
    const rows = await qb.orderBy('s.staff_name').orderBy('s.id').limit(PICKER_LIMIT).execute();
    return {
      content: rows.map((r) => ({
        id: Number(r.id),
        staffName: r.staff_name,
        idCard: r.id_card,
        phone: r.phone,
        jobState: r.job_state,
        companyId: Number(r.company_id),
        companyName: r.company_name,
        dispatchCompany: r.dispatch_company,
      })),
    };
  });

  routeContract(app, payrollUnmatchedInputs, async (req) => {
    const { table, month, agent } = req.query;
    const codes = req.user!.permissions;
    // each input only for the holders of its screen's codes
    const allowed: TaxInputTable[] = [];
    if (hasPermission(codes, UNMATCHED_CODES.taxInputs)) allowed.push('taxDeduction', 'taxOpening');
    if (hasPermission(codes, UNMATCHED_CODES.staffExtra)) allowed.push('accountsStaffExtra');
    const tables = table ? allowed.filter((t) => t === table) : allowed;
    if (tables.length === 0) return { content: [], totalElements: 0 };
    let rows = await unmatchedTaxInputs(app.ctx.db, { month, agent, tables });
    const visible = await visibleCompanyIds(req);
    if (visible !== null) {
      // a limited user sees tax inputs of the agents of their companies, overtime rows of their companies
      const agents = new Set(
        (await app.ctx.db.selectFrom('accounts_company').select(['id', 'dispatch_company']).execute()).filter((c) => visible.has(Number(c.id))).map((c) => c.dispatch_company),
      );
      // (or of their staff: a row saved under a client's name instead of the agent's is the case to see, U1)
      const cards = [...new Set(rows.filter((r) => r.table !== 'accountsStaffExtra' && r.idCard).map((r) => r.idCard as string))];
      const ours = new Set<string>();
      for (let i = 0; i < cards.length; i += 1000) {
        const staff = await app.ctx.db.selectFrom('accounts_staff').select(['id_card', 'company_id']).where('id_card', 'in', cards.slice(i, i + 1000)).execute();
        for (const s of staff) if (visible.has(Number(s.company_id))) ours.add(String(s.id_card));
      }
      rows = rows.filter((r) =>
        r.table === 'accountsStaffExtra' ? r.companyId !== null && r.companyId !== undefined && visible.has(r.companyId) : agents.has(r.agent) || (r.idCard !== null && ours.has(r.idCard)),
      );
    }
    return { content: rows.slice(0, CHECK_LIMIT), totalElements: rows.length };
  });
}
