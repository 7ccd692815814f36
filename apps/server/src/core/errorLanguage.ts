import {
  codeOfMessage,
  type ErrorCode,
  type ErrorParams,
  isErrorCode,
  type LabelTranslator,
  renderError,
} from '@app/shared/errors/catalogue';
import { acceptedLanguages, type Language, normalizeLanguage } from '@app/shared/language';
import type { FieldMessage } from '@app/shared/errors/zodIssues';
import { translateDefinitionLabel } from '@app/shared/resources/labels';
import type { AppError } from './errors.ts';

/**
 * Error messages in the request's language: the first language of Accept-Language the app speaks, Chinese
 * when there is none (the API's default; the spec's messages are Chinese and binding).
 */
export function requestLanguage(acceptLanguage: string | string[] | undefined): Language {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
  for (const tag of acceptedLanguages(header)) {
    const l = normalizeLanguage(tag);
    if (l) return l;
  }
  return 'zh';
}

/**
 * Chinese field and resource labels (from the shared definitions) in another language, as the definitions'
 * `labels` give them (the same texts the screens show), so a message names a field as the form shows it. A
 * label no definition translates stays Chinese.
 */
export const translateLabel: LabelTranslator = translateDefinitionLabel;

/** Codes that say no more than the status: a catalogue code found for the message replaces them. */
const GENERIC_CODES = new Set(['BAD_REQUEST', 'CONFLICT', 'NOT_FOUND', 'FORBIDDEN', 'UNAUTHORIZED', 'TOO_MANY_REQUESTS']);

/** A Chinese message in `language`, with the catalogue code it came from (null when not catalogued). */
export function localizeMessage(zh: string, language: Language): { message: string; code: ErrorCode | null } {
  const found = codeOfMessage(zh);
  if (!found) return { message: zh, code: null };
  return { message: language === 'zh' ? zh : renderError(found.code, found.params, language, translateLabel), code: found.code };
}

/** The message of a catalogue code in `language`. */
export function renderFor(code: ErrorCode, language: Language, params: ErrorParams = {}): string {
  return renderError(code, params, language, translateLabel);
}

export interface LocalizedError {
  message: string;
  code: string;
  fieldErrors?: Record<string, string>;
  fieldErrorCodes?: Record<string, string>;
}

/** A field message in `language` with its code (Chinese text not in the catalogue keeps `fallbackCode`). */
function localizeField(m: FieldMessage, language: Language, fallbackCode: string): { message: string; code: string } {
  if (typeof m !== 'string') return { message: renderFor(m.code, language, m.params), code: m.code };
  const found = localizeMessage(m, language);
  return { message: found.message, code: found.code ?? fallbackCode };
}

/** An AppError as the client receives it in `language`: message, code and field errors with their codes. */
export function localizeAppError(err: AppError, language: Language): LocalizedError {
  let message: string;
  let code: string;
  if (err.catalogued) {
    const c = err.code as ErrorCode;
    const first = c === 'VALIDATION' && err.fieldErrors ? Object.values(err.fieldErrors)[0] : undefined;
    message = first !== undefined ? localizeField(first, language, c).message : language === 'zh' ? err.message : renderFor(c, language, err.params);
    code = c;
  } else {
    const found = localizeMessage(err.message, language);
    message = found.message;
    code = err.code && !(GENERIC_CODES.has(err.code) && found.code) ? err.code : (found.code ?? err.code ?? 'BAD_REQUEST');
  }
  const out: LocalizedError = { message, code };
  if (err.fieldErrors) {
    out.fieldErrors = {};
    out.fieldErrorCodes = {};
    for (const [field, m] of Object.entries(err.fieldErrors)) {
      const f = localizeField(m, language, isErrorCode(code) ? code : 'VALIDATION');
      out.fieldErrors[field] = f.message;
      out.fieldErrorCodes[field] = f.code;
    }
  }
  return out;
}
