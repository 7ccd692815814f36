import type { FastifyInstance } from 'fastify';
import { allCompanies, type CompanyRow } from '@app/shared/contracts/staffAccounts';
import { companyResource } from '@app/shared/resources/company';
import { gongshangRatioOf } from '@app/shared/staffDerivations';
import { AppError, validationError } from '../../core/errors.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { type RegisteredResource, registerResource } from '../../crud/registerResource.ts';
import { rowToApi } from '../../crud/rowMapping.ts';
import { checkDictionaryValues, dictEntries, scopeCompanies } from './lookups.ts';
import { countOf } from '../../crud/pagedQuery.ts';

/**
 * Client companies. Rows belong to the creating user's department and are visible within the caller's data
 * scope. The dispatch company must be a `dispatch_company` dictionary label; its work-injury ratio is
 * snapshotted. Renaming a company renames it on its staff. A company with staff cannot be deleted.
 * Lookups: `GET /api/accountsCompany/all` returns every visible company (the list caps `size` at 1000).
 */
export function registerCompany(app: FastifyInstance): RegisteredResource {
  const company = registerResource(app, companyResource, {
    scope: (req, qb) => scopeCompanies(app, req, qb),
    beforeWrite: async (values, { req, db, mode, existing }) => {
      if (mode === 'create') values.deptId = req.user?.deptId ?? null;
      await checkDictionaryValues(req, db, companyResource, values, existing);
      if (values.dispatchCompany !== undefined && values.dispatchCompany !== null) {
        const ratio = gongshangRatioOf(String(values.dispatchCompany), await dictEntries(req, db, 'dispatch_company'));
        const unchanged = existing && existing.dispatchCompany === values.dispatchCompany;
        if (ratio === null && !unchanged) throw validationError({ dispatchCompany: { code: 'DISPATCH_COMPANY_UNKNOWN' } });
        values.gongshangRatioCompany = ratio ?? existing?.gongshangRatioCompany ?? null;
      }
    },
    afterWrite: async (row, { db, mode, existing }) => {
      if (mode !== 'update' || !existing || existing.companyName === row.companyName) return;
      await db.updateTable('accounts_staff').set({ company_name: row.companyName as string | null }).where('company_id', '=', row.id as number).execute();
      await db.updateTable('accounts_staff_extra').set({ staff_company: row.companyName as string | null }).where('staff_company_id', '=', row.id as number).execute();
    },
    beforeDelete: async (ids, { db }) => {
      if ((await countOf(db.selectFrom('accounts_staff').where('company_id', 'in', ids))) > 0) throw new AppError('COMPANY_HAS_STAFF');
    },
  });

  routeContract(app, allCompanies, async (req) => {
    const qb = await scopeCompanies(app, req, app.ctx.db.selectFrom('accounts_company'));
    const rows = await qb.selectAll('accounts_company').orderBy('accounts_company.id', 'desc').execute();
    const content = rows.map((r) => rowToApi(companyResource, r as Record<string, unknown>)) as CompanyRow[];
    return { content, totalElements: content.length };
  });

  return company;
}
