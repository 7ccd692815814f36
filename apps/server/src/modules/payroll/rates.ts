import { PayrollInputError, type PayrollRates, RateError, type RateBook, type RateVersion, type RoundingRule, yuanToFen } from '@app/shared/payroll';
import { isValidMonth } from '@app/shared/resource';
import { RATE_DICTIONARY_RATIO_FIELDS, type RateRatioField } from '@app/shared/staffDerivations';
import type { Db } from '../../core/db.ts';

/**
 * Social-insurance and housing-fund rates from the dictionaries.
 *
 * The `census_type` dictionary maps a census-type label (本农 ...) to the name of its rate dictionary
 * (bennong ...), which is also the value staff rows store. A rate dictionary holds entries labelled
 *   yanglaoRatioCompany, yanglaoRatioSelf, yiliaoRatioCompany, yiliaoRatioSelf, shiyeRatioCompany,
 *   shiyeRatioSelf, shengyuRatioCompany, gjjRatio            (ratios, e.g. 0.08)
 *   yiliaoFixedSelf                                         (yuan per month, Beijing 3)
 *   baseFloor, baseCeiling, gjjBaseFloor, gjjBaseCeiling    (yuan; required)
 *   yanglaoBaseFloor, yiliaoBaseCeiling, ...                (yuan; optional per-item overrides)
 *   roundingSI, roundingHF                                  (optional, 'HALF_UP:2' = mode:scale)
 *   effectiveMonth                                          (YYYY-MM)
 *   averageWageAnnual                                       (yuan per year, optional: 当地上年职工平均工资 for the
 *                                                            经济补偿金 exemption, 财税〔2018〕164号)
 *
 * Versions: the dictionary `bennong` holds one set of figures and older or newer sets live in dictionaries
 * named `bennong@YYYY-MM`. A version takes effect from its `effectiveMonth` entry, or else from the month in
 * its name; a version without either applies from the beginning of time. For a salary month the latest
 * version whose effective month is <= that month wins (two versions with the same effective month are a
 * configuration error). So a July base change is entered as a new dictionary `bennong@2026-07` without
 * touching the figures the earlier months were calculated with.
 *
 * Money limits are yuan in the dictionary and fen here. Nothing missing or unreadable becomes 0: a
 * missing required entry is a {@link RateError} naming the dictionary and the entry.
 */

// The engine's rate types live with it (@app/shared/payroll); the loading code here and its callers share them.
export { RateError, type RateBook, type RateVersion };

/** The ratio entries of a rate dictionary are labelled by the staff fields they fill. */
const RATIO_ENTRIES = RATE_DICTIONARY_RATIO_FIELDS;
type RatioEntry = RateRatioField;

const ROUNDING_RE = /^(HALF_UP|UP|DOWN):([012])$/;
const RATIO_RE = /^(?:0(?:\.\d{1,8})?|1(?:\.0{1,8})?|\.\d{1,8})$/;

/** Parses 'HALF_UP:2' style rounding entries. */
export function parseRounding(value: string, dict: string): RoundingRule {
  const m = ROUNDING_RE.exec(value.trim().toUpperCase());
  if (!m) throw new RateError('RATE_ROUNDING_INVALID', { dict, value });
  return { mode: m[1] as RoundingRule['mode'], scale: Number(m[2]) as RoundingRule['scale'] };
}

function fenEntry(entries: Map<string, string>, entry: string, dict: string, required: boolean): number | null {
  const raw = entries.get(entry);
  if (raw === undefined || raw.trim() === '') {
    if (required) throw new RateError('RATE_ENTRY_MISSING', { dict, entry });
    return null;
  }
  try {
    const fen = yuanToFen(raw.trim(), entry);
    if (fen < 0) throw new RateError('RATE_ENTRY_NEGATIVE', { dict, entry });
    return fen;
  } catch (err) {
    if (err instanceof PayrollInputError) throw new RateError('RATE_ENTRY_NOT_AMOUNT', { dict, entry, value: raw });
    throw err;
  }
}

