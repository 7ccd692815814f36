import type { FastifyInstance } from 'fastify';
import { HR_RECORD_RESOURCES, lacksIdentity } from '@app/shared/resources/hrRecords';
import { AppError } from '../../core/errors.ts';
import type { WriteContext } from '../../crud/registerResource.ts';
import { registerExcelRoutes } from '../../crud/excel.ts';
import { registerResource } from '../../crud/registerResource.ts';
import { registerCompany } from './company.ts';
import { registerContractReminders } from './contractReminders.ts';
import { registerStaff, staffExcelOptions } from './staff.ts';
import { registerStaffAccounts } from './staffAccounts.ts';
import { registerStaffExtra } from './staffExtra.ts';

/** Dispatch business: companies, staff, contracts, HR records, Excel import/export. */
export async function registerDispatch(app: FastifyInstance): Promise<void> {
  // the per-request lookup memo of lookups.ts: a request property of this area only (its routes are the callers)
  app.decorateRequest('lookupMemo', null);
  const company = registerCompany(app);
  const staff = registerStaff(app);
  registerStaffExtra(app);
  // HR records are plain resources; a row must name somebody (姓名 or 身份证号, findings W6).
  for (const def of HR_RECORD_RESOURCES) registerResource(app, def, { beforeWrite: refuseBlankHrRecord(def.name) });
  registerContractReminders(app, staff);
  registerStaffAccounts(app, staff);
  registerExcelRoutes(app, company, {
    templateOptions: async () => ({ dispatchCompany: (await dispatchCompanyLabels(app)) ?? [] }),
    templateHints: { dispatchCompany: '填写派遣单位字典中的名称' },
  });
  registerExcelRoutes(app, staff, staffExcelOptions(app, company));
}

/** 400 '请至少填写姓名或身份证号' (on both fields) for an HR record that names nobody, after an update too. */
function refuseBlankHrRecord(resource: string) {
  return (values: Record<string, unknown>, ctx: WriteContext): void => {
    const row = ctx.mode === 'update' ? { ...ctx.existing, ...values } : values;
    if (!lacksIdentity(resource, row)) return;
    throw new AppError('NAME_OR_ID_CARD_REQUIRED', {}, { name: { code: 'NAME_OR_ID_CARD_REQUIRED' }, idCard: { code: 'NAME_OR_ID_CARD_REQUIRED' } });
  };
}

async function dispatchCompanyLabels(app: FastifyInstance): Promise<string[]> {
  const rows = await app.ctx.db
    .selectFrom('sys_dict_detail as d')
    .innerJoin('sys_dict as t', 't.id', 'd.dict_id')
    .select('d.label')
    .where('t.name', '=', 'dispatch_company')
    .orderBy('d.sort')
    .execute();
  return rows.map((r) => String(r.label));
}
