import { type DictEntry as DictMapEntry, dictionaryMap } from '@app/shared/contracts/system';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage, i18n } from './i18n';
import { useEagerQuery } from './prefetch';
import { queryClient } from './queryClient';
import { callContract } from './contractClient';

/** One entry of a dictionary (the contract's, id and sort optional for entries a screen states itself). */
export type DictEntry = Pick<DictMapEntry, 'label' | 'value'> & Partial<Pick<DictMapEntry, 'id' | 'sort'>>;

export type DictMap = Record<string, DictEntry[]>;

const EMPTY: DictMap = Object.freeze({}) as DictMap;
const DICT_STALE_MS = 5 * 60_000;

function keyOf(names: readonly string[]): string {
  return [...new Set(names.filter(Boolean))].sort().join(',');
}

/** Fetch dictionaries by name (one call for all): {name: entries}; names without entries map to []. */
export async function fetchDicts(names: readonly string[]): Promise<DictMap> {
  const key = keyOf(names);
  if (!key) return {};
  const res = await callContract(dictionaryMap, { query: { dictName: key } });
  const out: DictMap = {};
  for (const n of key.split(',')) out[n] = Array.isArray(res?.[n]) ? res[n] : [];
  return out;
}

/** The query of some dictionaries (one cache entry per set of names). */
export function dictsQuery(names: readonly string[]) {
  const key = keyOf(names);
  return { queryKey: ['dicts', key], queryFn: () => fetchDicts(key.split(',')), enabled: key.length > 0, staleTime: DICT_STALE_MS };
}

/**
 * U26: the label of a dictionary value in the UI language, from `locales/<lng>/dictValues.json` keyed by
 * dictionary name and stored value; `fallback` (the stored Chinese label) where there is no translation.
 * Only what is shown changes: forms and filters still send the stored value.
 */
export function translateDictValue(dictName: string, value: unknown, fallback: string): string {
  const bundle = i18n.getResourceBundle(currentLanguage(), 'dictValues') as Record<string, Record<string, string>> | undefined;
  const label = bundle?.[dictName]?.[String(value)];
  return typeof label === 'string' && label ? label : fallback;
}

/** Every entry's label in the UI language (the same map when nothing is translated, e.g. in Chinese). */
export function translateDicts(dicts: DictMap): DictMap {
  const bundle = i18n.getResourceBundle(currentLanguage(), 'dictValues') as Record<string, unknown> | undefined;
  if (!bundle || Object.keys(bundle).length === 0) return dicts;
  const out: DictMap = {};
  for (const [name, entries] of Object.entries(dicts)) out[name] = entries.map((e) => ({ ...e, label: translateDictValue(name, e.value, e.label) }));
  return out;
}

/** Dictionaries for select boxes and labels, in the UI language, cached for 5 minutes; `{}` until loaded. */
export function useDicts(names: readonly string[]): DictMap {
  const q = useEagerQuery(dictsQuery(names));
  // re-translated when the language changes
  const { i18n: instance } = useTranslation();
  const lng = instance.language;
  // biome-ignore lint/correctness/useExhaustiveDependencies: lng is what changes the translation
  return useMemo(() => (q.data ? translateDicts(q.data) : EMPTY), [q.data, lng]);
}

/** The label of `value` in a dictionary (the value itself when unknown, '' for empty). */
export function dictLabel(entries: readonly DictEntry[] | undefined, value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  const s = String(value);
  return entries?.find((e) => String(e.value) === s)?.label ?? s;
}

/** Drop cached dictionaries (after editing dictionary details). */
export function invalidateDicts(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: ['dicts'] });
}
