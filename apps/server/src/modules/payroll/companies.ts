import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PRORATION_RULES, type ProrationRule } from '@app/shared/payroll';
import { companyResource } from '@app/shared/resources/company';
import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import type { AnySelect } from '../../crud/registerResource.ts';
import { scopeByCompany, scopeCompanies } from '../dispatch/lookups.ts';
import { fieldColumn } from './salaryStore.ts';
import { refAs } from '../../core/selectAs.ts';

/** The client company a salary month belongs to, checked against the caller's data scope. */
export interface CompanyRef {
  id: number;
  companyName: string;
  /** The withholding entity (派遣单位 label), null when not set. */
  dispatchCompany: string | null;
  /** How joiners' and leavers' part months are paid. */
  prorationRule: ProrationRule;
}

const C = (name: string) => `${companyResource.table}.${fieldColumn(companyResource, name)}`;

/** Loads a company the caller may see (the dispatch module's data-scope rule), or 404. */
export async function loadVisibleCompany(app: FastifyInstance, req: FastifyRequest, db: Db, companyId: number): Promise<CompanyRef> {
  const qb = db
    .selectFrom(companyResource.table)
    .select([refAs(C('id'), 'id'), refAs(C('companyName'), 'companyName'), refAs(C('dispatchCompany'), 'dispatchCompany'), refAs(C('prorationRule'), 'prorationRule')])
    .where(C('id'), '=', companyId);
  const row = (await (await scopeCompanies(app, req, qb, C('deptId'))).executeTakeFirst()) as
    | { id: number; companyName: string; dispatchCompany: string | null; prorationRule: string | null }
    | undefined;
  if (!row) throw new AppError('RECORD_NOT_FOUND', { resource: '单位' });
  const dispatchCompany = typeof row.dispatchCompany === 'string' && row.dispatchCompany.trim() ? row.dispatchCompany.trim() : null;
  const prorationRule = PRORATION_RULES.find((r) => r === row.prorationRule) ?? 'calendar';
  return { id: Number(row.id), companyName: row.companyName, dispatchCompany, prorationRule };
}

/**
 * Restricts a query on a table with a company id column to the companies in the caller's data scope. Typed by the
 * caller's query: the scope adds only a WHERE, so the tables and the row it selects are the caller's.
 */
export function whereCompanyVisible<QB extends SelectQueryBuilder<any, any, any>>(app: FastifyInstance, req: FastifyRequest, qb: QB, companyIdColumn: string): Promise<QB> {
  // scopeByCompany works on the untyped view (AnySelect) of the same builder and hands it back with one WHERE more
  return scopeByCompany(app, req, qb, companyIdColumn) as Promise<AnySelect> as Promise<QB>;
}
