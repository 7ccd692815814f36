import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { salaryCostSummary } from '@app/shared/contracts/salaryRecords';
import { fenToYuan } from '@app/shared/payroll';
import { isValidMonth } from '@app/shared/resource';
import { type SalaryFieldName, salaryResource } from '@app/shared/resources/salary';
import { routeContract } from '../../crud/registerContract.ts';
import { whereCompanyVisible } from './companies.ts';
import { assertNotFutureMonth, fieldError } from './months.ts';
import { salaryColumn } from './salaryStore.ts';

/** `?month=YYYY-MM` of a query string (required, not in the future). */
export function parseMonthQuery(query: unknown, now = Date.now()): string {
  const q = (query && typeof query === 'object' ? query : {}) as Record<string, unknown>;
  const month = typeof q.month === 'string' ? q.month.trim() : '';
  if (!month) throw fieldError('month', { code: 'FIELD_CHOOSE', params: { label: '月份' } });
  if (!isValidMonth(month)) throw fieldError('month', { code: 'MONTH_FORMAT_INVALID' });
  assertNotFutureMonth(month, now);
  return month;
}

/** 用工成本 of the client companies: GET /api/accountsSalary/costSummary?month=YYYY-MM. */
export function registerCostSummary(app: FastifyInstance): void {
  // 用工成本 per client company for a month (issue 10 item 9): 应发, the employer's contributions and their sum, over
  // the companies the caller sees; months not yet calculated count 0 for the figures.
  routeContract(app, salaryCostSummary, async (req) => {
    const month = parseMonthQuery(req.query);
    const sum = (field: SalaryFieldName) => sql<number>`coalesce(sum(${sql.ref(`${salaryResource.table}.${salaryColumn(field)}`)}), 0)`;
    let qb = app.ctx.db
      .selectFrom(salaryResource.table)
      .select([
        `${salaryResource.table}.company_id as companyId`,
        sql<string>`max(${sql.ref(`${salaryResource.table}.company_name`)})`.as('companyName'),
        sql<number>`count(*)`.as('rows'),
        sum('gross').as('gross'),
        sum('employerTotal').as('employerTotal'),
        sum('labourCost').as('labourCost'),
        sql<number>`max(${sql.ref(`${salaryResource.table}.tag`)})`.as('confirmed'),
      ])
      .where(`${salaryResource.table}.month`, '=', month)
      .groupBy(`${salaryResource.table}.company_id`)
      .orderBy(`${salaryResource.table}.company_id`);
    qb = await whereCompanyVisible(app, req, qb, `${salaryResource.table}.company_id`);
    const rows = (await qb.execute()) as Record<string, unknown>[];
    const companies = rows.map((r) => ({
      companyId: Number(r.companyId),
      companyName: String(r.companyName ?? ''),
      rows: Number(r.rows),
      gross: fenToYuan(Number(r.gross)),
      employerTotal: fenToYuan(Number(r.employerTotal)),
      labourCost: fenToYuan(Number(r.labourCost)),
      confirmed: Number(r.confirmed) === 1,
    }));
    const total = (k: 'gross' | 'employerTotal' | 'labourCost') => fenToYuan(rows.reduce((a, r) => a + Number(r[k]), 0));
    return { month, companies, total: { rows: companies.reduce((a, c) => a + c.rows, 0), gross: total('gross'), employerTotal: total('employerTotal'), labourCost: total('labourCost') } };
  });
}
