import { type CodedList, type ErrorCode, type ErrorParams, type LabelTranslator, renderError, renderList } from '@app/shared/errors/catalogue';
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
 * Chinese field and resource labels (from the shared definitions, and the contracts' own field labels in
 * contracts/labels.ts) in another language, as the definitions' `labels` give them (the same texts the screens
 * show), so a message names a field as the form shows it. A label neither translates stays Chinese.
 */
export const translateLabel: LabelTranslator = translateDefinitionLabel;

/** The message of a catalogue code in `language`. */
export function renderFor(code: ErrorCode, language: Language, params: ErrorParams = {}): string {
  return renderError(code, params, language, translateLabel);
}

/** A list of messages (a row's problems) in `language`, joined in its way. */
export function renderListFor(list: CodedList, language: Language): string {
  return renderList(list, language, translateLabel);
}

export interface LocalizedError {
  message: string;
  code: string;
  fieldErrors?: Record<string, string>;
  fieldErrorCodes?: Record<string, string>;
}

/** A field message in `language` with its code. */
function localizeField(m: FieldMessage, language: Language): { message: string; code: string } {
  return { message: renderFor(m.code, language, m.params), code: m.code };
}

/** An AppError as the client receives it in `language`: message, code and field errors with their codes. */
export function localizeAppError(err: AppError, language: Language): LocalizedError {
  const first = err.code === 'VALIDATION' && err.fieldErrors ? Object.values(err.fieldErrors)[0] : undefined;
  const message = first !== undefined ? localizeField(first, language).message : language === 'zh' ? err.message : renderFor(err.code, language, err.params);
  const out: LocalizedError = { message, code: err.code };
  if (err.fieldErrors) {
    out.fieldErrors = {};
    out.fieldErrorCodes = {};
    for (const [field, m] of Object.entries(err.fieldErrors)) {
      const f = localizeField(m, language);
      out.fieldErrors[field] = f.message;
      out.fieldErrorCodes[field] = f.code;
    }
  }
  return out;
}
