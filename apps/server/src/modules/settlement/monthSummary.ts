import type { FastifyInstance } from 'fastify';
import { getSettlementMonthSummary } from '@app/shared/contracts/settlement';
import { fenToYuan } from '@app/shared/payroll/money';
import { sql } from 'kysely';
import { routeContract } from '../../crud/registerContract.ts';
import type { AnySelect } from '../../crud/registerResource.ts';
import { chinaToday } from '../dispatch/lookups.ts';
import { whereCompanyVisible } from '../payroll/companies.ts';
import { STATEMENTS } from './store.ts';

/**
 * 首页's month close (issue 22): for a month (default the current one, China time) the statements still to make,
 * send, have confirmed or reopen, and the invoiced receivables not yet paid, all within the caller's data scope.
 * Four small queries, whatever the number of companies.
 */
export function registerSettlementMonthSummary(app: FastifyInstance): void {
  const { db } = app.ctx;
  routeContract(app, getSettlementMonthSummary, async (req) => {
    const month = req.query.month ?? chinaToday().slice(0, 7);
    const visible = async (qb: unknown, column: string) => whereCompanyVisible(app, req, qb as AnySelect, column);

    const current = await visible(db.selectFrom(STATEMENTS).where('month', '=', month).where('superseded', '=', 0), 'company_id');
    const byState = (await current
      .select(['state', sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(case when needs_reopen = 1 then 1 else 0 end), 0)`.as('reopen')])
      .groupBy('state')
      .execute()) as { state: string; n: unknown; reopen: unknown }[];
    const count = (state: string) => Number(byState.find((r) => r.state === state)?.n ?? 0);
    const needsReopen = byState.reduce((a, r) => a + Number(r.reopen ?? 0), 0);

    // confirmed salary months of the month without a (current) statement
    const confirmed = await visible(db.selectFrom('accounts_confirm_log as l').where('l.month', '=', month), 'l.company_id');
    const toGenerateRow = await confirmed
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom(`${STATEMENTS} as s`)
              .select('s.id')
              .whereRef('s.company_id', '=', 'l.company_id')
              .where('s.month', '=', month)
              .where('s.superseded', '=', 0),
          ),
        ),
      )
      .select(sql<number>`count(distinct l.company_id)`.as('n'))
      .executeTakeFirst();

    // the ledger's way: 应收 of the invoiced statements less what came in, over every month
    const invoiced = await visible(db.selectFrom(STATEMENTS).where('superseded', '=', 0).where('state', 'in', ['INVOICED', 'PARTIAL', 'SETTLED']), 'company_id');
    const perCompany = (await invoiced
      .select(['company_id', sql<number>`coalesce(sum(current_due), 0)`.as('due'), sql<number>`coalesce(sum(received), 0)`.as('received')])
      .groupBy('company_id')
      .execute()) as { due: unknown; received: unknown }[];
    const balances = perCompany.map((r) => Number(r.due ?? 0) - Number(r.received ?? 0));
    return {
      month,
      toGenerate: Number((toGenerateRow as { n?: unknown } | undefined)?.n ?? 0),
      toSend: count('DRAFT'),
      awaitingConfirmation: count('SENT'),
      disputed: count('DISPUTED'),
      needsReopen,
      unpaid: balances.filter((b) => b > 0).length,
      unpaidAmount: fenToYuan(balances.reduce((a, b) => a + b, 0)),
    };
  });
}
