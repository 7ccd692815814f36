/** Pure, deterministic payroll engine: social insurance, housing fund, IIT. Money is integer fen. */
export { PAYROLL_INPUT_ERROR, PayrollInputError } from './errors.ts';
export {
  assertRoundingRule,
  type Fen,
  fenToYuan,
  HOUSING_FUND_ROUNDING,
  multiplyFen,
  PayrollDecimal,
  parseRatio,
  type Ratio,
  type RoundingMode,
  type RoundingRule,
  roundFen,
  SOCIAL_INSURANCE_ROUNDING,
  TAX_ROUNDING,
  yuanToFen,
} from './money.ts';
export {
  calculateEmployerContributions,
  calculatePersonalContributions,
  clampBase,
  type ContributionBases,
  type EmployerContributions,
  type EmployerItemRate,
  type ItemLimits,
  type PayrollRates,
  type PersonalContributions,
  type SharedItemRate,
} from './socialInsurance.ts';
export {
  ANNUAL_TAX_TABLE,
  annualBonusTax,
  BASIC_DEDUCTION_PER_MONTH,
  type ConfirmedMonth,
  type CumulativeWithholdingInput,
  type CumulativeWithholdingResult,
  calculateCumulativeWithholding,
  LABOUR_REMUNERATION_TAX_TABLE,
  labourRemunerationTax,
  MONTHLY_TAX_TABLE,
  type MonthFigures,
  SIMPLIFIED_ANNUAL_BASIC_DEDUCTION,
  type TaxBracket,
  taxByAnnualTable,
  taxByMonthlyTable,
  taxByTable,
} from './incomeTax.ts';
export { calculateMonthlySalary, type MonthlySalaryInput, type MonthlySalaryResult } from './monthlySalary.ts';
export { calculateMonth } from './calculateMonth.ts';
export { isLabour, keyOf, monthTotals, splitTax } from './monthLedger.ts';
export { RateError, type RateBook, type RateVersion } from './rateBook.ts';
export { insuredItems, separateBonusOf } from './rowFigures.ts';
export {
  ADJUSTMENT_LIMIT_FEN,
  BONUS_LIMIT_FEN,
  LABOUR_TAXES_TYPE,
  type LedgerRow,
  type MonthCalculationInput,
  type MonthCalculationResult,
  type OpeningBalance,
  type RowFigures,
  type RowProblem,
  type SalaryRowData,
  SEPARATE_BONUS_UNTIL,
  VERIFIED_FIGURES,
  type YtdCarry,
} from './salaryRows.ts';
export {
  calendarDays,
  type EmploymentDates,
  employedSpan,
  isPayable,
  MONTHLY_PAY_DAYS,
  monthSpan,
  type ProratedSalary,
  type ProrationRule,
  PRORATION_RULES,
  prorateSalary,
  workingDays,
} from './proration.ts';
