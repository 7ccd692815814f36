import type { FastifyInstance } from 'fastify';
import { HR_RECORD_RESOURCES } from '@app/shared/resources/hrRecords';
import { registerExcelRoutes } from '../../crud/excel.ts';
import { registerResource } from '../../crud/registerResource.ts';
import { registerCompany } from './company.ts';
import { registerContractReminders } from './contractReminders.ts';
import { registerStaff, staffExcelOptions } from './staff.ts';
import { registerStaffExtra } from './staffExtra.ts';

/** Dispatch business: companies, staff, contracts, HR records, Excel import/export. */
export async function registerDispatch(app: FastifyInstance): Promise<void> {
  const company = registerCompany(app);
  const staff = registerStaff(app);
  registerStaffExtra(app);
  // HR records are plain resources: the definition says everything.
  for (const def of HR_RECORD_RESOURCES) registerResource(app, def);
  registerContractReminders(app, staff);
  registerExcelRoutes(app, company, {
    templateOptions: async () => ({ dispatchCompany: (await dispatchCompanyLabels(app)) ?? [] }),
    templateHints: { dispatchCompany: '填写派遣单位字典中的名称' },
  });
  registerExcelRoutes(app, staff, staffExcelOptions(app, company));
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
