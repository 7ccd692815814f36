/**
 * zod issues as catalogue messages, in one place for the server's route validation and the web's forms: a
 * check of ours raises a custom issue that carries its code (`codedIssue`), and zod's own checks (type, size,
 * format, unknown keys) are mapped to catalogue codes here, so no screen shows zod's English text
 * ("Invalid input: expected number, received NaN") and each language renders the same code.
 */
import { z } from 'zod';
import { type CodedMessage, type ErrorCode, type ErrorParams, isErrorCode, renderError } from './catalogue.ts';

/** A field's message: a catalogue code with its parameters. */
export type FieldMessage = CodedMessage;

/** The key under a custom issue's `params` that holds its catalogue message. */
const CATALOGUE_KEY = 'catalogueMessage';

/**
 * The fields of a custom zod issue for `ctx.addIssue`: the catalogue code and parameters travel in `params`,
 * `message` is the Chinese text (what a reader of the raw issue sees).
 */
export function codedIssue(code: ErrorCode, params: ErrorParams = {}, input?: unknown) {
  const catalogueMessage: CodedMessage = { code, params };
  return { code: 'custom' as const, message: renderError(code, params, 'zh'), params: { [CATALOGUE_KEY]: catalogueMessage }, input };
}

/** The second argument of `.refine(check, …)` for a check whose message is a catalogue code. */
export function codedRule(code: ErrorCode, params: ErrorParams = {}) {
  const catalogueMessage: CodedMessage = { code, params };
  return { message: renderError(code, params, 'zh'), params: { [CATALOGUE_KEY]: catalogueMessage } };
}

/**
 * A schema's or a check's own message as a catalogue code: `z.string({ ...codedText('MONTH_REQUIRED') })`,
 * `.min(1, codedText(…))`, `.regex(re, codedText(…))`, `.refine(fn, codedText(…))`. zod keeps only the text an
 * `error` gives, so the error function also stamps the code on the issue it is asked about (zod copies the
 * issue's own keys, `params` among them, after asking); the text is the Chinese message as before.
 * zodIssues.test.ts fails if a zod release stops carrying the stamp.
 */
export function codedText(code: ErrorCode, params: ErrorParams = {}) {
  const catalogueMessage: CodedMessage = { code, params };
  const zh = renderError(code, params, 'zh');
  return {
    error: (issue: object): string => {
      const raw = issue as { params?: Record<string, unknown> };
      raw.params = { ...raw.params, [CATALOGUE_KEY]: catalogueMessage };
      return zh;
    },
  };
}

/** The catalogue message a coded issue carries (codedIssue, codedRule, codedText), if any. */
function carriedMessage(issue: z.core.$ZodIssue): CodedMessage | undefined {
  const carried = ('params' in issue ? (issue.params as Record<string, unknown> | undefined) : undefined)?.[CATALOGUE_KEY] as CodedMessage | undefined;
  return carried && isErrorCode(carried.code) ? carried : undefined;
}

/** The value at `path` inside `root` (undefined when any step is missing). */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

const TYPE_CODES: Partial<Record<string, ErrorCode>> = {
  number: 'FIELD_NUMBER',
  int: 'FIELD_INTEGER',
  bigint: 'FIELD_INTEGER',
  string: 'FIELD_NOT_TEXT',
  boolean: 'FIELD_BOOLEAN',
  date: 'FIELD_DATE',
  object: 'FIELD_NOT_OBJECT',
  record: 'FIELD_NOT_OBJECT',
  array: 'FIELD_NOT_LIST',
  tuple: 'FIELD_NOT_LIST',
  set: 'FIELD_NOT_LIST',
};

