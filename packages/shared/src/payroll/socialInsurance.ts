import { PayrollInputError } from './errors.ts';
import {
  assertRoundingRule,
  type Fen,
  HOUSING_FUND_ROUNDING,
  multiplyFen,
  parseRatio,
  type Ratio,
  type RoundingRule,
  SOCIAL_INSURANCE_ROUNDING,
} from './money.ts';
import { assertFen } from './validate.ts';

/** Base limits and rounding of one insurance item (amounts in fen; null or absent = no limit). */
export interface ItemLimits {
  readonly floor?: Fen | null;
  readonly ceiling?: Fen | null;
  /** Defaults: social insurance half-up to 0.01 yuan, housing fund half-up to whole yuan. Applies to both sides. */
  readonly rounding?: RoundingRule;
}

/** An item paid by both the staff member and the employer (pension, medical, unemployment, housing fund). */
export interface SharedItemRate extends ItemLimits {
  readonly ratioSelf: Ratio;
  readonly ratioCompany: Ratio;
}

/** An employer-only item (work injury, maternity). */
export interface EmployerItemRate extends ItemLimits {
  readonly ratioCompany: Ratio;
}

/**
 * Rates for one (city, census type, effective month), loaded by the server from the rate dictionaries.
 * The engine holds no rate constants: everything here is data.
 */
export interface PayrollRates {
  readonly yanglao: SharedItemRate;
  readonly yiliao: SharedItemRate;
  readonly shiye: SharedItemRate;
  readonly gongjijin: SharedItemRate;
  /** Absent = not charged. */
  readonly gongshang?: EmployerItemRate;
  /** Absent = merged into medical / not charged. */
  readonly shengyu?: EmployerItemRate;
  /** Fixed personal medical amount per month in fen, e.g. Beijing 大额医疗互助 3 yuan = 300; 0 elsewhere. */
  readonly yiliaoFixedSelf: Fen;
}

/** Declared monthly bases in fen, before the floor/ceiling clamp. */
export interface ContributionBases {
  readonly yanglao: Fen;
  /** Medical base for the employer side (and the personal side unless `yiliaoSelf` is given). */
  readonly yiliao: Fen;
  /** Personal medical base when it differs from the employer's (`yiliaoBaseSelf`). */
  readonly yiliaoSelf?: Fen;
  readonly shiye: Fen;
  readonly gongjijin: Fen;
  /** Required when `rates.gongshang` is set. */
  readonly gongshang?: Fen;
  /** Required when `rates.shengyu` is set. */
  readonly shengyu?: Fen;
}

/** The staff member's share, each item rounded by its own rule; `fiveOne` is the sum of the rounded items. */
export interface PersonalContributions {
  readonly yanglao: Fen;
  readonly yiliao: Fen;
  readonly shiye: Fen;
  readonly gongjijin: Fen;
  /** Social insurance only: yanglao + yiliao + shiye (payslip `shebaogeren`). */
  readonly socialInsurance: Fen;
  /** 专项扣除: yanglao + yiliao + shiye + gongjijin (payslip `shebaogongjijin`). */
  readonly fiveOne: Fen;
}

/** The employer's share for the client bill, each item rounded by its own rule. */
export interface EmployerContributions {
  readonly yanglao: Fen;
  readonly yiliao: Fen;
  readonly shiye: Fen;
  readonly gongshang: Fen;
  readonly shengyu: Fen;
  readonly gongjijin: Fen;
  readonly total: Fen;
}

/** Clamps a declared base to [floor, ceiling] (either bound may be absent). */
export function clampBase(base: Fen, floor?: Fen | null, ceiling?: Fen | null): Fen {
  if (floor != null && base < floor) return floor;
  if (ceiling != null && base > ceiling) return ceiling;
  return base;
}

function checkLimits(limits: ItemLimits, field: string): void {
  const { floor, ceiling } = limits;
  if (floor != null) assertFen(floor, `${field}.floor`);
  if (ceiling != null) assertFen(ceiling, `${field}.ceiling`);
  if (floor != null && ceiling != null && floor > ceiling) {
    throw new PayrollInputError(`${field}.floor`, 'PAYROLL_INPUT_FLOOR_ABOVE_CEILING', { field });
  }
  if (limits.rounding !== undefined) assertRoundingRule(limits.rounding, `${field}.rounding`);
}

