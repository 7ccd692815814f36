import { useEagerQuery } from './prefetch';
import { queryClient } from './queryClient';
import { api } from './request';

/** One entry of a dictionary (`/api/dictDetail/map`). */
export interface DictEntry {
  id?: number;
  label: string;
  value: string;
  sort?: number;
}

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
  const res = await api.get<DictMap>('/api/dictDetail/map', { dictName: key });
  const out: DictMap = {};
  for (const n of key.split(',')) out[n] = Array.isArray(res?.[n]) ? res[n] : [];
  return out;
}

/** The query of some dictionaries (one cache entry per set of names). */
export function dictsQuery(names: readonly string[]) {
  const key = keyOf(names);
  return { queryKey: ['dicts', key], queryFn: () => fetchDicts(key.split(',')), enabled: key.length > 0, staleTime: DICT_STALE_MS };
}

/** Dictionaries for select boxes and labels, cached for 5 minutes; `{}` until loaded. */
export function useDicts(names: readonly string[]): DictMap {
  const q = useEagerQuery(dictsQuery(names));
  return q.data ?? EMPTY;
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
