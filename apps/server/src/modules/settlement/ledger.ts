import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReceivableRow, SettlementState } from '@app/shared/contracts/settlement';
import { fenToYuan } from '@app/shared/payroll/money';
import { whereCompanyVisible } from '../payroll/companies.ts';
import { STATEMENTS } from './store.ts';

/**
 * 应收台账 (issue 22 item 5): per client company and month, from the current version of each statement, 应收 (本期应收),
 * 实收 (receipts), 本月欠 (+) / 挂 (−) and 累计欠款 (the running sum, which is what the next statement brings forward).
 * Newest month first per company.
 */
export async function receivablesOf(app: FastifyInstance, req: FastifyRequest, companyId?: number): Promise<ReceivableRow[]> {
  let qb = app.ctx.db.selectFrom(STATEMENTS);
  qb = await whereCompanyVisible(app, req, qb, `${STATEMENTS}.company_id`);
  if (companyId) qb = qb.where('company_id', '=', companyId);
  const rows = (await qb
    .select(['id', 'company_id', 'company_name', 'month', 'version', 'state', 'current_due', 'received'])
    .where('superseded', '=', 0)
    .orderBy('company_id')
    .orderBy('month')
    .execute()) as Record<string, unknown>[];
  const out: ReceivableRow[] = [];
  let company = -1;
  let cumulative = 0;
  let block: ReceivableRow[] = [];
  const flush = () => out.push(...block.reverse());
  for (const r of rows) {
    if (Number(r.company_id) !== company) {
      flush();
      block = [];
      company = Number(r.company_id);
      cumulative = 0;
    }
    const due = Number(r.current_due);
    const received = Number(r.received);
    cumulative += due - received;
    block.push({
      companyId: company,
      companyName: (r.company_name as string | null) ?? null,
      month: String(r.month),
      settlementId: Number(r.id),
      version: Number(r.version),
      state: String(r.state) as SettlementState,
      due: fenToYuan(due),
      received: fenToYuan(received),
      balance: fenToYuan(due - received),
      cumulative: fenToYuan(cumulative),
    });
  }
  flush();
  return out;
}
