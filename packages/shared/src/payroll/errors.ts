import { type ErrorCode, type ErrorParams, renderError } from '../errors/catalogue.ts';
import { CodedProblem } from '../errors/codedProblem.ts';

/** Machine-readable code carried by every {@link PayrollInputError}. */
export const PAYROLL_INPUT_ERROR = 'PAYROLL_INPUT' as const;

/**
 * Bad input to the payroll engine: names the offending field and carries its reason as a catalogue code with
 * parameters (`reason`), so the salary flow answers it in the request's language.
 */
export class PayrollInputError extends CodedProblem {
  readonly code = PAYROLL_INPUT_ERROR;

  constructor(
    readonly field: string,
    code: ErrorCode,
    params: ErrorParams = {},
  ) {
    // `message` stays the Chinese text (logs, callers of the typed entry point that print it)
    super(code, params);
    this.name = 'PayrollInputError';
  }

  get messageZh(): string {
    return this.message;
  }

  get messageEn(): string {
    return renderError(this.reason.code, this.reason.params, 'en');
  }
}
