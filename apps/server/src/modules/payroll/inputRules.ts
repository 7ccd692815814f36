import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorCode, ErrorParams } from '@app/shared/errors/catalogue';
import type { Db } from '../../core/db.ts';
import { validationError } from '../../core/errors.ts';
import { companyInScope, perRequest, scopeCompanies } from '../dispatch/lookups.ts';
import type { AnySelect } from '../../crud/registerResource.ts';
import { dispatchAgents } from './inputMatching.ts';

/**
 * Write rules that keep payroll inputs attached to a salary row (findings U1, U7): the withholding agent of a
 * 专项附加扣除 / 期初累计数据 row is a `dispatch_company` entry and the person is staff of one of its client
 * companies; a 员工加班扣款 row names a staff record of its company and carries an amount. Refusals are per field
 * (catalogue codes), so the form marks the field and an import reports the row.
 */

/** A field error in the catalogue's Chinese text (the error handler gives it its code and translations). */
export function fieldRefusal(field: string, code: ErrorCode, params: ErrorParams = {}) {
  return validationError({ [field]: { code, params } });
}

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const normalCard = (v: unknown) => String(v ?? '').trim().toUpperCase();

/** The withholding agents, once per request (an import checks every row against the same set). */
export function agentsOf(req: FastifyRequest, db: Db): Promise<Set<string>> {
  return perRequest(req, 'payroll:dispatchAgents', () => dispatchAgents(db));
}

/**
 * 专项附加扣除 / 期初累计数据: the agent is a dispatch company and the ID card belongs to staff of one of its client
 * companies; the name is taken from that staff record (the screen fills it from the picker, an import may omit it).
 */
export async function checkAgentAndPerson(req: FastifyRequest, db: Db, values: Record<string, unknown>, existing?: Record<string, unknown>): Promise<void> {
  const merged = { ...existing, ...values };
  const agent = String(merged.dispatchCompany ?? '').trim();
  if (!(await agentsOf(req, db)).has(agent)) throw fieldRefusal('dispatchCompany', 'TAX_INPUT_AGENT_UNKNOWN', { agent });
  const idCard = normalCard(merged.idCard);
  const staff = await db
    .selectFrom('accounts_staff as s')
    .innerJoin('accounts_company as c', 'c.id', 's.company_id')
    .select(['s.staff_name', 'c.dispatch_company'])
    .where('s.id_card', '=', idCard)
    .orderBy('s.id')
    .execute();
  if (staff.length === 0) throw fieldRefusal('idCard', 'TAX_INPUT_STAFF_UNKNOWN', { idCard });
  const here = staff.find((s) => s.dispatch_company === agent);
  if (!here) throw fieldRefusal('idCard', 'TAX_INPUT_STAFF_NOT_AT_AGENT', { idCard, agent });
  values.dispatchCompany = agent;
  values.staffName = here.staff_name;
}

/**
 * 员工加班扣款: an amount (加班费 or 扣款), and a staff record of the row's company with the ID card. The company is
 * the staff record's (the picker gives both; without a company the ID card must identify one staff record in the
 * caller's scope); name, company name and an empty phone come from the records.
 */
export async function checkStaffExtra(app: FastifyInstance, req: FastifyRequest, db: Db, values: Record<string, unknown>, existing?: Record<string, unknown>): Promise<void> {
  const merged = { ...existing, ...values };
  if (isBlank(merged.jiaban) && isBlank(merged.koukuan)) throw fieldRefusal('jiaban', 'STAFF_EXTRA_EMPTY');
  const idCard = normalCard(merged.staffIdCard);
  const companyId = isBlank(merged.staffCompanyId) ? null : Number(merged.staffCompanyId);
  let staff: { staff_name: string | null; phone: string | null; company_id: number | null; company_name: string | null } | undefined;
  if (companyId !== null) {
    const company = await companyInScope(app, req, companyId, db);
    if (!company) throw validationError({ staffCompanyId: { code: 'RECORD_NOT_FOUND', params: { resource: '单位' } } });
    staff = await db
      .selectFrom('accounts_staff as s')
      .innerJoin('accounts_company as c', 'c.id', 's.company_id')
      .select(['s.staff_name', 's.phone', 's.company_id', 'c.company_name'])
      .where('s.company_id', '=', companyId)
      .where('s.id_card', '=', idCard)
      .executeTakeFirst();
    if (!staff) {
      const elsewhere = await db.selectFrom('accounts_staff').select('id').where('id_card', '=', idCard).limit(1).executeTakeFirst();
      if (!elsewhere) throw fieldRefusal('staffIdCard', 'TAX_INPUT_STAFF_UNKNOWN', { idCard });
      throw fieldRefusal('staffIdCard', 'STAFF_EXTRA_STAFF_NOT_AT_COMPANY', { company: String(company.companyName ?? ''), idCard });
    }
  } else {
    const qb = db
      .selectFrom('accounts_staff as s')
      .innerJoin('accounts_company as c', 'c.id', 's.company_id')
      .select(['s.staff_name', 's.phone', 's.company_id', 'c.company_name'])
      .where('s.id_card', '=', idCard);
    const found = (await (await scopeCompanies(app, req, qb as unknown as AnySelect, 'c.dept_id')).execute()) as unknown as NonNullable<typeof staff>[];
    if (found.length === 0) throw fieldRefusal('staffIdCard', 'TAX_INPUT_STAFF_UNKNOWN', { idCard });
    if (found.length > 1) throw fieldRefusal('staffCompanyId', 'STAFF_EXTRA_COMPANY_AMBIGUOUS', { idCard, count: found.length });
    staff = found[0];
  }
  values.staffIdCard = idCard;
  values.staffCompanyId = Number(staff.company_id);
  values.staffCompany = staff.company_name;
  values.staffName = staff.staff_name;
  if (isBlank(merged.phone) && staff.phone) values.phone = staff.phone;
}
