import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { homeContractsDue, homeUnconfirmedSalaryMonths } from '@app/shared/contracts/home';
import { routeContract } from '../../crud/registerContract.ts';
import { chinaToday, scopeByCompany } from '../dispatch/lookups.ts';

/** Staff no longer employed: their contracts need no action. */
const NOT_EMPLOYED = ['离职', '退休'];
/** A terminated contract needs no renewal. */
const TERMINATED_CONTRACT = '已解除';
/** The daily reminder job's (or the clerk's) mark that the reminder has fired. */
const REMINDED = '已提醒';
const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 100;

const DAY_MS = 86_400_000;
/** `date` (YYYY-MM-DD) plus `days`. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
/** Whole days from `from` to `to` (negative when `to` is earlier). */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

const str = (v: unknown) => (v === null || v === undefined ? null : String(v));

/**
 * What a clerk must act on, across every company in the caller's data scope (the home screen, W4):
 * - `GET /api/home/contractsDue`: employed staff whose contract ends within `withinDays`, whose reminder
 *   date has come or who are marked 已提醒 (the 合同到期提醒 screen's list), and those whose contract has already ended without a renewal (negative
 *   `daysLeft`), soonest first, with counts per company. Terminated contracts and leavers are left out.
 * - `GET /api/home/unconfirmedSalaryMonths`: per company, the salary months generated but not confirmed,
 *   oldest first, with how many rows are calculated (next step 计算 or 确认).
 */
export function registerHomeActions(app: FastifyInstance): void {
  routeContract(app, homeContractsDue, async (req) => {
    const { withinDays, companyId } = req.query;
    const page = req.query.page ?? 0;
    const size = Math.min(req.query.size ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    const today = chinaToday();
    const horizon = addDays(today, withinDays);
    let base = app.ctx.db
      .selectFrom('accounts_staff as s')
      .where('s.contract_end', 'is not', null)
      .where((eb) => eb.or([eb('s.job_state', 'is', null), eb('s.job_state', 'not in', NOT_EMPLOYED)]))
      .where((eb) => eb.or([eb('s.leave_date', 'is', null), eb('s.leave_date', '=', ''), eb('s.leave_date', '>=', today)]))
      .where((eb) => eb.or([eb('s.contract_state', 'is', null), eb('s.contract_state', '!=', TERMINATED_CONTRACT)]))
      .where((eb) => eb.or([eb('s.contract_end', '<=', horizon), eb('s.contract_warn', '<=', today), eb('s.contract_warn_state', '=', REMINDED)]));
    if (companyId !== undefined) base = base.where('s.company_id', '=', companyId);
    const scoped = (await scopeByCompany(app, req, base, 's.company_id')) as typeof base;

    const totals = await scoped
      .select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(case when s.contract_end < ${today} then 1 else 0 end), 0)`.as('expired')])
      .executeTakeFirst();
    const totalElements = Number(totals?.n ?? 0);
    const byCompany = totalElements
      ? await scoped
          .select(['s.company_id', sql<string>`max(s.company_name)`.as('company_name'), sql<number>`count(*)`.as('n')])
          .groupBy('s.company_id')
          .orderBy(sql`count(*)`, 'desc')
          .orderBy('s.company_id')
          .execute()
      : [];
    const rows = totalElements
      ? await scoped
          .select([
            's.id',
            's.company_id',
            's.company_name',
            's.staff_name',
            's.id_card',
            's.phone',
            's.job_state',
            's.contract_state',
            's.contract_type',
            's.contract_start',
            's.contract_end',
            's.contract_warn',
            's.contract_warn_state',
          ])
          .orderBy('s.contract_end')
          .orderBy('s.id')
          .limit(size)
          .offset(page * size)
          .execute()
      : [];
    return {
      content: rows.map((r) => ({
        id: Number(r.id),
        companyId: Number(r.company_id),
        companyName: str(r.company_name),
        staffName: str(r.staff_name),
        idCard: str(r.id_card),
        phone: str(r.phone),
        jobState: str(r.job_state),
        contractState: str(r.contract_state),
        contractType: str(r.contract_type),
        contractStart: str(r.contract_start),
        contractEnd: String(r.contract_end),
        contractWarn: str(r.contract_warn),
        contractWarnState: str(r.contract_warn_state),
        daysLeft: daysBetween(today, String(r.contract_end)),
      })),
      totalElements,
      expired: Number(totals?.expired ?? 0),
      withinDays,
      byCompany: byCompany.map((r) => ({ companyId: Number(r.company_id), companyName: str(r.company_name), count: Number(r.n) })),
    };
  });

  routeContract(app, homeUnconfirmedSalaryMonths, async (req) => {
    const { companyId } = req.query;
    const page = req.query.page ?? 0;
    const size = Math.min(req.query.size ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    let base = app.ctx.db
      .selectFrom('accounts_salary as s')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('accounts_confirm_log as c').select('c.id').whereRef('c.company_id', '=', 's.company_id').whereRef('c.month', '=', 's.month'))));
    if (companyId !== undefined) base = base.where('s.company_id', '=', companyId);
    const scoped = (await scopeByCompany(app, req, base, 's.company_id')) as typeof base;
    const grouped = scoped
      .select([
        's.company_id',
        's.month',
        sql<string>`max(s.company_name)`.as('company_name'),
        sql<number>`count(*)`.as('n'),
        sql<number>`coalesce(sum(case when s.calc_state = 1 then 1 else 0 end), 0)`.as('calculated'),
      ])
      .groupBy(['s.company_id', 's.month']);
    const count = await app.ctx.db
      .selectFrom(grouped.as('g'))
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirst();
    const totalElements = Number(count?.n ?? 0);
    const rows = totalElements ? await grouped.orderBy('s.month').orderBy('s.company_id').limit(size).offset(page * size).execute() : [];
    return {
      content: rows.map((r) => {
        const n = Number(r.n);
        const calculated = Number(r.calculated);
        return { companyId: Number(r.company_id), companyName: str(r.company_name), month: String(r.month), rows: n, calculated, nextStep: calculated < n ? ('calculate' as const) : ('confirm' as const) };
      }),
      totalElements,
    };
  });
}
