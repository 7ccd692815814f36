import type { CodedMessage, ErrorCode, ErrorParams } from '../errors/catalogue.ts';
import { CodedProblem } from '../errors/codedProblem.ts';
import { salaryResource } from '../resources/salary.ts';
import type { PayrollInputError } from './errors.ts';

/**
 * Why a row cannot be calculated, for the clerk: a catalogue code with its parameters (`reason`), rendered in the
 * answer's language by whoever shows it; `message` is its Chinese text. When the engine's own checks refused an
 * input, `inputError` keeps that error, so that the typed entry point (calculateMonthlySalary) can answer with it.
 */
export class RowDataProblem extends CodedProblem {
  constructor(
    code: ErrorCode,
    params: ErrorParams = {},
    readonly inputError?: PayrollInputError,
    /** The row's field at fault, when one is (the report names it beside the reason). */
    readonly field?: string,
  ) {
    super(code, params);
  }

  /** A problem whose reason is another error's (a rate dictionary's, an engine input's). */
  static of(reason: CodedMessage, inputError?: PayrollInputError): RowDataProblem {
    return new RowDataProblem(reason.code, reason.params, inputError);
  }
}

/**
 * The row fields a problem names, each by the salary definition's field that labels it (the 补差 due amounts by
 * their figures): the labels are the definition's own, so the screens' translations of them apply.
 */
const LABELLED_BY = {
  salary: 'salary',
  jiaban: 'jiaban',
  koukuan: 'koukuan',
  deduct: 'deduct',
  yanglaoBase: 'yanglaoBase',
  yiliaoBase: 'yiliaoBase',
  shiyeBase: 'shiyeBase',
  gjjBase: 'gjjBase',
  yanglaoRatioSelf: 'yanglaoRatioSelf',
  yiliaoRatioSelf: 'yiliaoRatioSelf',
  shiyeRatioSelf: 'shiyeRatioSelf',
  gjjRatio: 'gjjRatio',
  censusType: 'censusType',
  dispatchCompany: 'dispatchCompany',
  bonus: 'bonus',
  backPay: 'backPay',
  backDeduct: 'backDeduct',
  severance: 'severance',
  siBackSelfDue: 'siBackSelf',
  siBackCompanyDue: 'siBackCompany',
} as const;

function definitionLabel(name: string): string {
  const field = salaryResource.fields.find((f) => f.name === name);
  if (!field) throw new Error(`the salary definition has no field ${name}`);
  return field.label;
}

/** The Chinese label of each row field a problem names (the salary definition's). */
export const FIELD_LABEL: Record<string, string> & Record<keyof typeof LABELLED_BY, string> = Object.fromEntries(
  Object.entries(LABELLED_BY).map(([field, labelledBy]) => [field, definitionLabel(labelledBy)]),
) as Record<keyof typeof LABELLED_BY, string>;
