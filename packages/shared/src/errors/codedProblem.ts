import { type CodedMessage, type ErrorCode, type ErrorParams, renderError } from './catalogue.ts';

/**
 * An error below the HTTP layer that already says what went wrong as a catalogue code with its parameters
 * (`reason`), rendered in the answer's language by whoever shows it; `message` is its Chinese text (for logs and
 * callers that quote it). The payroll engine's errors (RowDataProblem, RateError, PayrollInputError) and the
 * server's CodedError are this, each adding what it knows (a field, an engine input).
 */
export class CodedProblem extends Error {
  readonly reason: CodedMessage;
  constructor(code: ErrorCode, params: ErrorParams = {}) {
    super(renderError(code, params, 'zh'));
    this.reason = { code, params };
  }
}