/** Builds the engine's rates of one dictionary version from its entries (label -> value). */
export function buildRateVersion(dictName: string, effectiveMonth: string | null, entries: Map<string, string>): RateVersion {
  const ratios: Partial<Record<RatioEntry, string>> = {};
  for (const label of RATIO_ENTRIES) {
    const raw = entries.get(label)?.trim();
    if (raw === undefined || raw === '') continue;
    if (!RATIO_RE.test(raw)) throw new RateError('RATE_ENTRY_NOT_RATIO', { dict: dictName, entry: label, value: raw });
    ratios[label] = raw;
  }
  const floor = fenEntry(entries, 'baseFloor', dictName, true);
  const ceiling = fenEntry(entries, 'baseCeiling', dictName, true);
  const gjjFloor = fenEntry(entries, 'gjjBaseFloor', dictName, true);
  const gjjCeiling = fenEntry(entries, 'gjjBaseCeiling', dictName, true);
  const fixed = fenEntry(entries, 'yiliaoFixedSelf', dictName, true) as number;
  const si = entries.get('roundingSI')?.trim() ? parseRounding(entries.get('roundingSI') as string, dictName) : undefined;
  const hf = entries.get('roundingHF')?.trim() ? parseRounding(entries.get('roundingHF') as string, dictName) : undefined;

  const limits = (item: string, f: number | null, c: number | null, rounding: RoundingRule | undefined) => {
    const lo = fenEntry(entries, `${item}BaseFloor`, dictName, false) ?? f;
    const hi = fenEntry(entries, `${item}BaseCeiling`, dictName, false) ?? c;
    if (lo !== null && hi !== null && lo > hi) throw new RateError('RATE_FLOOR_ABOVE_CEILING', { dict: dictName, item });
    return { floor: lo, ceiling: hi, ...(rounding ? { rounding } : {}) };
  };
  // Ratios of the dictionary are defaults only; the salary row's own ratios replace them (see ratesForRow).
  const rates: PayrollRates = {
    yanglao: { ratioSelf: ratios.yanglaoRatioSelf ?? '', ratioCompany: ratios.yanglaoRatioCompany ?? '', ...limits('yanglao', floor, ceiling, si) },
    yiliao: { ratioSelf: ratios.yiliaoRatioSelf ?? '', ratioCompany: ratios.yiliaoRatioCompany ?? '', ...limits('yiliao', floor, ceiling, si) },
    shiye: { ratioSelf: ratios.shiyeRatioSelf ?? '', ratioCompany: ratios.shiyeRatioCompany ?? '', ...limits('shiye', floor, ceiling, si) },
    gongjijin: { ratioSelf: ratios.gjjRatio ?? '', ratioCompany: ratios.gjjRatio ?? '', ...limits('gjj', gjjFloor, gjjCeiling, hf) },
    // Work injury and maternity are employer-only and not part of the salary row; the client bill adds them.
    yiliaoFixedSelf: fixed,
  };
  // 当地上年职工平均工资 (yuan per year), optional: only 经济补偿金 needs it (payItems.ts); dated like the rates
  const averageWageAnnual = fenEntry(entries, 'averageWageAnnual', dictName, false);
  return { dictName, effectiveMonth, rates, ratios, averageWageAnnual };
}

/** The raw entries of one dictionary. */
export interface RateDictionary {
  name: string;
  entries: Map<string, string>;
}

/** Effective month of a dictionary version: its `effectiveMonth` entry, else the month in its name. */
export function effectiveMonthOf(dict: RateDictionary): string | null {
  const entry = dict.entries.get('effectiveMonth')?.trim();
  if (entry) {
    if (!isValidMonth(entry)) throw new RateError('RATE_EFFECTIVE_MONTH_FORMAT', { dict: dict.name, value: entry });
    return entry;
  }
  const at = dict.name.indexOf('@');
  if (at < 0) return null;
  const suffix = dict.name.slice(at + 1);
  if (!isValidMonth(suffix)) throw new RateError('RATE_NAME_FORMAT', { dict: dict.name });
  return suffix;
}

