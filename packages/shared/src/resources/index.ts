import type { ResourceDef } from '../resource/types.ts';
import { dictDetailResource, dictResource } from './dict.ts';
// system resources (platform):
import { deptResource } from './dept.ts';
import { jobResource } from './job.ts';
import { logResource } from './log.ts';
import { menuResource } from './menu.ts';
import { permissionResource } from './permission.ts';
import { roleResource } from './role.ts';
import { userResource } from './user.ts';
// -- system resources end
// dispatch business resources:
import { companyResource } from './company.ts';
import { HR_RECORD_RESOURCES } from './hrRecords.ts';
import { staffResource } from './staff.ts';
import { staffExtraResource } from './staffExtra.ts';
// -- dispatch resources end
// payroll resources:
import { payslipResource } from './payslip.ts';
import { salaryResource } from './salary.ts';
import { taxDeductionResource } from './taxDeduction.ts';
import { taxDeductionCapResource } from './taxDeductionCap.ts';
import { taxOpeningResource } from './taxOpening.ts';
import { settlementTermsResource, vatRegimeResource } from './settlementTerms.ts';
import { bankTemplateResource } from './bankTemplate.ts';
import { siChangeTemplateResource } from './siChangeTemplate.ts';
// -- payroll resources end

/**
 * Every resource definition, as a typed tuple: the literal table and field names survive, so the server's
 * database type (`Kysely<DB>`, apps/server/src/core/dbTypes.ts) is built from this same list. A new resource is
 * listed here (beside its migration); nothing else lists definitions.
 */
export const RESOURCE_DEFINITIONS = [
  dictResource,
  dictDetailResource,
  // system resources list
  userResource,
  roleResource,
  deptResource,
  jobResource,
  menuResource,
  permissionResource,
  logResource,
  // -- system resources list end
  // dispatch resources list
  companyResource,
  staffResource,
  staffExtraResource,
  ...HR_RECORD_RESOURCES,
  // -- dispatch resources list end
  // payroll resources list
  salaryResource,
  payslipResource,
  taxOpeningResource,
  taxDeductionResource,
  taxDeductionCapResource,
  settlementTermsResource,
  vatRegimeResource,
  bankTemplateResource,
  siChangeTemplateResource,
] as const;

/** Every resource definition by API name; the web app's generic pages and the server's Excel routes read it. */
export const RESOURCES: Record<string, ResourceDef> = Object.fromEntries(RESOURCE_DEFINITIONS.map((d) => [d.name, d]));
