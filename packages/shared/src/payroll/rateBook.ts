import { CodedProblem } from '../errors/codedProblem.ts';
import type { RateRatioField } from '../staffDerivations.ts';
import type { Fen } from './money.ts';
import type { PayrollRates } from './socialInsurance.ts';

/**
 * The rate versions a month's calculation uses, one per census type: what the server reads from the rate
 * dictionaries (apps/server/src/modules/payroll/rates.ts) and the engine takes as data.
 */

/**
 * A rate dictionary that cannot be used: its reason (naming the dictionary, version and entry) is a catalogue
 * code with parameters, rendered in the answer's language; `message` is its Chinese text.
 */
export class RateError extends CodedProblem {}

/** One resolved rate version: everything but the per-staff ratios, which the salary row carries. */
export interface RateVersion {
  /** Dictionary the figures came from (e.g. `bennong@2026-07`). */
  dictName: string;
  /** First month the version applies to; null = from the beginning. */
  effectiveMonth: string | null;
  /** Limits, rounding and fixed amount; ratios are those of the dictionary (absent when not entered). */
  rates: PayrollRates;
  /** Dictionary ratios by entry label, for rows that lack their own. */
  ratios: Partial<Record<RateRatioField, string>>;
  /** 当地上年职工平均工资 (fen per year) in force, for the 经济补偿金 exemption (payItems.ts); null when not entered. */
  averageWageAnnual?: Fen | null;
}

/** Rates for every census type of a month: census label -> version, or the reason it cannot be used. */
export type RateBook = Map<string, RateVersion | RateError>;
