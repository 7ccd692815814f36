import { z } from 'zod';
import type { CodedMessage } from '../errors/catalogue.ts';
import { codedIssue, codedText, type FieldMessage, firstIssueMessage, issueMessagesByField, zhText } from '../errors/zodIssues.ts';
import { idInput, maxLengthOf } from './inputSchemas.ts';
import { FIELD_KINDS, kindOf } from './kinds.ts';
import type { FieldDef, ResourceDef } from './types.ts';
import { writableFields } from './types.ts';

/**
 * zod schemas generated from a resource definition, shared by the server (route schemas, imports) and the web
 * forms, so a value the dialog accepts is exactly a value the server accepts. Messages are the spec's Chinese
 * texts (see FIELD_KINDS); a failed parse reports, per field, the first message.
 */

/** A field's check: the value, or the message (as a catalogue code where it has one) and its Chinese text. */
export type FieldResult = { ok: true; value: unknown } | { ok: false; error: FieldMessage; message: string };

/**
 * The message shown when a required field is missing: the definition's own sentence (`required: '请输入员工姓名'`,
 * spec-binding in Chinese, translated with the definitions' labels), or `<label>不能为空`.
 */
export function requiredMessage(field: FieldDef): CodedMessage {
  return typeof field.required === 'string' ? { code: 'FIELD_REQUIRED_TEXT', params: { text: field.required } } : { code: 'FIELD_REQUIRED', params: { label: field.label } };
}

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

/** First message of a failed parse, in Chinese (zod's own checks through the catalogue, errors/zodIssues.ts). */
export function firstMessage(error: z.ZodError): string {
  return zhText(firstIssueMessage(error));
}

const inputs = new WeakMap<FieldDef, z.ZodType>();
/** The zod schema of a non-empty value of a field (its kind's rules plus the field's own), built once per field. */
export function inputOf(field: FieldDef): z.ZodType {
  let s = inputs.get(field);
  if (!s) {
    s = kindOf(field).input(field);
    inputs.set(field, s);
  }
  return s;
}

/**
 * Is `field` required for a row whose condition field (`optionalWhen.field`) points to a row labelled
 * `conditionLabel`? Fields without `optionalWhen` are required per `required`.
 */
export function requiredGiven(field: FieldDef, conditionLabel: string | null | undefined): boolean {
  if (!field.required) return false;
  if (!field.optionalWhen) return true;
  return !(typeof conditionLabel === 'string' && field.optionalWhen.labels.includes(conditionLabel));
}

/** Is a value empty (absent, null, blank text)? Empty values of optional fields are stored as null. */
export function isEmptyValue(v: unknown): boolean {
  return isEmpty(v);
}

/** Validate and normalise one value for a field. Empty optional values become null. */
export function validateField(field: FieldDef, raw: unknown): FieldResult {
  if (isEmpty(raw)) {
    // a field with `optionalWhen` is checked where its condition's label is known (requiredGiven)
    if (field.required && !field.optionalWhen) return { ok: false, error: requiredMessage(field), message: zhText(requiredMessage(field)) };
    return { ok: true, value: kindOf(field).emptyIsDefault ? (field.defaultValue ?? null) : null };
  }
  const r = inputOf(field).safeParse(raw);
  if (r.success) return { ok: true, value: r.data };
  const error = firstIssueMessage(r.error);
  return { ok: false, error, message: zhText(error) };
}

/** OpenAPI description of a field's input, merged into the generated JSON schema. */
function docOf(field: FieldDef, nullable: boolean): Record<string, unknown> {
  const spec = kindOf(field);
  const doc: Record<string, unknown> = { description: field.label, ...spec.doc };
  if (spec.text) doc.maxLength = maxLengthOf(field);
  if (field.min !== undefined) doc.minimum = field.min;
  if (field.max !== undefined) doc.maximum = field.max;
  if (field.defaultValue !== undefined && field.defaultValue !== null) doc.default = field.defaultValue;
  if (nullable) doc.nullable = true;
  return doc;
}

/** One field of a create/update body: defaults, the required rule, then the kind's schema. */
function bodyField(field: FieldDef, mode: 'create' | 'update'): z.ZodType {
  const core = inputOf(field);
  const required = !!field.required && !field.optionalWhen;
  const message = requiredMessage(field);
  const empty = kindOf(field).emptyIsDefault ? (field.defaultValue ?? null) : null;
  const fallback = mode === 'create' ? field.defaultValue : undefined;
  return z
    .unknown()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) {
        if (fallback !== undefined) raw = fallback;
        else if (mode === 'update' && !required) return undefined;
      }
      if (isEmpty(raw)) {
        if (!required) return empty;
        ctx.addIssue(codedIssue(message.code, message.params, raw));
        return z.NEVER;
      }
      const r = core.safeParse(raw);
      if (r.success) return r.data;
      // the field's first issue, passed on with its catalogue code
      const m = firstIssueMessage(r.error);
      ctx.addIssue(typeof m === 'string' ? { code: 'custom', message: m, input: raw } : codedIssue(m.code, m.params, raw));
      return z.NEVER;
    })
    .meta(docOf(field, !required));
}

