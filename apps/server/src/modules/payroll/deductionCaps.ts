import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CodedMessage, ErrorCode, ErrorParams } from '@app/shared/errors/catalogue';
import type { Fen } from '@app/shared/payroll';
import { fenToYuan, yuanToFen } from '@app/shared/payroll/money';
import { TAX_DEDUCTION_RULES, type TaxDeductionRule, taxDeductionCapResource } from '@app/shared/resources/taxDeductionCap';
import type { Db } from '../../core/db.ts';
import { validationError } from '../../core/errors.ts';
import { registerResource } from '../../crud/registerResource.ts';
import { perRequest } from '../dispatch/lookups.ts';

/**
 * The statutory limits of a 专项附加扣除 row (findings PB1, PB2), read from 专项附加扣除标准 (the rule in force in the
 * row's month: the latest `valid_from` not after it). Sources, per rule, in taxDeductionCap.ts and migration 0024:
 * 国发〔2018〕41号, 国发〔2022〕8号, 国发〔2023〕13号, 财税〔2017〕39号, 财政部 税务总局公告2022年第34号.
 * - 子女教育, 3岁以下婴幼儿照护: the rule per child times the children of the row (empty: one);
 * - 赡养老人: the only-child amount, or the own share when the worker shares it with siblings;
 * - 住房贷款利息; 住房租金 by the city category; not both in one month (41号 art.21: one or the other);
 * - 继续教育: the 学历 amount a month, plus the certificate amount in the month a 职业资格 certificate is obtained,
 *   which happens once a year at this agent;
 * - 商业健康险 a month; 个人养老金 12,000 a year: this row plus the worker's other months of the year at this agent
 *   (PB1: each month under 12,000 while the year is over);
 * - 大病医疗 is deducted at the annual reconciliation only: not limited here, never in the withholding.
 * Every amount over its limit is refused with the limit in the message, on its field; an import gets the same
 * per-row errors (nothing is clamped).
 */

/**
 * 专项附加扣除标准's routes (the generic ones; the menu comes from the definition): a row names one of the rules the
 * check below knows, whatever the dictionary's entries say.
 */
export function registerDeductionCaps(app: FastifyInstance): void {
  registerResource(app, taxDeductionCapResource, {
    beforeWrite: (values, { existing }) => {
      const rule = String(values.rule ?? existing?.rule ?? '');
      if (!Object.hasOwn(TAX_DEDUCTION_RULES, rule)) throw validationError({ rule: { code: 'FIELD_NOT_OPTION', params: { label: '扣除项目', value: rule } } });
    },
  });
}

interface CapRow {
  rule: string;
  validFrom: string;
  amount: Fen;
}

/** Every rule's rows, newest first (a handful of rows; read once per request). */
async function allCaps(db: Db): Promise<CapRow[]> {
  const rows = await db.selectFrom('accounts_tax_deduction_cap').select(['rule', 'valid_from', 'amount']).orderBy('valid_from', 'desc').execute();
  return rows.map((r) => ({ rule: String(r.rule), validFrom: String(r.valid_from), amount: Number(r.amount) }));
}

/** The amount (fen) of each rule in force in `month`. */
export async function capsInForce(db: Db, month: string): Promise<Map<TaxDeductionRule, Fen>> {
  return capsOf(await allCaps(db), month);
}

function capsOf(rows: CapRow[], month: string): Map<TaxDeductionRule, Fen> {
  const out = new Map<TaxDeductionRule, Fen>();
  for (const r of rows) if (r.validFrom <= month && !out.has(r.rule as TaxDeductionRule)) out.set(r.rule as TaxDeductionRule, r.amount);
  return out;
}

/** Yuan as messages show it: 1,500 / 1,500.50. */
export function yuanText(fen: Fen): string {
  const yuan = fenToYuan(fen);
  return yuan.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(yuan) ? 0 : 2, maximumFractionDigits: 2 });
}

const fenOf = (v: unknown): Fen => (v === undefined || v === null || v === '' ? 0 : yuanToFen(v as number | string));
const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';
const LABELS = {
  childEducation: '子女教育',
  infantCare: '3岁以下婴幼儿照护',
  elderlySupport: '赡养老人',
  housingLoanInterest: '住房贷款利息',
  healthInsurance: '商业健康险',
} as const;

/**
 * Amounts of this request's import accepted so far, per worker, agent and year: a file with January and February
 * of the same worker is checked as the months will stand, not against the database alone.
 */
interface YearTally {
  pension: Map<string, Fen>;
  certificateMonth: string | null;
}
function tallyOf(req: FastifyRequest, key: string): Promise<YearTally> {
  return perRequest(req, `deductionTally:${key}`, async () => ({ pension: new Map(), certificateMonth: null }));
}

