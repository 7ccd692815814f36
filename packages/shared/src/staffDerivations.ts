/**
 * Values of a staff record that follow from other data: the ID card (sex, birth date, age), the census
 * type's rate dictionary (ratios), the company (bases and the work-injury ratio) and the contract end date
 * (reminder date). The server applies them on every write and the web dialog pre-fills with the same
 * functions, so both ends always agree.
 */
import type { CodedMessage } from './errors/catalogue.ts';
import { parseIdCard } from './idcard.ts';

/** Days before the contract end on which the reminder falls when the user gives no reminder date. */
export const CONTRACT_WARN_DAYS_BEFORE_END = 30;

/** Ratio fields filled from the census type's rate dictionary (entries labelled by these field names). */
export const RATE_DICTIONARY_RATIO_FIELDS = [
  'gjjRatio',
  'yanglaoRatioCompany',
  'yanglaoRatioSelf',
  'yiliaoRatioCompany',
  'yiliaoRatioSelf',
  'shiyeRatioCompany',
  'shiyeRatioSelf',
  'shengyuRatioCompany',
] as const;
export type RateRatioField = (typeof RATE_DICTIONARY_RATIO_FIELDS)[number];

/** Base fields of a staff record (yuan) and the company field each is copied from. */
export const STAFF_BASE_FROM_COMPANY = {
  gjjBase: 'gjjBase',
  yanglaoBase: 'yanglaoBase',
  yiliaoBase: 'yilaoBase',
  yiliaoBaseSelf: 'yilaoBaseSelf',
  shiyeBase: 'shiyeBase',
  gongshangBase: 'gongshangBase',
  shengyuBase: 'shengyuBase',
} as const;
export type StaffBaseField = keyof typeof STAFF_BASE_FROM_COMPANY;

/** Facts read from a valid ID card. */
export interface IdCardFacts {
  sex: '男' | '女';
  /** YYYY-MM-DD */
  born: string;
  age: number;
}

/** Sex, birth date and age from an ID card number, or null when the number is not valid; `today` fixes the age. */
export function fromIdCard(idCard: string | null | undefined, today?: string): IdCardFacts | null {
  if (typeof idCard !== 'string') return null;
  const parsed = parseIdCard(idCard, today);
  if (!parsed.ok) return null;
  return { sex: parsed.sex, born: parsed.born, age: parsed.age };
}

const RATIO_RE = /^\d+(\.\d{1,6})?$/;

/** A ratio from dictionary text ('0.08', ' 0.005 '), or null unless it is a plain decimal between 0 and 1. */
function ratioValue(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) && raw >= 0 && raw <= 1 ? raw : null;
  if (typeof raw !== 'string') return null;
  const s = raw.trim();
  if (!RATIO_RE.test(s)) return null;
  const v = Number(s);
  return v <= 1 ? v : null;
}

/**
 * The ratio fields of a census type's rate dictionary, whose entries are labelled by staff field names
 * (e.g. `{label: 'yanglaoRatioSelf', value: '0.08'}`). Entries that are not ratio fields (floors, fixed
 * amounts) or whose value is not a decimal between 0 and 1 are ignored.
 */
export function ratiosFromRateDictionary(entries: readonly { label: string; value: string }[]): Partial<Record<RateRatioField, number>> {
  const out: Partial<Record<RateRatioField, number>> = {};
  const wanted = new Set<string>(RATE_DICTIONARY_RATIO_FIELDS);
  for (const e of entries) {
    const name = e.label.trim();
    if (!wanted.has(name)) continue;
    const v = ratioValue(e.value);
    if (v !== null) out[name as RateRatioField] = v;
  }
  return out;
}

/** The company fields `basesFromCompany` reads. */
export interface CompanyBases {
  dispatchCompany?: string | null;
  gjjBase?: number | null;
  yanglaoBase?: number | null;
  yilaoBase?: number | null;
  yilaoBaseSelf?: number | null;
  shiyeBase?: number | null;
  gongshangBase?: number | null;
  shengyuBase?: number | null;
  gongshangRatioCompany?: number | null;
}

/** Bases copied from a company (yuan) plus the work-injury employer ratio. */
export type StaffBasesFromCompany = Partial<Record<StaffBaseField, number>> & { gongshangRatioCompany?: number };

/**
 * The insurance bases a staff record copies from its company, and the work-injury ratio looked up in the
 * `dispatch_company` dictionary by the company's dispatch-company label (the entry's value is the ratio).
 * The personal medical base falls back to the medical base; the ratio falls back to the company's own
 * stored ratio when the dispatch company is not in the dictionary. Missing values are left out.
 */
export function basesFromCompany(company: CompanyBases, dispatchCompanyEntries: readonly { label: string; value: string }[]): StaffBasesFromCompany {
  const out: StaffBasesFromCompany = {};
  for (const [staffField, companyField] of Object.entries(STAFF_BASE_FROM_COMPANY) as [StaffBaseField, keyof CompanyBases][]) {
    const v = company[companyField];
    if (typeof v === 'number' && Number.isFinite(v)) out[staffField] = v;
  }
  if (out.yiliaoBaseSelf === undefined && out.yiliaoBase !== undefined) out.yiliaoBaseSelf = out.yiliaoBase;
  const ratio = gongshangRatioOf(company.dispatchCompany, dispatchCompanyEntries) ?? ratioValue(company.gongshangRatioCompany);
  if (ratio !== null) out.gongshangRatioCompany = ratio;
  return out;
}

/** The work-injury employer ratio of a dispatch company (by dictionary label), or null when unknown. */
export function gongshangRatioOf(dispatchCompany: string | null | undefined, dispatchCompanyEntries: readonly { label: string; value: string }[]): number | null {
  if (!dispatchCompany) return null;
  const entry = dispatchCompanyEntries.find((e) => e.label.trim() === dispatchCompany.trim());
  return entry ? ratioValue(entry.value) : null;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The contract reminder date: `daysBefore` (default 30) days before the end date, or null for a bad date. */
export function contractWarnDate(contractEnd: string | null | undefined, daysBefore = CONTRACT_WARN_DAYS_BEFORE_END): string | null {
  if (typeof contractEnd !== 'string') return null;
  const m = DATE_RE.exec(contractEnd.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(y, mo - 1, d);
  const check = new Date(t);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  return new Date(t - daysBefore * 86_400_000).toISOString().slice(0, 10);
}

/** The contract date rule of spec §5: null when fine, else the message. Both dates YYYY-MM-DD. */
export function contractDatesError(contractStart: string | null | undefined, contractEnd: string | null | undefined): CodedMessage | null {
  if (contractStart && contractEnd && contractStart > contractEnd) return { code: 'CONTRACT_START_AFTER_END' };
  return null;
}