/** Picks the version of `baseName` in force in `month` from its dictionaries (the base and `base@…`). */
export function pickRateVersion(baseName: string, month: string, dicts: readonly RateDictionary[]): RateVersion {
  const candidates = dicts.filter((d) => d.name === baseName || d.name.startsWith(`${baseName}@`));
  if (candidates.length === 0) throw new RateError('RATE_DICT_MISSING', { dict: baseName });
  let best: { dict: RateDictionary; eff: string | null } | null = null;
  const seen = new Map<string, string>();
  for (const dict of candidates) {
    const eff = effectiveMonthOf(dict);
    const key = eff ?? '';
    const clash = seen.get(key);
    if (clash !== undefined) throw eff === null ? new RateError('RATE_SAME_NO_EFFECTIVE_MONTH', { first: clash, second: dict.name }) : new RateError('RATE_SAME_EFFECTIVE_MONTH', { first: clash, second: dict.name, month: eff });
    seen.set(key, dict.name);
    if (eff !== null && eff > month) continue;
    if (best === null || (best.eff ?? '') < key) best = { dict, eff };
  }
  if (best === null) throw new RateError('RATE_NO_VERSION', { dict: baseName, month });
  return buildRateVersion(best.dict.name, best.eff, best.dict.entries);
}

/**
 * Loads the rate versions in force in `month` for the given census-type labels, with three small queries
 * (census types, dictionary names, their entries) whatever the number of rows.
 */
export async function loadRateBook(db: Db, month: string, censusLabels: Iterable<string>): Promise<RateBook> {
  const book: RateBook = new Map();
  const labels = [...new Set(censusLabels)].filter((l) => l !== '');
  if (labels.length === 0) return book;
  const census = await db
    .selectFrom('sys_dict_detail as d')
    .innerJoin('sys_dict as t', 't.id', 'd.dict_id')
    .select(['d.label', 'd.value'])
    .where('t.name', '=', 'census_type')
    .execute();
  // Staff store the census type as the dictionary value (the rate dictionary's name); labels are accepted too.
  const dictOf = new Map<string, string>();
  for (const c of census) dictOf.set(String(c.value).trim(), String(c.value).trim());
  for (const c of census) if (!dictOf.has(String(c.label))) dictOf.set(String(c.label), String(c.value).trim());
  const wanted = new Set<string>();
  for (const l of labels) {
    const d = dictOf.get(l);
    if (d) wanted.add(d);
  }
  const allDicts = wanted.size ? await db.selectFrom('sys_dict').select(['id', 'name']).execute() : [];
  const relevant = allDicts.filter((d) => {
    const name = String(d.name);
    const base = name.includes('@') ? name.slice(0, name.indexOf('@')) : name;
    return wanted.has(base);
  });
  const entries = relevant.length
    ? await db
        .selectFrom('sys_dict_detail')
        .select(['dict_id', 'label', 'value'])
        .where(
          'dict_id',
          'in',
          relevant.map((d) => d.id),
        )
        .orderBy('sort', 'asc')
        .orderBy('id', 'asc')
        .execute()
    : [];
  const dicts: RateDictionary[] = relevant.map((d) => ({ name: String(d.name), entries: new Map() }));
  const byId = new Map(relevant.map((d, i) => [Number(d.id), dicts[i]]));
  for (const e of entries) {
    const dict = byId.get(Number(e.dict_id));
    // The first entry of a label (by sort) wins, like the staff dialog that fills ratios from it.
    if (dict && !dict.entries.has(String(e.label))) dict.entries.set(String(e.label), String(e.value));
  }
  for (const label of labels) {
    const base = dictOf.get(label);
    if (!base) {
      book.set(label, new RateError('RATE_CENSUS_NO_DICTIONARY', { census: label }));
      continue;
    }
    try {
      book.set(label, pickRateVersion(base, month, dicts));
    } catch (err) {
      if (err instanceof RateError) book.set(label, err);
      else throw err;
    }
  }
  return book;
}
