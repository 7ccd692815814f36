import type { FastifyInstance } from 'fastify';
import type { CodedMessage } from '@app/shared/errors/catalogue';
import { PayrollDecimal } from '@app/shared/payroll/money';
import { DISABLED_SHARE_MODES, FEE_MODES, FEE_TAX_MODES, parsePerHeadItems, type SettlementTerms, VAT_REGIMES, type VatRegime } from '@app/shared/payroll/settlement';
import { settlementTermsResource, vatRegimeResource } from '@app/shared/resources/settlementTerms';
import type { Db } from '../../core/db.ts';
import { AppError, validationError } from '../../core/errors.ts';
import { registerResource } from '../../crud/registerResource.ts';
import { dispatchAgents } from '../payroll/inputMatching.ts';
import { whereCompanyVisible } from '../payroll/companies.ts';

/**
 * 结算条款 and 增值税计税方式 (issue 22 items 1-2): plain dated resources with their checks, and the rows in force in
 * a month for the generator. A row applies from its `validFrom` until a later row of the same company (entity).
 */

const refuse = (field: string, message: CodedMessage) => validationError({ [field]: message });

export function registerSettlementTerms(app: FastifyInstance): void {
  registerResource(app, settlementTermsResource, {
    scope: (req, qb) => whereCompanyVisible(app, req, qb, `${settlementTermsResource.table}.company_id`),
    beforeWrite: (values, { existing }) => {
      const merged = { ...existing, ...values };
      const items = parsePerHeadItems(merged.perHeadItems as string | null);
      if ('error' in items) throw refuse('perHeadItems', { code: 'SETTLEMENT_TERMS_ITEMS_INVALID', params: { value: items.error } });
      const union = merged.unionFeeRatio;
      if (union !== undefined && union !== null && union !== '' && !new PayrollDecimal(String(union)).equals(0) && !new PayrollDecimal(String(union)).equals('0.02')) {
        throw refuse('unionFeeRatio', { code: 'SETTLEMENT_TERMS_UNION_RATIO' });
      }
    },
  });
  registerResource(app, vatRegimeResource, {
    beforeWrite: async (values, { db, existing }) => {
      const agent = String(values.dispatchCompany ?? existing?.dispatchCompany ?? '').trim();
      if (!(await dispatchAgents(db)).has(agent)) throw refuse('dispatchCompany', { code: 'VAT_REGIME_AGENT_UNKNOWN', params: { agent } });
      values.dispatchCompany = agent;
    },
  });
}

/** The terms as the generator reads them, with the month they are valid from. */
export interface TermsInForce {
  validFrom: string;
  terms: SettlementTerms;
  /** The text form of the per-head items, kept on the statement. */
  perHeadItemsText: string;
}

const oneOf = <T extends string>(list: readonly T[], v: unknown): T | null => (list.includes(String(v) as T) ? (String(v) as T) : null);
const ratioText = (v: unknown) => (v === null || v === undefined || v === '' ? '0' : new PayrollDecimal(String(v)).toString());

/** The client company's terms in force in `month`, or null when it has none. Throws on an unusable row. */
export async function termsInForce(db: Db, companyId: number, month: string, companyName: string): Promise<TermsInForce | null> {
  const r = await db
    .selectFrom('accounts_settlement_terms')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('valid_from', '<=', month)
    .orderBy('valid_from', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!r) return null;
  const bad = (detail: string) => new AppError('SETTLEMENT_BAD_TERMS', { company: companyName, month, detail });
  const feeMode = oneOf(FEE_MODES, r.fee_mode);
  const feeTaxMode = oneOf(FEE_TAX_MODES, r.fee_tax_mode);
  const disabledShareMode = oneOf(DISABLED_SHARE_MODES, r.disabled_share_mode);
  const lag = String(r.si_billing_lag);
  if (!feeMode) throw bad(String(r.fee_mode));
  if (!feeTaxMode) throw bad(String(r.fee_tax_mode));
  if (!disabledShareMode) throw bad(String(r.disabled_share_mode));
  if (lag !== '0' && lag !== '1') throw bad(lag);
  const items = parsePerHeadItems(r.per_head_items as string | null);
  if ('error' in items) throw bad(items.error);
  return {
    validFrom: String(r.valid_from),
    perHeadItemsText: String(r.per_head_items ?? ''),
    terms: {
      feeMode,
      feeAmount: Number(r.fee_amount ?? 0),
      feeRate: ratioText(r.fee_rate),
      feeTaxMode,
      siBillingLag: lag === '1' ? 1 : 0,
      disabledShareMode,
      disabledShareAmount: Number(r.disabled_share_amount ?? 0),
      disabledShareRate: ratioText(r.disabled_share_rate),
      unionFeeRatio: ratioText(r.union_fee_ratio),
      perHeadItems: items.items,
    },
  };
}

/** The dispatch entity's VAT regime in force in `month`, or null. */
export async function vatRegimeInForce(db: Db, agent: string, month: string): Promise<(VatRegime & { validFrom: string }) | null> {
  const r = await db
    .selectFrom('accounts_vat_regime')
    .selectAll()
    .where('dispatch_company', '=', agent)
    .where('valid_from', '<=', month)
    .orderBy('valid_from', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!r) return null;
  const regime = oneOf(VAT_REGIMES, r.regime);
  if (!regime) return null;
  return { regime, rate: ratioText(r.rate), surtaxRatio: ratioText(r.surtax_ratio), validFrom: String(r.valid_from) };
}
