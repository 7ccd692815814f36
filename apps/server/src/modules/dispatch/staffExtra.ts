import type { FastifyInstance } from 'fastify';
import { staffExtraResource } from '@app/shared/resources/staffExtra';
import { type RegisteredResource, registerResource } from '../../crud/registerResource.ts';
import { checkStaffExtra } from '../payroll/inputRules.ts';
import { scopeByCompany } from './lookups.ts';

/**
 * Monthly overtime pay and deductions of staff. Rows with a company are visible within the caller's data
 * scope (through the company) and take the company's name; rows without one (older data) only to unrestricted
 * users. A write names a staff record of the company and an amount (checkStaffExtra, finding U7).
 */
export function registerStaffExtra(app: FastifyInstance): RegisteredResource {
  return registerResource(app, staffExtraResource, {
    scope: (req, qb) => scopeByCompany(app, req, qb, 'accounts_staff_extra.staff_company_id'),
    beforeWrite: (values, { req, db, existing }) => checkStaffExtra(app, req, db, values, existing),
  });
}
