import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { homeSalaryMonth, type SalaryMonthState } from '@app/shared/contracts/home';
import { routeContract } from '../../crud/registerContract.ts';
import { chinaToday, scopeByCompany } from '../dispatch/lookups.ts';

/**
 * The clerk's month on the home screen (U10, M7): for one salary month (default: the current month, China
 * time), every company in the caller's data scope with the state of its salary sheet, read from the payroll
 * tables' own facts (rows and calc_state in accounts_salary, the month's accounts_confirm_log row):
 * - 未生成 (notGenerated): no salary rows for the month;
 * - 已生成 (generated): rows, some not calculated;
 * - 已计算 (calculated): every row calculated, not confirmed;
 * - 已确认 (confirmed): the month is confirmed.
 * And the month's payroll work in counts (rows calculated, rows confirmed, salary and payslip files exported),
 * the numbers 模型统计 lacked.
 */

/** Export routes of the payroll screens (their operation-log rows count the files made). */
const PAYROLL_EXPORTS = ['POST /api/export/accountsSalary', 'GET /api/export/acPayslipAll', 'GET /api/export/acPayslip', 'GET /api/export/acPayslipOne'];

/** The first instant of a China-time month as an ISO string (create_time is stored as ISO UTC). */
function chinaMonthStart(month: string, plusMonths = 0): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1 + plusMonths, 1) - 8 * 3600_000).toISOString();
}

export function registerHomeSalaryMonth(app: FastifyInstance): void {
  routeContract(app, homeSalaryMonth, async (req) => {
    const month = req.query.month ?? chinaToday().slice(0, 7);
    const db = app.ctx.db;
    const base = db.selectFrom('accounts_company as c');
    const scoped = (await scopeByCompany(app, req, base, 'c.id')) as typeof base;
    const companies = await scoped.select(['c.id', 'c.company_name']).orderBy('c.id').execute();
    const ids = companies.map((c) => Number(c.id));
    const sheets = ids.length
      ? await db
          .selectFrom('accounts_salary as s')
          .select(['s.company_id', sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(case when s.calc_state = 1 then 1 else 0 end), 0)`.as('calculated')])
          .where('s.month', '=', month)
          .where('s.company_id', 'in', ids)
          .groupBy('s.company_id')
          .execute()
      : [];
    const confirmed = ids.length
      ? new Set((await db.selectFrom('accounts_confirm_log').select('company_id').where('month', '=', month).where('company_id', 'in', ids).execute()).map((r) => Number(r.company_id)))
      : new Set<number>();
    const bySheet = new Map(sheets.map((s) => [Number(s.company_id), { rows: Number(s.n), calculated: Number(s.calculated) }]));
    const counts = { notGenerated: 0, generated: 0, calculated: 0, confirmed: 0 };
    let rowsCalculated = 0;
    let rowsConfirmed = 0;
    const rows = companies.map((c) => {
      const id = Number(c.id);
      const sheet = bySheet.get(id) ?? { rows: 0, calculated: 0 };
      const state: SalaryMonthState = confirmed.has(id) ? 'confirmed' : sheet.rows === 0 ? 'notGenerated' : sheet.calculated < sheet.rows ? 'generated' : 'calculated';
      counts[state] += 1;
      rowsCalculated += sheet.calculated;
      if (state === 'confirmed') rowsConfirmed += sheet.rows;
      return { companyId: id, companyName: c.company_name ?? null, state, rows: sheet.rows, calculated: sheet.calculated };
    });
    // files exported this month by anyone the caller's scope covers is not recorded per company: the caller's own
    const exported = await db
      .selectFrom('sys_log')
      .select(sql<number>`count(*)`.as('n'))
      .where('method', 'in', PAYROLL_EXPORTS)
      .where('log_type', '=', 'INFO')
      .where('username', '=', req.user!.username)
      .where('create_time', '>=', chinaMonthStart(month))
      .where('create_time', '<', chinaMonthStart(month, 1))
      .executeTakeFirst();
    return { month, companies: rows, counts, work: { rowsCalculated, rowsConfirmed, filesExported: Number(exported?.n ?? 0) } };
  });
}