/** Refuse the amounts of a 专项附加扣除 row over the limits in force in its month (all refusals at once, per field). */
export async function checkDeductionCaps(req: FastifyRequest, db: Db, values: Record<string, unknown>, existing?: Record<string, unknown>): Promise<void> {
  const row = { ...existing, ...values };
  const month = String(row.month ?? '');
  const caps = capsOf(await perRequest(req, 'deductionCaps', () => allCaps(db)), month);
  const errors: Record<string, CodedMessage> = {};
  const refuse = (field: string, code: ErrorCode, params: ErrorParams) => {
    errors[field] ??= { code, params };
  };
  const cap = (field: string, label: string, rule: TaxDeductionRule): Fen | null => {
    const c = caps.get(rule);
    if (c === undefined) refuse(field, 'DEDUCTION_NO_RULE', { label, month });
    return c ?? null;
  };

  for (const [field, rule, childrenField] of [
    ['childEducation', 'childEducation', 'childEducationChildren'],
    ['infantCare', 'infantCare', 'infantCareChildren'],
  ] as const) {
    const amount = fenOf(row[field]);
    if (amount === 0) continue;
    const perChild = cap(field, LABELS[field], rule);
    const children = row[childrenField] === null || row[childrenField] === undefined || row[childrenField] === '' ? 1 : Number(row[childrenField]);
    if (perChild !== null && amount > perChild * children) {
      refuse(field, 'DEDUCTION_CAP_PER_CHILD', { label: LABELS[field], perChild: yuanText(perChild), children, cap: yuanText(perChild * children) });
    }
  }

  const elderly = fenOf(row.elderlySupport);
  if (elderly > 0) {
    // an only child takes the whole amount; siblings share it, each at most the own-share limit
    const onlyChild = row.elderlyOnlyChild === undefined || row.elderlyOnlyChild === null ? true : truthy(row.elderlyOnlyChild);
    const limit = cap('elderlySupport', LABELS.elderlySupport, onlyChild ? 'elderlySupportOnlyChild' : 'elderlySupportShared');
    if (limit !== null && elderly > limit) {
      if (onlyChild) refuse('elderlySupport', 'DEDUCTION_CAP_MONTHLY', { label: LABELS.elderlySupport, cap: yuanText(limit) });
      else refuse('elderlySupport', 'DEDUCTION_CAP_ELDERLY_SHARED', { cap: yuanText(limit) });
    }
  }

  const loan = fenOf(row.housingLoanInterest);
  const rent = fenOf(row.housingRent);
  if (loan > 0) {
    const limit = cap('housingLoanInterest', LABELS.housingLoanInterest, 'housingLoanInterest');
    if (limit !== null && loan > limit) refuse('housingLoanInterest', 'DEDUCTION_CAP_MONTHLY', { label: LABELS.housingLoanInterest, cap: yuanText(limit) });
  }
  if (rent > 0) {
    const tier = ['1', '2', '3'].includes(String(row.housingRentCityTier ?? '')) ? String(row.housingRentCityTier) : '1';
    const limit = cap('housingRent', '住房租金', `housingRentTier${tier}` as TaxDeductionRule);
    if (limit !== null && rent > limit) refuse('housingRent', 'DEDUCTION_CAP_RENT_TIER', { tier, cap: yuanText(limit) });
    if (loan > 0) refuse('housingRent', 'DEDUCTION_LOAN_RENT_EXCLUSIVE', {});
  }

  const agent = String(row.dispatchCompany ?? '');
  const idCard = String(row.idCard ?? '').toUpperCase();
  const year = month.slice(0, 4);
  const ownId = row.id === undefined || row.id === null ? null : Number(row.id);
  const tally = await tallyOf(req, `${agent}\u0000${idCard}\u0000${year}`);
  // the worker's other months of the year at this agent (this request's import rows win over stored ones)
  const others = async () => {
    const stored = await db
      .selectFrom('accounts_tax_deduction')
      .select(['id', 'month', 'private_pension', 'certificate_this_month'])
      .where('dispatch_company', '=', agent)
      .where('id_card', '=', idCard)
      .where('month', '>=', `${year}-01`)
      .where('month', '<=', `${year}-12`)
      .where('month', '<>', month)
      .execute();
    return stored.filter((r) => Number(r.id) !== ownId);
  };

  const education = fenOf(row.continuingEducation);
  const certificate = truthy(row.certificateThisMonth);
  let otherRows: Awaited<ReturnType<typeof others>> | null = null;
  if (education > 0 || certificate) {
    const degree = cap('continuingEducation', '继续教育', 'continuingEducationDegree');
    const certificateCap = cap('continuingEducation', '继续教育', 'continuingEducationCertificate');
    if (degree !== null && certificateCap !== null) {
      const limit = degree + (certificate ? certificateCap : 0);
      if (education > limit) refuse('continuingEducation', 'DEDUCTION_CAP_CONTINUING', { cap: yuanText(limit), degree: yuanText(degree), certificate: yuanText(certificateCap) });
    }
    if (certificate) {
      otherRows = await others();
      const earlier = otherRows.find((r) => truthy(r.certificate_this_month) && !tally.pension.has(String(r.month)))?.month ?? (tally.certificateMonth !== month ? tally.certificateMonth : null);
      if (earlier) refuse('certificateThisMonth', 'DEDUCTION_CERTIFICATE_ONCE', { month: String(earlier) });
    }
  }

  const pension = fenOf(row.privatePension);
  if (pension > 0) {
    const yearly = cap('privatePension', '个人养老金', 'privatePension');
    if (yearly !== null) {
      otherRows ??= await others();
      let used = 0;
      for (const r of otherRows) if (!tally.pension.has(String(r.month))) used += Number(r.private_pension ?? 0);
      for (const [m, fen] of tally.pension) if (m !== month) used += fen;
      if (used + pension > yearly) refuse('privatePension', 'DEDUCTION_PENSION_YEARLY', { cap: yuanText(yearly), used: yuanText(used), left: yuanText(Math.max(0, yearly - used)) });
    }
  }

  const healthInsurance = fenOf(row.healthInsurance);
  if (healthInsurance > 0) {
    const limit = cap('healthInsurance', LABELS.healthInsurance, 'healthInsurance');
    if (limit !== null && healthInsurance > limit) refuse('healthInsurance', 'DEDUCTION_CAP_MONTHLY', { label: LABELS.healthInsurance, cap: yuanText(limit) });
  }

  if (Object.keys(errors).length) throw validationError(errors);
  // accepted: later rows of the same request (an import) count this month as it will be stored
  tally.pension.set(month, pension);
  if (certificate) tally.certificateMonth = month;
}
