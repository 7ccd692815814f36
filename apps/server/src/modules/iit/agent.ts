import type { FastifyRequest } from 'fastify';
import { isLabour } from '@app/shared/payroll';
import type { Db } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { requestDeptScope, whereDeptInScope } from '../../core/rbac.ts';
import { dispatchAgents } from '../payroll/inputMatching.ts';

/**
 * The withholding agent (扣缴义务人) of an IIT request: a label of the `dispatch_company` dictionary, as company rows
 * store it (payroll's inputMatching.ts reads it the same way). A declaration covers every client company of the
 * agent, so a caller limited to some departments is refused unless all of them are in scope: a partial workbook
 * would be a wrong declaration, and reading the companies outside the scope a leak.
 */
export interface AgentScope {
  agent: string;
  companies: { id: number; name: string }[];
}

export async function resolveAgent(req: FastifyRequest, db: Db, raw: string): Promise<AgentScope> {
  const agent = raw.trim();
  if (!agent) throw new AppError('IIT_AGENT_REQUIRED');
  if (!(await dispatchAgents(db)).has(agent)) throw new AppError('IIT_AGENT_UNKNOWN', { agent });
  const all = await db.selectFrom('accounts_company').select(['id', 'company_name', 'dept_id']).where('dispatch_company', '=', agent).orderBy('id').execute();
  const scope = await requestDeptScope(req, db);
  if (scope !== null && all.length) {
    const visible = await whereDeptInScope(db.selectFrom('accounts_company').select('id').where('dispatch_company', '=', agent), 'accounts_company.dept_id', scope).execute();
    if (visible.length !== all.length) throw new AppError('IIT_AGENT_NOT_VISIBLE', { agent });
  }
  return { agent, companies: all.map((c) => ({ id: Number(c.id), name: String(c.company_name) })) };
}

/** One confirmed wage row of the agent's month, as the declaration and the reconciliation read it. */
export interface WageRow {
  companyId: number;
  staffName: string;
  idCard: string;
  gross: number;
  yanglao: number;
  yiliao: number;
  shiye: number;
  gongjijin: number;
  otherDeduct: number;
  tax: number;
  bonus: number;
  bonusMerged: boolean;
}

const fen = (v: unknown) => (v === null || v === undefined || v === '' ? 0 : Number(v));
export const normId = (s: unknown) => String(s ?? '').replace(/\s/g, '').toUpperCase();

/**
 * The confirmed 工资薪金 rows of the agent's client companies for the months given (劳务报酬 rows are declared on
 * another ITS form). `requireAll`: a company with rows in one of the months that is not confirmed refuses the
 * request with the companies named, since ITS takes one declaration per agent and month.
 */
export async function confirmedWageRows(db: Db, scope: AgentScope, months: string[], requireAll: boolean): Promise<WageRow[]> {
  const ids = scope.companies.map((c) => c.id);
  if (!ids.length) return [];
  const confirmed = await db.selectFrom('accounts_confirm_log').select(['company_id', 'month']).where('company_id', 'in', ids).where('month', 'in', months).execute();
  const done = new Set(confirmed.map((c) => `${Number(c.company_id)}|${c.month}`));
  if (requireAll) {
    const present = await db.selectFrom('accounts_salary').select(['company_id', 'month']).distinct().where('company_id', 'in', ids).where('month', 'in', months).execute();
    const open = present.filter((p) => !done.has(`${Number(p.company_id)}|${p.month}`));
    if (open.length) {
      const names = [...new Set(open.map((o) => scope.companies.find((c) => c.id === Number(o.company_id))?.name ?? String(o.company_id)))];
      throw new AppError('IIT_MONTH_NOT_CONFIRMED', { month: { list: months, joiner: 'enumeration' }, companies: { list: names, joiner: 'enumeration' } });
    }
  }
  const rows = await db
    .selectFrom('accounts_salary')
    .select(['company_id', 'month', 'staff_name', 'id_card', 'taxes_type', 'gross', 'yanglao', 'yiliao', 'shiye', 'gongjijin', 'other_deduct', 'tax', 'bonus', 'bonus_merged', 'si_back_self'])
    .where('company_id', 'in', ids)
    .where('month', 'in', months)
    .where('tag', '=', 1)
    .orderBy('id')
    .execute();
  const backPay = rows.some((r) => fen(r.si_back_self) !== 0) ? await personalBackPay(db, ids, months) : new Map<string, Record<string, number>>();
  return rows
    .filter((r) => done.has(`${Number(r.company_id)}|${r.month}`) && !isLabour(r.taxes_type) && normId(r.id_card))
    .map((r) => {
      // 补缴社保个人 withheld this month (issue 24, modules/siAdjust) is part of the month's 专项扣除: declared in its
      // insurance's column, on the row that carried it
      const key = `${Number(r.company_id)}|${r.month}|${normId(r.id_card)}`;
      const back = fen(r.si_back_self) !== 0 ? backPay.get(key) : undefined;
      if (back) backPay.delete(key);
      return { r, back: back ?? {} };
    })
    .map(({ r, back }) => ({
      companyId: Number(r.company_id),
      staffName: String(r.staff_name ?? ''),
      idCard: normId(r.id_card),
      gross: fen(r.gross),
      yanglao: fen(r.yanglao) + (back.yanglao ?? 0),
      yiliao: fen(r.yiliao) + (back.yiliao ?? 0),
      shiye: fen(r.shiye) + (back.shiye ?? 0),
      gongjijin: fen(r.gongjijin) + (back.gongjijin ?? 0),
      otherDeduct: fen(r.other_deduct),
      tax: fen(r.tax),
      bonus: fen(r.bonus),
      bonusMerged: Number(r.bonus_merged) === 1,
    }));
}

/** The personal 补差 placed into the months, per company, month and person, by insurance (fen). */
async function personalBackPay(db: Db, companyIds: number[], months: string[]): Promise<Map<string, Record<string, number>>> {
  const items = await db
    .selectFrom('accounts_si_back_item')
    .select(['company_id', 'target_month', 'id_card', 'insurance', 'amount_self'])
    .where('company_id', 'in', companyIds)
    .where('target_month', 'in', months)
    .execute();
  const out = new Map<string, Record<string, number>>();
  for (const i of items) {
    const key = `${Number(i.company_id)}|${i.target_month}|${normId(i.id_card)}`;
    const m = out.get(key) ?? {};
    m[i.insurance] = (m[i.insurance] ?? 0) + Number(i.amount_self);
    out.set(key, m);
  }
  return out;
}

/** 1234567 fen → "12345.67": two decimals, no thousands separator, exact (no float on the way). */
export function fenText(f: number): string {
  const neg = f < 0;
  const a = Math.abs(Math.trunc(f));
  return `${neg ? '-' : ''}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}
