import { z } from 'zod';
import type { CodedMessage } from '../errors/catalogue.ts';
import { codedIssue, codedRule, codedText } from '../errors/zodIssues.ts';
import type { FieldDef, FieldKind } from './types.ts';
import { hasNul, INT_MAX } from './valueRules.ts';

/** Building blocks of the input schemas of the kind registry (kinds.ts): numbers as text, texts, patterns, ranges, ids. */

const NUMBER_RE = /^-?\d+(\.\d+)?$/;

export function decimals(s: string): number {
  const i = s.indexOf('.');
  return i < 0 ? 0 : s.length - i - 1;
}

/** A number, or a numeric text (thousands separators allowed, no exponent), as its plain decimal text. */
export function numberText(message: CodedMessage) {
  return z.union([z.number(), z.string()], codedText(message.code, message.params)).transform((raw, ctx) => {
    const t = typeof raw === 'number' ? String(raw) : raw.trim().replace(/,/g, '');
    if (NUMBER_RE.test(t)) return t;
    ctx.addIssue(codedIssue(message.code, message.params, raw));
    return z.NEVER;
  });
}

const DEFAULT_MAX_LENGTH: Partial<Record<FieldKind, number>> = { string: 255, dict: 255, text: 5000, phone: 20, email: 100, idCard: 18 };

/** The longest text a field accepts. */
export function maxLengthOf(field: FieldDef): number {
  return field.maxLength ?? DEFAULT_MAX_LENGTH[field.kind] ?? 255;
}

/** Text kinds: text or a number as text, trimmed, at most maxLength characters, no NUL. */
export function textInput(field: FieldDef, extra?: (s: z.ZodString) => z.ZodString) {
  const max = maxLengthOf(field);
  const label = field.label;
  let s = z
    .string()
    .max(max, codedText('FIELD_TOO_LONG', { label, max }))
    .refine((v) => !hasNul(v), codedRule('FIELD_NUL', { label }));
  if (extra) s = extra(s);
  return z
    .union([z.string(), z.number()], codedText('FIELD_NOT_TEXT', { label }))
    .transform((v) => String(v).trim())
    .pipe(s);
}

/** The field's own pattern; its message is the definition's sentence, carried as FIELD_PATTERN_TEXT. */
export function withPattern<T extends z.ZodType<string>>(field: FieldDef, schema: T) {
  const p = field.pattern;
  return p ? schema.refine((v) => p.regex.test(v), codedRule('FIELD_PATTERN_TEXT', { text: p.message })) : schema;
}

/** Minimum and maximum of a number field; `defaults` are the storage bounds (messages name them). */
export function inRange(field: FieldDef, v: number, ctx: z.RefinementCtx, defaults: { min?: number; max?: number }): boolean {
  const min = field.min ?? defaults.min;
  const max = field.max ?? defaults.max;
  if (min !== undefined && v < min) ctx.addIssue(codedIssue('FIELD_MIN', { label: field.label, min }, v));
  else if (max !== undefined && v > max) ctx.addIssue(codedIssue('FIELD_MAX', { label: field.label, max }, v));
  else return true;
  return false;
}

/** A positive id (1..2^31-1) given as a number or digits; `message` for anything else. */
export function idInput(message: CodedMessage) {
  return numberText(message).transform((n, ctx) => {
    const v = Number(n);
    if (decimals(n) > 0 || v <= 0 || v > INT_MAX) {
      ctx.addIssue(codedIssue(message.code, message.params, n));
      return z.NEVER;
    }
    return v;
  });
}

/** Most links one body may set (a role's menus are a few hundred). */
export const MAX_LINKS = 2000;

/**
 * `[{id}, ...]` or `[id, ...]` to distinct positive ids, in the order given; `message` for anything else
 * (the users' roles and roles' departments bodies of the spec, §7).
 */
export function idListInput(message: CodedMessage) {
  return z.unknown().transform((raw, ctx) => {
    if (!Array.isArray(raw)) {
      ctx.addIssue(codedIssue(message.code, message.params, raw));
      return z.NEVER;
    }
    if (raw.length > MAX_LINKS) {
      ctx.addIssue(codedIssue('LINKS_TOO_MANY', { max: MAX_LINKS }, raw));
      return z.NEVER;
    }
    const ids = new Set<number>();
    for (const item of raw) {
      const id = item !== null && typeof item === 'object' ? (item as { id?: unknown }).id : item;
      const s = typeof id === 'number' || typeof id === 'string' ? String(id) : '';
      if (!/^\d{1,10}$/.test(s) || Number(s) <= 0 || Number(s) > INT_MAX) {
        ctx.addIssue(codedIssue(message.code, message.params, raw));
        return z.NEVER;
      }
      ids.add(Number(s));
    }
    return [...ids];
  });
}