/** The largest filter text a list accepts. */
export const MAX_FILTER_LENGTH = 100;

const filterInputs = new WeakMap<FieldDef, z.ZodType>();
/** The schema of an exact filter value: the kind's rules without the field's pattern (ID cards as plain text). */
function filterInputOf(field: FieldDef): z.ZodType {
  let s = filterInputs.get(field);
  if (!s) {
    const plain: FieldDef = { ...field, required: false, pattern: undefined, kind: kindOf(field).filterAs ?? field.kind };
    s = kindOf(plain).input(plain);
    filterInputs.set(field, s);
  }
  return s;
}

const firstOf = (v: unknown) => (Array.isArray(v) ? v[0] : v);

/**
 * A declared list filter from the query string: fuzzy (`like`) filters of text kinds stay text, exact ones
 * are checked by the field's kind and come out as API values. Absent or empty values come out undefined.
 */
export function filterSchema(field: FieldDef): z.ZodType {
  let s = filterSchemas.get(field);
  if (!s) filterSchemas.set(field, (s = buildFilter(field)));
  return s;
}
const filterSchemas = new WeakMap<FieldDef, z.ZodType>();

function buildFilter(field: FieldDef): z.ZodType {
  const like = field.filter === 'like' && kindOf(field).text;
  const label = field.label;
  const core = like ? undefined : filterInputOf(field);
  return z
    .unknown()
    .optional()
    .transform((v, ctx) => {
      const raw = firstOf(v);
      if (raw === undefined || raw === null || raw === '') return undefined;
      const invalid: CodedMessage = { code: 'FILTER_INVALID', params: { label } };
      let message: CodedMessage;
      // (numbers and booleans: a value this schema already parsed, checked again)
      if (typeof raw === 'object' || typeof raw === 'function') message = invalid;
      else if (typeof raw === 'string' && raw.length > MAX_FILTER_LENGTH) message = { code: 'FILTER_TOO_LONG', params: { label } };
      else if (core) {
        const r = core.safeParse(raw);
        if (r.success) return r.data;
        // the kind's own reason travels as a nested message, rendered in the answer's language
        message = { code: 'FILTER_INVALID_REASON', params: { label, reason: firstIssueMessage(r.error) } };
      } else if (typeof raw !== 'string' || raw.includes('\u0000')) message = invalid;
      else return raw;
      ctx.addIssue(codedIssue(message.code, message.params, raw));
      return z.NEVER;
    })
    .meta({ type: 'string', maxLength: MAX_FILTER_LENGTH, description: `${field.label}（${like ? '模糊匹配' : '精确匹配'}）` });
}

// ---- paging ---------------------------------------------------------------------------------------------------

function pagingNumber(code: 'PAGE_INVALID' | 'SIZE_INVALID', min: number) {
  return z
    .unknown()
    .optional()
    .transform((v, ctx) => {
      const raw = firstOf(v);
      if (raw === undefined || raw === '') return undefined;
      const ok = typeof raw === 'number' ? Number.isInteger(raw) && raw >= min && raw < 1e9 : typeof raw === 'string' && /^\d{1,9}$/.test(raw) && Number(raw) >= min;
      if (ok) return Number(raw);
      ctx.addIssue(codedIssue(code, {}, raw));
      return z.NEVER;
    })
    .meta({ type: 'integer', minimum: min });
}

/** `page` (0-based) and `size` of a list; the size cap is the server's. */
export const pageSchema = pagingNumber('PAGE_INVALID', 0);
export const sizeSchema = pagingNumber('SIZE_INVALID', 1);

/** Can a list be sorted by the field? Every field but secrets, long texts and `sortable: false`. */
export function isSortableField(f: FieldDef): boolean {
  // (link-table fields have no column to sort by)
  return f.sortable !== false && !f.secret && kindOf(f).sql !== 'text' && kindOf(f).sql !== null;
}

/** Sort fields of a definition (API names). */
export function sortableNames(def: ResourceDef): string[] {
  return def.fields.filter(isSortableField).map((f) => f.name);
}

/** Repeatable `sort=field,dir` over the given field names; comes out as a list of `field,dir` texts. */
export function sortSchema(names: Iterable<string>): z.ZodType {
  const allowed = new Set(names);
  return z
    .unknown()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const list = Array.isArray(v) ? v : [v];
      const out: string[] = [];
      for (const s of list) {
        if (typeof s !== 'string' || s === '') continue;
        const [field, dirRaw = 'asc'] = s.split(',');
        const dir = dirRaw.trim().toLowerCase();
        let message: CodedMessage | undefined;
        if (!allowed.has(field.trim())) message = { code: 'SORT_FIELD', params: { value: field.slice(0, 50) } };
        else if (dir !== 'asc' && dir !== 'desc') message = { code: 'SORT_DIRECTION', params: { value: dirRaw.slice(0, 20) } };
        if (message) {
          ctx.addIssue(codedIssue(message.code, message.params, s));
          return z.NEVER;
        }
        out.push(`${field.trim()},${dir}`);
      }
      return out;
    })
    .meta({ type: 'array', items: { type: 'string', description: `字段,asc|desc；字段：${[...allowed].join('、')}` } });
}

