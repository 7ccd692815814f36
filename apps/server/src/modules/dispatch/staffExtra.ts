import type { FastifyInstance } from 'fastify';
import { staffExtraResource } from '@app/shared/resources/staffExtra';
import { validationError } from '../../core/errors.ts';
import { type RegisteredResource, registerResource } from '../../crud/registerResource.ts';
import { companyInScope, scopeByCompany } from './lookups.ts';

/**
 * Monthly overtime pay and deductions of staff. Rows with a company are visible within the caller's data
 * scope (through the company) and take the company's name; rows without one only to unrestricted users.
 */
export function registerStaffExtra(app: FastifyInstance): RegisteredResource {
  return registerResource(app, staffExtraResource, {
    scope: (req, qb) => scopeByCompany(app, req, qb, 'accounts_staff_extra.staff_company_id'),
    beforeWrite: async (values, { req, db }) => {
      if (values.staffCompanyId === undefined || values.staffCompanyId === null) return;
      const company = await companyInScope(app, req, values.staffCompanyId as number, db);
      if (!company) throw validationError({ staffCompanyId: '单位不存在或无权访问' });
      values.staffCompany = company.companyName;
    },
  });
}
