// Test-only helpers shared by the payroll tests: rate fixtures and an independent BigInt oracle.
// Not exported from index.ts.
import type { PayrollRates } from './socialInsurance.ts';

/** Personal rates of payroll-rules.md §6 (8% / 2% + 3 yuan / 0.5% / HF 12%), Beijing-style employer rates of §3.5, no base limits. */
export function vectorRates(limits: { floor?: number; ceiling?: number } = {}): PayrollRates {
  return {
    yanglao: { ratioSelf: '0.08', ratioCompany: '0.16', ...limits },
    yiliao: { ratioSelf: '0.02', ratioCompany: '0.098', ...limits },
    shiye: { ratioSelf: '0.005', ratioCompany: '0.005', ...limits },
    gongjijin: { ratioSelf: '0.12', ratioCompany: '0.12', ...limits },
    gongshang: { ratioCompany: '0.004', ...limits },
    yiliaoFixedSelf: 300,
  };
}

/** The same base for every item. */
export function sameBases(base: number) {
  return { yanglao: base, yiliao: base, shiye: base, gongjijin: base, gongshang: base, shengyu: base };
}

/** Yuan (number with at most 2 decimals) to fen, written independently of the engine for test vectors. */
export const fen = (yuan: number): number => Math.round(yuan * 100);

/** Oracle: round the non-negative rational num/den to a multiple of `unit` fen, using only BigInt. */
export function oracleRound(num: bigint, den: bigint, unit: bigint, mode: 'HALF_UP' | 'UP' | 'DOWN'): bigint {
  const d = den * unit;
  if (mode === 'DOWN') return (num / d) * unit;
  if (mode === 'UP') return ((num + d - 1n) / d) * unit;
  return ((2n * num + d) / (2n * d)) * unit;
}

const ANNUAL: ReadonlyArray<[bigint, bigint, bigint]> = [
  // upper bound (fen, -1 = none), rate in percent, quick deduction in fen
  [3_600_000n, 3n, 0n],
  [14_400_000n, 10n, 252_000n],
  [30_000_000n, 20n, 1_692_000n],
  [42_000_000n, 25n, 3_192_000n],
  [66_000_000n, 30n, 5_292_000n],
  [96_000_000n, 35n, 8_592_000n],
  [-1n, 45n, 18_192_000n],
];

/** Oracle for the annual table, in BigInt percent arithmetic: round_half_up(T × pct / 100 − quick). */
export function oracleAnnualTax(cumulativeTaxable: number): number {
  const t = BigInt(cumulativeTaxable);
  if (t <= 0n) return 0;
  const [, pct, quick] = ANNUAL.find(([upper]) => upper < 0n || t <= upper) as [bigint, bigint, bigint];
  return Number(oracleRound(t * pct - quick * 100n, 100n, 1n, 'HALF_UP'));
}