function item(base: Fen, ratio: Ratio, limits: ItemLimits, field: string, defaultRule: RoundingRule): Fen {
  checkLimits(limits, field);
  const r = parseRatio(ratio, field);
  return multiplyFen(clampBase(base, limits.floor, limits.ceiling), r, limits.rounding ?? defaultRule);
}

function need<K extends 'yanglao' | 'yiliao' | 'shiye' | 'gongjijin'>(rates: PayrollRates, key: K): SharedItemRate {
  const rate = rates?.[key];
  if (typeof rate !== 'object' || rate === null) {
    throw new PayrollInputError(`rates.${key}`, 'PAYROLL_INPUT_RATE_MISSING', { key });
  }
  return rate;
}

function checkBase(bases: ContributionBases, key: keyof ContributionBases): Fen {
  const v = bases?.[key];
  assertFen(v, `bases.${key}`);
  return v;
}

/** Staff member's pension, medical (+ fixed amount), unemployment and housing fund: clamp, multiply, round per item. */
export function calculatePersonalContributions(bases: ContributionBases, rates: PayrollRates): PersonalContributions {
  const [p, m, u, f] = [need(rates, 'yanglao'), need(rates, 'yiliao'), need(rates, 'shiye'), need(rates, 'gongjijin')];
  assertFen(rates.yiliaoFixedSelf, 'rates.yiliaoFixedSelf');
  const medicalBase = bases.yiliaoSelf === undefined ? checkBase(bases, 'yiliao') : checkBase(bases, 'yiliaoSelf');
  const yanglao = item(checkBase(bases, 'yanglao'), p.ratioSelf, p, 'yanglaoRatioSelf', SOCIAL_INSURANCE_ROUNDING);
  const yiliao = item(medicalBase, m.ratioSelf, m, 'yiliaoRatioSelf', SOCIAL_INSURANCE_ROUNDING) + rates.yiliaoFixedSelf;
  const shiye = item(checkBase(bases, 'shiye'), u.ratioSelf, u, 'shiyeRatioSelf', SOCIAL_INSURANCE_ROUNDING);
  const gongjijin = item(checkBase(bases, 'gongjijin'), f.ratioSelf, f, 'gjjRatio', HOUSING_FUND_ROUNDING);
  const socialInsurance = yanglao + yiliao + shiye;
  return { yanglao, yiliao, shiye, gongjijin, socialInsurance, fiveOne: socialInsurance + gongjijin };
}

function employerOnly(bases: ContributionBases, rate: EmployerItemRate | undefined, key: 'gongshang' | 'shengyu'): Fen {
  if (rate === undefined) return 0;
  return item(checkBase(bases, key), rate.ratioCompany, rate, `${key}RatioCompany`, SOCIAL_INSURANCE_ROUNDING);
}

/** Employer's pension, medical, unemployment, work injury, maternity and housing fund, for the client bill. */
export function calculateEmployerContributions(bases: ContributionBases, rates: PayrollRates): EmployerContributions {
  const [p, m, u, f] = [need(rates, 'yanglao'), need(rates, 'yiliao'), need(rates, 'shiye'), need(rates, 'gongjijin')];
  const yanglao = item(checkBase(bases, 'yanglao'), p.ratioCompany, p, 'yanglaoRatioCompany', SOCIAL_INSURANCE_ROUNDING);
  const yiliao = item(checkBase(bases, 'yiliao'), m.ratioCompany, m, 'yiliaoRatioCompany', SOCIAL_INSURANCE_ROUNDING);
  const shiye = item(checkBase(bases, 'shiye'), u.ratioCompany, u, 'shiyeRatioCompany', SOCIAL_INSURANCE_ROUNDING);
  const gongshang = employerOnly(bases, rates.gongshang, 'gongshang');
  const shengyu = employerOnly(bases, rates.shengyu, 'shengyu');
  const gongjijin = item(checkBase(bases, 'gongjijin'), f.ratioCompany, f, 'gjjRatioCompany', HOUSING_FUND_ROUNDING);
  return { yanglao, yiliao, shiye, gongshang, shengyu, gongjijin, total: yanglao + yiliao + shiye + gongshang + shengyu + gongjijin };
}
