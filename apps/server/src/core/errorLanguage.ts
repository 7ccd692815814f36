import fs from 'node:fs';
import path from 'node:path';
import {
  codeOfMessage,
  type ErrorCode,
  type ErrorParams,
  isErrorCode,
  type LabelTranslator,
  renderError,
} from '@app/shared/errors/catalogue';
import { acceptedLanguages, type Language, normalizeLanguage } from '@app/shared/language';
import { RESOURCES } from '@app/shared/resources/index';
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

/** The web app's label files (apps/web/src/locales/<lng>/fields.json): resource -> field -> label. */
const LOCALES_DIR = path.resolve(import.meta.dirname, '../../../web/src/locales');
let labelMaps: Map<Language, Map<string, string>> | undefined;

/**
 * Chinese field and resource labels (from the shared definitions) in another language, taken from the same
 * label files the screens use, so a message names a field as the form shows it. A label the files do not
 * translate stays Chinese.
 */
export const translateLabel: LabelTranslator = (zhLabel, language) => {
  if (!labelMaps) {
    labelMaps = new Map();
    for (const lng of ['en', 'es', 'ja'] as Language[]) {
      const map = new Map<string, string>();
      let files: Record<string, Record<string, string>> = {};
      try {
        files = JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, lng, 'fields.json'), 'utf8'));
      } catch {
        // no web sources next to the server: labels stay Chinese
      }
      for (const def of Object.values(RESOURCES)) {
        const texts = files[def.name] ?? {};
        if (texts._label && !map.has(def.label)) map.set(def.label, texts._label);
        for (const f of def.fields) if (texts[f.name] && !map.has(f.label)) map.set(f.label, texts[f.name]);
      }
      labelMaps.set(lng, map);
    }
  }
  return labelMaps.get(language)?.get(zhLabel) ?? null;
};

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

/** An AppError as the client receives it in `language`: message, code and field errors with their codes. */
export function localizeAppError(err: AppError, language: Language): LocalizedError {
  let message: string;
  let code: string;
  if (err.catalogued) {
    const c = err.code as ErrorCode;
    message = language === 'zh' ? err.message : renderFor(c, language, err.params);
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
    for (const [field, zh] of Object.entries(err.fieldErrors)) {
      const f = localizeMessage(String(zh), language);
      out.fieldErrors[field] = f.message;
      out.fieldErrorCodes[field] = f.code ?? (isErrorCode(code) ? code : 'VALIDATION');
    }
  }
  return out;
}
