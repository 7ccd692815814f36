/**
 * Errors are data: an HTTP status, the user-facing Chinese message, an optional English one, a machine code
 * and field errors. The error handler turns them into `{status, message, timestamp, code?, fieldErrors?}`.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly fieldErrors?: Record<string, string>,
    readonly messageEn?: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fieldErrors?: Record<string, string>, code = 'BAD_REQUEST') =>
  new AppError(400, message, code, fieldErrors);
export const unauthorized = (message = '登录状态已过期，请重新登录') => new AppError(401, message, 'UNAUTHORIZED');
export const forbidden = (message = '没有权限执行此操作') => new AppError(403, message, 'FORBIDDEN');
export const notFound = (message = '数据不存在') => new AppError(404, message, 'NOT_FOUND');
export const conflict = (message: string, code = 'CONFLICT') => new AppError(409, message, code);
export const tooManyRequests = (message: string) => new AppError(429, message, 'TOO_MANY_REQUESTS');

/** A 400 built from field errors; the message is the first field's message. */
export function validationError(fieldErrors: Record<string, string>): AppError {
  const first = Object.values(fieldErrors)[0] ?? '参数错误';
  return new AppError(400, first, 'VALIDATION', fieldErrors);
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
