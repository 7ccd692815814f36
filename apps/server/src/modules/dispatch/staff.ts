import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FieldMessage } from '@app/shared/errors/zodIssues';
import { staffResource } from '@app/shared/resources/staff';
import {
  basesFromCompany,
  contractDatesError,
  contractWarnDate,
  fromIdCard,
  RATE_DICTIONARY_RATIO_FIELDS,
  ratiosFromRateDictionary,
  STAFF_BASE_FROM_COMPANY,
} from '@app/shared/staffDerivations';
import { parseIdCard } from '@app/shared/idcard';
import type { Db } from '../../core/db.ts';
import { validationError } from '../../core/errors.ts';
import { type RegisteredResource, registerResource } from '../../crud/registerResource.ts';
import type { ExcelRouteOptions } from '../../crud/excel.ts';
import { checkSimplifiedDeduction } from '../payroll/simplifiedDeduction.ts';
import { checkDictionaryValues, chinaToday, companyInScope, dictEntries, perRequest, scopeByCompany } from './lookups.ts';

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Staff (and, through their contract fields, the contract screens). On every write the server:
 * - checks the company exists within the caller's data scope and copies its name;
 * - derives sex, birth date and age from the ID card (whatever the client sent);
 * - refuses a contract that starts after it ends;
 * - fills the reminder date with contractEnd - 30 days when the client leaves it empty, and resets the
 *   reminder state to 未提醒 when the reminder date moves into the future;
 * - accepts 适用6万元减除 only for a worker the agent employed all of last year at <= 60,000 (simplifiedDeduction.ts).
 * Reads refresh the age from the birth date, so it never goes stale.
 */
export function registerStaff(app: FastifyInstance): RegisteredResource {
  return registerResource(app, staffResource, {
    scope: (req, qb) => scopeByCompany(app, req, qb, 'accounts_staff.company_id'),
    prepareBody: (body) => {
      if (!isBlank(body.contractWarn) || typeof body.contractEnd !== 'string') return body;
      const warn = contractWarnDate(body.contractEnd.trim().slice(0, 10));
      return warn ? { ...body, contractWarn: warn } : body;
    },
    beforeWrite: (values, { req, db, mode, existing }) => applyStaffRules(app, req, db, values, mode, existing),
    decorate: (rows) => {
      const today = chinaToday();
      for (const r of rows) {
        if (typeof r.idCard !== 'string') continue;
        const p = parseIdCard(r.idCard, today);
        if (p.ok) r.age = p.age;
      }
    },
  });
}

/** The staff write rules (API and import). Mutates `values`; throws a 400 with field errors. */
export async function applyStaffRules(
  app: FastifyInstance,
  req: FastifyRequest,
  db: Db,
  values: Record<string, unknown>,
  mode: 'create' | 'update',
  existing?: Record<string, unknown>,
): Promise<void> {
  const merged = { ...existing, ...values };
  if (values.companyId !== undefined && values.companyId !== null) {
    const company = await companyInScope(app, req, values.companyId as number, db);
    if (!company) throw validationError({ companyId: { code: 'RECORD_NOT_FOUND', params: { resource: '所属单位' } } });
    values.companyName = company.companyName;
  }
  if (typeof values.idCard === 'string') {
    const facts = fromIdCard(values.idCard, chinaToday());
    if (facts) Object.assign(values, facts);
  }
  const crossFieldErrors = staffCrossFieldErrors(merged);
  if (Object.keys(crossFieldErrors).length) throw validationError(crossFieldErrors);
  await checkDictionaryValues(req, db, staffResource, values, existing);
  if (mode === 'update' && existing && typeof values.contractWarn === 'string' && values.contractWarn !== existing.contractWarn && values.contractWarn > chinaToday()) {
    values.contractWarnState = '未提醒';
  }
  // 适用6万元减除 only where last year's records qualify (PB3, 国家税务总局公告2020年第19号)
  await checkSimplifiedDeduction(db, values, existing);
}

/** The staff rules between fields (field -> message), on any values: the API's writes and every imported row. */
export function staffCrossFieldErrors(values: Record<string, unknown>): Record<string, FieldMessage> {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const dateError = contractDatesError(text(values.contractStart), text(values.contractEnd));
  return dateError ? { contractStart: dateError } : {};
}

const BASE_FIELDS = Object.keys(STAFF_BASE_FROM_COMPANY);

/**
 * Excel options of the staff sheet: rows may leave out the insurance bases (copied from the company), the
 * ratios (from the census type's rate dictionary, plus the company's work-injury ratio) and the reminder
 * date (contract end - 30 days); `companyId` in the query or form gives the company of rows without one.
 */
export function staffExcelOptions(app: FastifyInstance, company: RegisteredResource): ExcelRouteOptions {
  return {
    importDefaults: ['companyId'],
    importAliases: ['/accounts/api/import/accountsStaff'],
    importRowChecks: staffCrossFieldErrors,
    derivedOnImport: [...BASE_FIELDS, ...RATE_DICTIONARY_RATIO_FIELDS, 'gongshangRatioCompany', 'contractWarn'],
    refSources: { accountsCompany: company },
    templateHints: {
      companyId: '填写单位名称；在单位页面导入时可不填',
      contractWarn: '不填时为合同结束日期前30天',
      gjjBase: '不填时取所属单位的基数',
      gjjRatio: '不填时按户籍类型取费率字典',
    },
    prepareImportRow: async (values, req) => {
      if (typeof values.companyId === 'number') {
        const companyId = values.companyId;
        // derived once per company and census type per import, then copied into each row
        const bases = await perRequest(req, `bases:${companyId}`, async () => {
          const c = await companyInScope(app, req, companyId, app.ctx.db);
          return c ? Object.entries(basesFromCompany(c, await dictEntries(req, app.ctx.db, 'dispatch_company'))) : [];
        });
        fillMissing(values, bases);
      }
      if (typeof values.censusType === 'string') {
        const census = values.censusType;
        const ratios = await perRequest(req, `ratios:${census}`, async () => {
          const censusTypes = await dictEntries(req, app.ctx.db, 'census_type');
          if (!censusTypes.some((e) => e.value === census)) return [];
          return Object.entries(ratiosFromRateDictionary(await dictEntries(req, app.ctx.db, census)));
        });
        fillMissing(values, ratios);
      }
      if (isBlank(values.contractWarn) && typeof values.contractEnd === 'string') {
        const warn = contractWarnDate(values.contractEnd);
        if (warn) values.contractWarn = warn;
      }
    },
  };
}

function fillMissing(values: Record<string, unknown>, derived: [string, unknown][]) {
  for (const [k, v] of derived) if (isBlank(values[k]) && v !== undefined) values[k] = v;
}
