import { ERROR_CATALOGUE, type ErrorCode, type ErrorParams, renderError } from '@app/shared/errors/catalogue';
import { type FieldMessage, firstIssueMessage, zhText } from '@app/shared/errors/zodIssues';
import { CodedProblem } from '@app/shared/errors/codedProblem';
import type { z } from 'zod';

/**
 * Errors are data: an HTTP status, a code of the shared error catalogue (packages/shared/src/errors) with its
 * parameters, and field errors (each a code with parameters). `new AppError('USERNAME_TAKEN')` or
 * `new AppError('DUPLICATE', { resource })` takes status and texts from the catalogue; the error handler
 * (core/plugins/errors.ts) answers `{status, message, timestamp, code, fieldErrors?, fieldErrorCodes?}` with
 * `message` in the request's Accept-Language (Chinese when absent or unknown). A `VALIDATION` error's message
 * is its first field's. `message` (the Error's own) is the Chinese text, for the logs.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  /** Parameters of the catalogue message. */
  readonly params: ErrorParams;
  /** Field -> its message, a catalogue code with parameters. */
  readonly fieldErrors?: Record<string, FieldMessage>;
  constructor(code: ErrorCode, params: ErrorParams = {}, fieldErrors?: Record<string, FieldMessage>) {
    const first = code === 'VALIDATION' && fieldErrors ? Object.values(fieldErrors)[0] : undefined;
    super(first !== undefined ? zhText(first) : renderError(code, params, 'zh'));
    this.status = ERROR_CATALOGUE[code].status;
    this.code = code;
    this.params = params;
    this.fieldErrors = fieldErrors;
  }
}

/**
 * An error below the HTTP layer (an Excel reader, an import pipeline) that already says what went wrong as a
 * catalogue code with its parameters (the shared CodedProblem); `message` is the Chinese text (for logs and callers
 * that quote it). The route turns it into an answer with {@link appErrorOf}, in the request's language.
 */
export class CodedError extends CodedProblem {
  get code(): ErrorCode {
    return this.reason.code;
  }
  get params(): ErrorParams {
    return this.reason.params ?? {};
  }
}

/** The HTTP answer of a {@link CodedError}: same code, same parameters, the catalogue's status. */
export const appErrorOf = (err: CodedError): AppError => new AppError(err.code, err.params);

/** A definition's message (a unique rule, a tree's delete refusal, a field rule) as the error it answers. */
export function definitionError(message: FieldMessage): AppError {
  return new AppError(message.code, message.params ?? {});
}

/** A 400 (code VALIDATION) built from field errors; its message is the first field's. */
export function validationError(fieldErrors: Record<string, FieldMessage>): AppError {
  return new AppError('VALIDATION', {}, fieldErrors);
}

/** A 400 from the first issue of a failed zod parse (`root`: the parsed value), with its catalogue code. */
export function firstIssueError(error: z.ZodError, root?: unknown): AppError {
  return definitionError(firstIssueMessage(error, root));
}

/** Keys whose values never reach a log or a response. */
const SECRET_KEYS = /pass(word)?|secret|privatekey|token|^code$|credential|apikey|accesskey/i;

/** Copy of a request body with secrets masked, for the operation log. */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (depth > 5) return '…';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => maskSecrets(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEYS.test(k) ? '******' : maskSecrets(v, depth + 1);
    return out;
  }
  if (typeof value === 'string' && value.length > 500) return `${value.slice(0, 500)}…`;
  return value;
}
