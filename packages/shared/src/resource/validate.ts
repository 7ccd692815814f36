import type { FieldDef, ResourceDef } from './types.ts';
import { writableFields } from './types.ts';
import { parseIdCard } from '../idcard.ts';

/**
 * Field validation shared by the server (every write and every imported row) and the web forms, so a value
 * the dialog accepts is exactly a value the server accepts. Messages are the spec's Chinese texts.
 */

export type FieldResult = { ok: true; value: unknown } | { ok: false; message: string };

const DEFAULT_MAX_LENGTH: Partial<Record<FieldDef['kind'], number>> = {
  string: 255,
  dict: 255,
  text: 5000,
  phone: 20,
  email: 100,
  idCard: 18,
};
const MONEY_LIMIT_YUAN = 10_000_000_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH_RE = /^(\d{4})-(\d{2})$/;
const EMAIL_RE = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
const NUMBER_RE = /^-?\d+(\.\d+)?$/;

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

/** The message shown when a required field is missing. */
export function requiredMessage(field: FieldDef): string {
  return typeof field.required === 'string' ? field.required : `${field.label}不能为空`;
}

/** Is `s` a real calendar date YYYY-MM-DD? */
export function isValidDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1900 || y > 2200 || mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d <= days;
}

/** Is `s` a month YYYY-MM? */
export function isValidMonth(s: string): boolean {
  const m = MONTH_RE.exec(s);
  return !!m && Number(m[1]) >= 1900 && Number(m[1]) <= 2200 && Number(m[2]) >= 1 && Number(m[2]) <= 12;
}

function decimals(s: string): number {
  const i = s.indexOf('.');
  return i < 0 ? 0 : s.length - i - 1;
}

function toNumberString(raw: unknown): string | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? String(raw) : null;
  if (typeof raw === 'string') {
    const t = raw.trim().replace(/,/g, '');
    return NUMBER_RE.test(t) ? t : null;
  }
  return null;
}

/** Validate and normalise one value for a field. Empty optional values become null. */
export function validateField(field: FieldDef, raw: unknown): FieldResult {
  if (isEmpty(raw)) {
    if (field.required) return { ok: false, message: requiredMessage(field) };
    return { ok: true, value: field.kind === 'bool' ? (field.defaultValue ?? null) : null };
  }
  const label = field.label;
  switch (field.kind) {
    case 'string':
    case 'text':
    case 'dict':
    case 'phone':
    case 'email':
    case 'idCard': {
      if (typeof raw !== 'string' && typeof raw !== 'number') return { ok: false, message: `${label}必须是文本` };
      const s = String(raw).trim();
      const max = field.maxLength ?? DEFAULT_MAX_LENGTH[field.kind] ?? 255;
      if (s.length > max) return { ok: false, message: `${label}长度不能超过${max}个字符` };
      if (field.kind === 'email' && !EMAIL_RE.test(s)) return { ok: false, message: '请输入正确的邮箱地址' };
      if (field.kind === 'phone' && !/^[0-9+\-() ]{3,20}$/.test(s)) return { ok: false, message: `${label}格式不正确` };
      if (field.kind === 'idCard') {
        const parsed = parseIdCard(s);
        if (!parsed.ok) return { ok: false, message: '身份证号码不正确' };
        return checkPattern(field, parsed.idCard);
      }
      return checkPattern(field, s);
    }
    case 'int': {
      const n = toNumberString(raw);
      if (n === null || decimals(n) > 0 || !Number.isSafeInteger(Number(n))) return { ok: false, message: `${label}必须是整数` };
      return checkRange(field, Number(n));
    }
    case 'ref': {
      const n = toNumberString(raw);
      if (n === null || decimals(n) > 0 || Number(n) <= 0) return { ok: false, message: `${label}无效` };
      return { ok: true, value: Number(n) };
    }
    case 'money': {
      const n = toNumberString(raw);
      if (n === null) return { ok: false, message: `${label}必须是数字` };
      if (decimals(n) > 2) return { ok: false, message: `${label}最多两位小数` };
      const v = Number(n);
      if (Math.abs(v) >= MONEY_LIMIT_YUAN) return { ok: false, message: `${label}金额过大` };
      return checkRange(field, v, 0);
    }
    case 'ratio': {
      const n = toNumberString(raw);
      if (n === null) return { ok: false, message: `${label}必须是数字` };
      if (decimals(n) > 6) return { ok: false, message: `${label}最多六位小数` };
      const v = Number(n);
      if (v < 0 || v > 1) return { ok: false, message: `${label}必须在0到1之间` };
      return { ok: true, value: v };
    }
    case 'date': {
      const s = typeof raw === 'string' ? raw.trim().slice(0, 10) : '';
      if (!isValidDate(s)) return { ok: false, message: `${label}日期格式应为YYYY-MM-DD` };
      return { ok: true, value: s };
    }
    case 'month': {
      const s = typeof raw === 'string' ? raw.trim() : '';
      if (!isValidMonth(s)) return { ok: false, message: `${label}月份格式应为YYYY-MM` };
      return { ok: true, value: s };
    }
    case 'datetime': {
      const s = typeof raw === 'string' ? raw.trim() : '';
      if (Number.isNaN(Date.parse(s))) return { ok: false, message: `${label}时间格式不正确` };
      return { ok: true, value: s };
    }
    case 'bool': {
      if (raw === true || raw === 'true' || raw === 1 || raw === '1') return { ok: true, value: true };
      if (raw === false || raw === 'false' || raw === 0 || raw === '0') return { ok: true, value: false };
      return { ok: false, message: `${label}必须是是或否` };
    }
  }
}

function checkPattern(field: FieldDef, s: string): FieldResult {
  if (field.pattern && !field.pattern.regex.test(s)) return { ok: false, message: field.pattern.message };
  return { ok: true, value: s };
}

function checkRange(field: FieldDef, v: number, defaultMin?: number): FieldResult {
  const min = field.min ?? defaultMin;
  if (min !== undefined && v < min) return { ok: false, message: `${field.label}不能小于${min}` };
  if (field.max !== undefined && v > field.max) return { ok: false, message: `${field.label}不能大于${field.max}` };
  return { ok: true, value: v };
}

export interface RecordResult {
  value: Record<string, unknown>;
  /** Field name -> message; empty when valid. */
  errors: Record<string, string>;
}

/**
 * Validate a whole create/update body against the definition. Unknown keys are dropped; server-managed
 * (readOnly) fields are ignored; missing optional fields take their default on create.
 */
export function validateRecord(def: ResourceDef, input: unknown, mode: 'create' | 'update'): RecordResult {
  const errors: Record<string, string> = {};
  const value: Record<string, unknown> = {};
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { value, errors: { _: '请求体必须是JSON对象' } };
  }
  const body = input as Record<string, unknown>;
  for (const field of writableFields(def)) {
    let raw = body[field.name];
    if (raw === undefined && mode === 'create' && field.defaultValue !== undefined) raw = field.defaultValue;
    if (raw === undefined && mode === 'update' && !field.required) continue;
    const r = validateField(field, raw);
    if (r.ok) value[field.name] = r.value;
    else errors[field.name] = r.message;
  }
  if (mode === 'update') {
    const idField = def.fields.find((f) => f.name === 'id') ?? { name: 'id', kind: 'ref', label: 'ID' };
    const r = validateField({ ...idField, kind: 'ref', required: 'ID不能为空' } as FieldDef, body.id);
    if (r.ok) value.id = r.value;
    else errors.id = r.message;
  }
  return { value, errors };
}