/** The catalogue message of one of zod's own checks; `missing` when the value was absent. */
function nativeMessage(issue: z.core.$ZodIssue, missing: boolean): CodedMessage {
  const label = issue.path.map(String).join('.');
  if (!label) {
    if (issue.code === 'invalid_type' && issue.expected === 'object') return { code: 'BODY_NOT_OBJECT' };
    if (issue.code === 'unrecognized_keys') return { code: 'UNKNOWN_PARAMETERS', params: { keys: issue.keys.join(', ') } };
    return { code: 'VALIDATION' };
  }
  switch (issue.code) {
    case 'invalid_type':
      return missing ? { code: 'FIELD_MISSING', params: { label } } : { code: TYPE_CODES[issue.expected] ?? 'FIELD_INVALID', params: { label } };
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? { code: 'FIELD_REQUIRED', params: { label } } : { code: 'FIELD_TOO_SHORT', params: { label, min: Number(issue.minimum) } };
      if (issue.origin === 'array' || issue.origin === 'set') return { code: 'FIELD_TOO_FEW', params: { label, min: Number(issue.minimum) } };
      return { code: 'FIELD_MIN', params: { label, min: Number(issue.minimum) } };
    case 'too_big':
      if (issue.origin === 'string') return { code: 'FIELD_TOO_LONG', params: { label, max: Number(issue.maximum) } };
      if (issue.origin === 'array' || issue.origin === 'set') return { code: 'FIELD_TOO_MANY', params: { label, max: Number(issue.maximum) } };
      return { code: 'FIELD_MAX', params: { label, max: Number(issue.maximum) } };
    case 'invalid_format':
      return { code: 'FIELD_FORMAT', params: { label } };
    case 'unrecognized_keys':
      return { code: 'UNKNOWN_PARAMETERS', params: { keys: issue.keys.map((k) => `${label}.${k}`).join(', ') } };
    default:
      // invalid_value (enum, literal), invalid_union, not_multiple_of, invalid_key, invalid_element
      return { code: 'FIELD_INVALID', params: { label } };
  }
}

const zhOf = (m: CodedMessage) => renderError(m.code, m.params ?? {}, 'zh');

// zod's own messages are the catalogue's Chinese text, for every parse of the process (server and web alike);
// a schema's own `error` still wins. `issueMessage` gives the code back.
z.config({
  customError: (raw) => {
    if (raw.code === 'custom') return undefined;
    const issue = { ...raw, path: raw.path ?? [] } as z.core.$ZodIssue;
    return zhOf(nativeMessage(issue, 'input' in raw && raw.input === undefined));
  },
});

/**
 * The message of one zod issue: the code a custom issue carries (codedIssue, codedRule, codedText), else the
 * code of the check zod ran. `root` is the parsed value: a value missing there reads as a missing parameter.
 * Labels of zod's own checks are the value's path (on contract routes the parameter's API name); our checks
 * name the field by its label. A check of ours that states plain text instead of a code has nothing to carry:
 * its message becomes the code of the kind of check it is (zodIssues.test.ts shows it), so a check says its
 * message through codedText / codedRule / codedIssue.
 */
export function issueMessage(issue: z.core.$ZodIssue, root?: unknown): FieldMessage {
  const carried = carriedMessage(issue);
  if (carried) return carried;
  const missing = root !== undefined && valueAt(root, issue.path) === undefined;
  if (issue.code === 'custom') return nativeMessage(issue, missing);
  const candidates = [nativeMessage(issue, missing), nativeMessage(issue, true), nativeMessage(issue, false)];
  return candidates.find((m) => zhOf(m) === issue.message) ?? candidates[0];
}

/** A field message in Chinese (the server's logs and the import error files). */
export function zhText(m: FieldMessage): string {
  return renderError(m.code, m.params ?? {}, 'zh');
}

/** The first issue's message of a failed parse. */
export function firstIssueMessage(error: z.ZodError, root?: unknown): FieldMessage {
  const first = error.issues[0];
  return first ? issueMessage(first, root) : { code: 'VALIDATION' };
}

/** Field name -> first message of a failed parse (`_` for the value as a whole). */
export function issueMessagesByField(error: z.ZodError, root?: unknown): Record<string, FieldMessage> {
  const out: Record<string, FieldMessage> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : '_';
    // own keys only: a field named `constructor` or `toString` is not already "in" every object
    if (!Object.hasOwn(out, key)) out[key] = issueMessage(issue, root);
  }
  return out;
}
