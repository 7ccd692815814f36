import type { FastifyInstance } from 'fastify';
import { listContractReminders, runContractReminders } from '@app/shared/contracts/staffAccounts';
import { staffResource } from '@app/shared/resources/staff';
import type { Db } from '../../core/db.ts';
import { nowIso } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { routeContract } from '../../crud/registerContract.ts';
import type { RegisteredResource } from '../../crud/registerResource.ts';
import { parsePaging, sortableColumns } from '../../crud/listQuery.ts';
import { rowToApi } from '../../crud/rowMapping.ts';
import { chinaToday } from './lookups.ts';
import { countOf } from '../../crud/pagedQuery.ts';

export const REMINDED = '已提醒';
export const NOT_REMINDED = '未提醒';
export const EXPIRED = '已到期';
/** Contract states the expiry marking leaves alone. */
const FINAL_CONTRACT_STATES = [EXPIRED, '已解除'];

export interface ContractReminderCounts {
  /** Staff whose reminder date has come and who are now marked 已提醒. */
  reminded: number;
  /** Staff whose contract ended before today and is now 已到期. */
  expired: number;
}

/**
 * Mark contract reminders for `today` (YYYY-MM-DD, China): reminder date reached and not yet reminded ->
 * 已提醒; contract end before today -> contract state 已到期 (terminated contracts excepted). Idempotent:
 * a second run the same day changes nothing. Writes one operation-log row with the counts.
 */
export async function markContractReminders(db: Db, today: string): Promise<ContractReminderCounts> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new RangeError(`today must be YYYY-MM-DD, got ${today}`);
  const started = Date.now();
  const now = nowIso();
  const counts = await db.transaction().execute(async (trx) => {
    const reminded = await trx
      .updateTable('accounts_staff')
      .set({ contract_warn_state: REMINDED, update_time: now })
      .where('contract_warn', '<=', today)
      .where((eb) => eb.or([eb('contract_warn_state', 'is', null), eb('contract_warn_state', '!=', REMINDED)]))
      .executeTakeFirst();
    const expired = await trx
      .updateTable('accounts_staff')
      .set({ contract_state: EXPIRED, update_time: now })
      .where('contract_end', '<', today)
      .where((eb) => eb.or([eb('contract_state', 'is', null), eb('contract_state', 'not in', FINAL_CONTRACT_STATES)]))
      .executeTakeFirst();
    return { reminded: Number(reminded.numUpdatedRows), expired: Number(expired.numUpdatedRows) };
  });
  await db
    .insertInto('sys_log')
    .values({
      log_type: 'INFO',
      username: 'system',
      description: '合同到期提醒',
      method: 'job contractReminders',
      params: JSON.stringify({ today, ...counts }),
      request_ip: null,
      browser: null,
      time: Date.now() - started,
      exception_detail: null,
      create_time: now,
    })
    .execute();
  return counts;
}

/**
 * Routes:
 * - `POST /api/accountsStaff/contractReminders/run` (ACCOUNTSSTAFF_ALL or _EDIT) runs the marking now;
 * - `GET /api/accountsStaff/contractReminders?companyId=` lists reminded staff (已提醒) for the dashboard,
 *   paged like any list, soonest contract end first, within the caller's data scope;
 * The daily run is the system job 合同到期提醒 (handler `contractReminderTask.refresh`, seeded at 01:00
 * Asia/Shanghai by modules/jobs): the scheduler fires it once across instances and logs each run.
 */
export function registerContractReminders(app: FastifyInstance, staff: RegisteredResource): void {
  routeContract(app, runContractReminders, async () => markContractReminders(app.ctx.db, chinaToday()));

  const sortable = sortableColumns(staffResource);
  routeContract(app, listContractReminders, async (req) => {
    const query: Record<string, unknown> = { ...req.query };
    if (query.contractWarnState !== undefined && query.contractWarnState !== REMINDED) throw new AppError('CONTRACT_REMINDER_LIST_REMINDED_ONLY');
    query.contractWarnState = REMINDED;
    const paging = parsePaging(query, sortable, [['contractEnd', 'asc']]);
    const filtered = await staff.listQuery(req, query);
    const totalElements = await countOf(filtered);
    let qb = filtered.selectAll('accounts_staff');
    for (const [c, d] of paging.sort) qb = qb.orderBy(`accounts_staff.${c}`, d);
    const rows = totalElements ? await qb.limit(paging.size).offset(paging.page * paging.size).execute() : [];
    const content = rows.map((r) => rowToApi(staffResource, r as Record<string, unknown>));
    if (staff.hooks.decorate && content.length) await staff.hooks.decorate(content, req);
    return { content, totalElements };
  });

}