/** The multi-column fuzzy filter `blurry`. */
export const blurrySchema = z
  .unknown()
  .optional()
  .transform((v, ctx) => {
    const raw = firstOf(v);
    if (typeof raw !== 'string' || raw === '') return undefined;
    if (raw.length > MAX_FILTER_LENGTH) ctx.addIssue(codedIssue('SEARCH_TOO_LONG', {}, raw));
    else if (raw.includes('\u0000')) ctx.addIssue(codedIssue('SEARCH_INVALID', {}, raw));
    else return raw;
    return z.NEVER;
  })
  .meta({ type: 'string', maxLength: MAX_FILTER_LENGTH, description: '模糊搜索' });

// ---- whole definitions -----------------------------------------------------------------------------------------

export type SchemaMode = 'create' | 'update' | 'query' | 'row';

function build(def: ResourceDef, mode: SchemaMode): z.ZodType {
  if (mode === 'row') return rowSchema(def);
  if (mode === 'query') {
    const shape: Record<string, z.ZodType> = { page: pageSchema, size: sizeSchema, sort: sortSchema(sortableNames(def)) };
    for (const f of def.fields) if (f.filter) shape[f.name] = filterSchema(f);
    if (def.blurry) shape.blurry = blurrySchema;
    // other parameters pass through to the routes' own filters
    return z.looseObject(shape);
  }
  const shape: Record<string, z.ZodType> = {};
  for (const f of writableFields(def)) shape[f.name] = bodyField(f, mode);
  if (mode === 'update') {
    const idLabel = def.fields.find((f) => f.name === 'id')?.label ?? 'ID';
    shape.id = z
      .unknown()
      .optional()
      .transform((raw, ctx) => {
        if (isEmpty(raw)) {
          ctx.addIssue(codedIssue('FIELD_REQUIRED', { label: 'ID' }, raw));
          return z.NEVER;
        }
        return raw;
      })
      .pipe(idInput({ code: 'FIELD_INVALID', params: { label: idLabel } }))
      .meta({ type: 'integer', minimum: 1, maximum: 2147483647 });
  }
  return z.object(shape, codedText('BODY_NOT_OBJECT'));
}

const built = new WeakMap<ResourceDef, Partial<Record<SchemaMode, z.ZodType>>>();

/**
 * The zod schema of a definition: `create` / `update` bodies (writable fields, defaults and required rules;
 * update needs `id`), the list `query` (page, size, sort, declared filters, blurry; other parameters pass
 * through) and the `row` the API returns (non-secret fields). Built once per definition and mode.
 */
export function schemaOf<D extends ResourceDef>(def: D, mode: 'row'): z.ZodType<RowOf<D>>;
export function schemaOf(def: ResourceDef, mode: 'create' | 'update' | 'query'): z.ZodType<Record<string, unknown>, unknown>;
export function schemaOf(def: ResourceDef, mode: SchemaMode): z.ZodType;
export function schemaOf(def: ResourceDef, mode: SchemaMode): z.ZodType {
  let byMode = built.get(def);
  if (!byMode) built.set(def, (byMode = {}));
  return (byMode[mode] ??= build(def, mode));
}

function rowSchema(def: ResourceDef): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const f of def.fields) if (!f.secret) shape[f.name] = (FIELD_KINDS[f.kind].api as z.ZodType).nullish().meta({ description: f.label });
  // routes add computed fields (names of referenced rows, nested objects) beside the declared ones
  return z.looseObject(shape);
}

export interface RecordResult {
  value: Record<string, unknown>;
  /** Field name -> message (`_` for the body as a whole); empty when valid. */
  errors: Record<string, FieldMessage>;
}

/**
 * Validate a whole create/update body against the definition (its `schemaOf`). Unknown keys are dropped;
 * server-managed (readOnly) fields are ignored; missing optional fields take their default on create.
 */
export function validateRecord(def: ResourceDef, input: unknown, mode: 'create' | 'update'): RecordResult {
  const r = schemaOf(def, mode).safeParse(input);
  if (r.success) return { value: r.data as Record<string, unknown>, errors: {} };
  return { value: {}, errors: issueMessagesByField(r.error) };
}

// ---- types -----------------------------------------------------------------------------------------------------

type Kinds = typeof FIELD_KINDS;
type FieldsOf<D extends ResourceDef> = D['fields'][number];
/** The API value of a field of kind K. */
export type ApiValueOf<K extends keyof Kinds> = z.output<Kinds[K]['api']>;

/** A row as the API returns it: every non-secret field of the definition, null when unset. */
export type RowOf<D extends ResourceDef> = {
  [F in FieldsOf<D> as F extends { secret: true } ? never : F['name']]: ApiValueOf<F['kind']> | null;
};
