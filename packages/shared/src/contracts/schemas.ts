import { z } from 'zod';
import type { CodedMessage } from '../errors/catalogue.ts';
import { codedIssue, codedText } from '../errors/zodIssues.ts';
import { INT_MAX } from '../resource/valueRules.ts';

/**
 * Input schemas shared by the contracts (packages/shared/src/contracts) and the server's own routes
 * (apps/server/src/crud/routeSchemas.ts re-exports them): the same messages on both sides of a contract.
 * Messages are catalogue codes (`codedText`, `codedIssue`), never text: a contract file holds no Chinese
 * message (contracts-no-text.test.ts).
 */

/** `codedText` of a catalogue message. */
const textOf = (m: CodedMessage) => codedText(m.code, m.params);
/** `codedIssue` of a catalogue message. */
const issueOf = (m: CodedMessage, input: unknown) => codedIssue(m.code, m.params, input);

/** An integer min..max (a number, or digits coerced from the query string); `message` otherwise. */
export function coercedInt(message: CodedMessage, min: number, max: number) {
  const m = textOf(message);
  return z.coerce.number(m).int(m).min(min, m).max(max, m);
}

/** An integer min..max given as a JSON number; `message` otherwise. */
export function jsonInt(message: CodedMessage, min: number, max: number) {
  const m = textOf(message);
  return z.number(m).int(m).min(min, m).max(max, m);
}

/** `page` of a hand-written list: 0-based, at most `max`. */
export const pageNumber = (max = 100_000) => coercedInt({ code: 'PAGE_NUMBER_INVALID' }, 0, max);
/** `size` of a hand-written list: 1..max. */
export const pageSize = (max = 100) => coercedInt({ code: 'PAGE_SIZE_RANGE', params: { max } }, 1, max);
/** A positive 32-bit id coerced from digits (path parameters, query values). */
export const positiveId = (message: CodedMessage = { code: 'ID_INVALID' }) => coercedInt(message, 1, INT_MAX);

const MONTH_RE = /^\d{4}-(0[1-9]|1[0-2])$/;
/** A month YYYY-MM; `missing` when the value is not text at all. */
export function monthText(missing: CodedMessage = { code: 'MONTH_FORMAT_INVALID' }) {
  return z.string(textOf(missing)).regex(MONTH_RE, codedText('MONTH_FORMAT_INVALID'));
}

/** Digits of a positive 32-bit id (path parameters, query values): 1..2^31-1, no signs, exponents or spaces. */
const ID_RE = /^\d{1,10}$/;

/** A positive id (1..2^31-1) as digits or a JSON integer; `message` otherwise. */
export function idSchema(message: CodedMessage = { code: 'ID_INVALID' }) {
  return z
    .union([z.string(), z.number()], textOf(message))
    .transform((raw, ctx) => {
      const v = typeof raw === 'number' ? raw : ID_RE.test(raw) ? Number(raw) : Number.NaN;
      if (Number.isInteger(v) && v >= 1 && v <= INT_MAX) return v;
      ctx.addIssue(issueOf(message, raw));
      return z.NEVER;
    })
    .meta({ type: 'integer', minimum: 1, maximum: INT_MAX });
}

/** A text without NUL characters (what every database stores), trimmed, at most `max` characters. */
export function safeText(label: string, max: number) {
  return z
    .string(codedText('FIELD_NOT_TEXT', { label }))
    .max(max, codedText('FIELD_TOO_LONG', { label, max }))
    .refine((s) => !s.includes('\u0000'), codedText('FIELD_NUL', { label }));
}

/** An optional id in a query string ('' or absent: none), 1..2^31-1; `message` otherwise. */
export function queryId(message: CodedMessage) {
  const id = idSchema(message);
  return z
    .unknown()
    .optional()
    .transform((raw, ctx) => {
      const v = Array.isArray(raw) ? raw[0] : raw;
      if (v === undefined || v === '') return undefined;
      const r = id.safeParse(v);
      if (r.success) return r.data;
      ctx.addIssue(issueOf(message, v));
      return z.NEVER;
    })
    .meta({ type: 'integer', minimum: 1, maximum: INT_MAX });
}

/** An optional text in a query string ('' or absent: none), at most `max` characters, no NUL; `message` otherwise. */
export function queryText(message: CodedMessage, max = 100) {
  return z
    .unknown()
    .optional()
    .transform((raw, ctx) => {
      const v = Array.isArray(raw) ? raw[0] : raw;
      if (v === undefined || v === '') return undefined;
      if (typeof v === 'string' && v.length <= max && !v.includes('\u0000')) return v;
      ctx.addIssue(issueOf(message, v));
      return z.NEVER;
    })
    .meta({ type: 'string', maxLength: max });
}

/**
 * The querystring fields a hand-written paged list reads (the server's parsePaging checks them), for a list's
 * `z.looseObject({ ...pagingQueryFields, <filters> })`: documented for the OpenAPI document, checked by the handler.
 */
export const pagingQueryFields = {
  page: z.unknown().optional().meta({ type: 'integer', minimum: 0 }),
  size: z.unknown().optional().meta({ type: 'integer', minimum: 1 }),
  sort: z.unknown().optional().meta({ type: 'string' }),
};

/** A JSON array of 1..1000 positive ids (bulk deletes); duplicates removed. */
export const idArrayBody = z
  .array(z.unknown(), codedText('DELETE_IDS_REQUIRED'))
  .min(1, codedText('DELETE_IDS_REQUIRED'))
  .max(1000, codedText('DELETE_TOO_MANY'))
  .pipe(z.array(idSchema()))
  .transform((ids) => [...new Set(ids)])
  .meta({ type: 'array', items: { type: 'integer', minimum: 1, maximum: INT_MAX }, minItems: 1, maxItems: 1000 });
