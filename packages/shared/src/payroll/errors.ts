import { type CodedMessage, type ErrorCode, type ErrorParams, renderError } from '../errors/catalogue.ts';

/** Machine-readable code carried by every {@link PayrollInputError}. */
export const PAYROLL_INPUT_ERROR = 'PAYROLL_INPUT' as const;

/**
 * Bad input to the payroll engine: names the offending field and carries its reason as a catalogue code with
 * parameters (`reason`), so the salary flow answers it in the request's language.
 */
export class PayrollInputError extends Error {
  readonly code = PAYROLL_INPUT_ERROR;
  readonly reason: CodedMessage;

  constructor(
    readonly field: string,
    code: ErrorCode,
    params: ErrorParams = {},
  ) {
    // `message` stays the Chinese text (logs, callers of the typed entry point that print it)
    super(renderError(code, params, 'zh'));
    this.name = 'PayrollInputError';
    this.reason = { code, params };
  }

  get messageZh(): string {
    return this.message;
  }

  get messageEn(): string {
    return renderError(this.reason.code, this.reason.params, 'en');
  }
}
