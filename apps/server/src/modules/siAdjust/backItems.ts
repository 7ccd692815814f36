import type { SalaryFieldName } from '@app/shared/resources/salary';
import type { Db } from '../../core/db.ts';
import type { StoredSalaryRow } from '../payroll/salaryStore.ts';

/**
 * 补差 items (issue 24 items 2 and 4): what a base adjustment or an accepted 平账 difference owes for an earlier,
 * confirmed month, placed into a later open month (`target_month`). A confirmed month is never rewritten: its
 * correction is an item of the month it is paid in, like 上月应扣未扣 (payroll/arrears.ts).
 *
 * The calculation of the target month adds up a person's items at the client company (all insurances, all months
 * they refer to) into the row's 补缴社保个人 / 补缴社保单位. A person with items but no row in the target month keeps
 * them waiting there: the items stay listed on the 调基 screen and count again when the row is generated.
 */

export const INSURANCES = ['yanglao', 'yiliao', 'shiye', 'gongshang', 'shengyu', 'gongjijin'] as const;
export type Insurance = (typeof INSURANCES)[number];

/** A salary row's own figure per insurance and side (null: that side has none), as 调基 and 平账 both compare them. */
export const STORED_FIGURES: Record<Insurance, { self: SalaryFieldName | null; company: SalaryFieldName }> = {
  yanglao: { self: 'yanglao', company: 'employerYanglao' },
  yiliao: { self: 'yiliao', company: 'employerYiliao' },
  shiye: { self: 'shiye', company: 'employerShiye' },
  gongshang: { self: null, company: 'employerGongshang' },
  shengyu: { self: null, company: 'employerShengyu' },
  gongjijin: { self: 'gongjijin', company: 'employerGongjijin' },
};

export const BACK_ITEMS = 'accounts_si_back_item';

const personKey = (companyId: number, idCard: string) => `${companyId}\u0000${idCard.trim().toUpperCase()}`;

/** Sets the 补差 due this month on the unconfirmed rows about to be calculated (one read). */
export async function applyBackItems(db: Db, month: string, rows: StoredSalaryRow[]): Promise<void> {
  const open = rows.filter((r) => r.tag !== 1);
  if (!open.length) return;
  const companyIds = [...new Set(open.map((r) => Number(r.companyId)))];
  const items = await db
    .selectFrom(BACK_ITEMS)
    .select(['company_id', 'id_card', 'amount_self', 'amount_company'])
    .where('target_month', '=', month)
    .where('company_id', 'in', companyIds)
    .execute();
  const due = new Map<string, { self: number; company: number }>();
  for (const i of items) {
    const k = personKey(Number(i.company_id), String(i.id_card));
    const d = due.get(k) ?? { self: 0, company: 0 };
    d.self += Number(i.amount_self);
    d.company += Number(i.amount_company);
    due.set(k, d);
  }
  // one person with two rows at the same company in a month (a hand-added one beside another) pays it once
  const taken = new Set<string>();
  for (const r of open) {
    const k = personKey(Number(r.companyId), r.idCard);
    const d = taken.has(k) ? undefined : due.get(k);
    taken.add(k);
    r.siBackSelfDue = d?.self ?? 0;
    r.siBackCompanyDue = d?.company ?? 0;
  }
}
