import { z } from 'zod';
import { INT_MAX } from '../resource/valueRules.ts';

/**
 * Input schemas shared by the contracts (packages/shared/src/contracts) and the server's own routes
 * (apps/server/src/crud/routeSchemas.ts re-exports them): the same messages on both sides of a contract.
 */

/** Digits of a positive 32-bit id (path parameters, query values): 1..2^31-1, no signs, exponents or spaces. */
const ID_RE = /^\d{1,10}$/;

/** A positive id (1..2^31-1) as digits or a JSON integer; `message` otherwise. */
export function idSchema(message = 'ID必须是正整数') {
  return z
    .union([z.string(), z.number()], { error: message })
    .transform((raw, ctx) => {
      const v = typeof raw === 'number' ? raw : ID_RE.test(raw) ? Number(raw) : Number.NaN;
      if (Number.isInteger(v) && v >= 1 && v <= INT_MAX) return v;
      ctx.addIssue({ code: 'custom', message, input: raw });
      return z.NEVER;
    })
    .meta({ type: 'integer', minimum: 1, maximum: INT_MAX });
}

/** A text without NUL characters (what every database stores), trimmed, at most `max` characters. */
export function safeText(label: string, max: number) {
  return z
    .string({ error: `${label}必须是文本` })
    .max(max, `${label}长度不能超过${max}个字符`)
    .refine((s) => !s.includes('\u0000'), `${label}不能包含空字符`);
}

/** An optional id in a query string ('' or absent: none), 1..2^31-1; `message` otherwise. */
export function queryId(message: string) {
  const id = idSchema(message);
  return z
    .unknown()
    .optional()
    .transform((raw, ctx) => {
      const v = Array.isArray(raw) ? raw[0] : raw;
      if (v === undefined || v === '') return undefined;
      const r = id.safeParse(v);
      if (r.success) return r.data;
      ctx.addIssue({ code: 'custom', message, input: v });
      return z.NEVER;
    })
    .meta({ type: 'integer', minimum: 1, maximum: INT_MAX });
}

/** An optional text in a query string ('' or absent: none), at most `max` characters, no NUL; `message` otherwise. */
export function queryText(message: string, max = 100) {
  return z
    .unknown()
    .optional()
    .transform((raw, ctx) => {
      const v = Array.isArray(raw) ? raw[0] : raw;
      if (v === undefined || v === '') return undefined;
      if (typeof v === 'string' && v.length <= max && !v.includes('\u0000')) return v;
      ctx.addIssue({ code: 'custom', message, input: v });
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
  .array(z.unknown(), { error: '请提供要删除的ID数组' })
  .min(1, '请提供要删除的ID数组')
  .max(1000, '一次最多删除1000条')
  .pipe(z.array(idSchema()))
  .transform((ids) => [...new Set(ids)])
  .meta({ type: 'array', items: { type: 'integer', minimum: 1, maximum: INT_MAX }, minItems: 1, maxItems: 1000 });
