import { RESOURCES } from '@app/shared/resources/index';
import { describe, expect, it } from 'vitest';
import { DICTIONARIES } from '../../../server/src/seed/dictionaries';
import { MENU_TREE, type MenuSeed } from '../../../server/src/seed/menus';

/**
 * Completeness of the UI texts. Chinese (zh) is the reference: every key it has must exist, non-empty, in
 * en, es and ja; no other language may have a key zh lacks; and {{placeholders}} must be the same in every
 * language. The menu namespace has its reference outside zh/*.json: it is keyed by the Chinese menu titles the
 * server seeds; zh/menu.json maps each to itself. Resource and field labels are no namespace here: they live in
 * the definitions (packages/shared/src/resources, `labels`), checked by packages/shared/src/resources/labels.test.ts.
 */

type Bundle = Record<string, unknown>;

const LANGUAGES = ['zh', 'en', 'es', 'ja'] as const;
const OTHERS = LANGUAGES.filter((l) => l !== 'zh');

const files = import.meta.glob<Bundle>('./*/*.json', { eager: true, import: 'default' });
const bundles: Record<string, Record<string, Bundle>> = {};
for (const [path, data] of Object.entries(files)) {
  const m = /^\.\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (!m) continue;
  (bundles[m[1]] ??= {})[m[2]] = data;
}
const NAMESPACES = Object.keys(bundles.zh ?? {}).sort();

/** Leaf keys (dotted paths) and their values; i18next plural suffixes count as their base key. */
function flatten(obj: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (Array.isArray(obj)) {
    // a list of lines (usage notes): each line is a text of its own, <key>.<index>
    for (const [i, v] of obj.entries()) flatten(v, `${prefix}.${i}`, out);
  } else if (obj && typeof obj === 'object') {
    for (const [k, v] of Object.entries(obj as Record<string, unknown>)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    const key = prefix.replace(/_(zero|one|two|few|many|other)$/, '');
    if (!out.has(key) || !isFilled(out.get(key))) out.set(key, obj);
  }
  return out;
}

const isFilled = (v: unknown) => typeof v === 'string' && v.trim() !== '';
const placeholders = (v: unknown) =>
  [...new Set([...String(v ?? '').matchAll(/\{\{\s*([^}\s,]+)[^}]*\}\}/g)].map((m) => m[1]))].sort().join(', ');
const HAN = /\p{Script=Han}/u;

/**
 * The Chinese dictionary labels the server seeds, as `<dictionary>.<stored value>`: what dictValues.json may
 * translate (zh/dictValues.json stays empty: the stored labels are Chinese already; names such as the dispatch
 * entities and the rate dictionaries' numbers are not translated, so a language need not list every entry).
 */
function chineseDictionaryLabels(): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const d of DICTIONARIES) for (const [label, value] of d.entries) out.set(`${d.name}.${value}`, label);
  for (const [k, v] of flatten(bundles.zh?.dictValues ?? {})) out.set(k, v);
  // 民族 is a free-text staff field, not a dictionary: its common Chinese values are translated where shown
  for (const lng of OTHERS) for (const k of flatten(bundles[lng]?.dictValues ?? {}).keys()) if (/^nation\.\p{Script=Han}+$/u.test(k)) out.set(k, k.slice(7));
  return out;
}

function reference(ns: string): Map<string, unknown> {
  return flatten(bundles.zh[ns]);
}

function menuNames(items: MenuSeed[]): string[] {
  return items.flatMap((m) => [m.name, ...menuNames(m.children ?? [])]);
}

/** Sections of the resource dialogs (crud:sections.<title>, accounts:sections.<title> for the staff dialog). */
function sectionTitles(resource?: string): string[] {
  const defs = Object.values(RESOURCES).filter((d) => !resource || d.name === resource);
  return [...new Set(defs.flatMap((d) => d.fields.map((f) => f.section).filter((s): s is string => !!s)))];
}

describe('locale files', () => {
  it('exist for every namespace in every language', () => {
    expect(NAMESPACES.length).toBeGreaterThan(0);
    for (const lng of LANGUAGES) expect(Object.keys(bundles[lng] ?? {}).sort(), lng).toEqual(NAMESPACES);
  });

  it.each(NAMESPACES)('%s: zh has a non-empty text for every key', (ns) => {
    const empty = [...reference(ns)].filter(([, v]) => !isFilled(v)).map(([k]) => k);
    expect(empty).toEqual([]);
  });

  describe.each(OTHERS)('%s', (lng) => {
    it.each(NAMESPACES)(`${lng}/%s.json has every zh key, non-empty`, (ns) => {
      const own = flatten(bundles[lng]?.[ns] ?? {});
      const missing = [...reference(ns)].filter(([k]) => !isFilled(own.get(k))).map(([k, v]) => `${k} (${String(v)})`);
      expect(missing).toEqual([]);
    });

    it.each(NAMESPACES)(`${lng}/%s.json has no key that zh lacks`, (ns) => {
      const ref = ns === 'dictValues' ? chineseDictionaryLabels() : reference(ns);
      const extra = [...flatten(bundles[lng]?.[ns] ?? {}).keys()].filter((k) => !ref.has(k));
      expect(extra).toEqual([]);
    });

    it.each(NAMESPACES)(`${lng}/%s.json uses the same {{placeholders}} as zh`, (ns) => {
      const own = flatten(bundles[lng]?.[ns] ?? {});
      const differing = [...reference(ns)]
        .filter(([k, v]) => own.has(k) && placeholders(v) !== placeholders(own.get(k)))
        .map(([k, v]) => `${k}: zh {${placeholders(v)}} vs ${lng} {${placeholders(own.get(k))}}`);
      expect(differing).toEqual([]);
    });
  });

  it.each(['en', 'es'])('%s texts are translated, not Chinese copies', (lng) => {
    const chinese = NAMESPACES.flatMap((ns) =>
      [...flatten(bundles[lng]?.[ns] ?? {})].filter(([, v]) => HAN.test(String(v))).map(([k, v]) => `${ns}:${k} = ${String(v)}`),
    );
    expect(chinese).toEqual([]);
  });

  it('ja texts longer than a word are not Chinese copies', () => {
    const copies = NAMESPACES.flatMap((ns) => {
      const ref = reference(ns);
      const own = flatten(bundles.ja?.[ns] ?? {});
      return [...ref]
        .filter(([k, v]) => HAN.test(String(v)) && String(v).length > 2 && own.get(k) === v)
        .map(([k, v]) => `${ns}:${k} = ${String(v)}`);
    });
    expect(copies).toEqual([]);
  });

  /**
   * Findings W9 ("1 rows", "1 filas"): in en and es a text that puts a number before a counted noun has a
   * `_one` form beside it (i18next picks it when `count` is 1). Which texts count nouns is decided by their
   * English wording: a number placeholder followed by a plural word.
   */
  const COUNTED = /\{\{\s*(count|total|rows|n)\s*\}\}\s+(more\s+)?[a-z]+s\b/;
  function leaves(obj: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
    if (obj && typeof obj === 'object' && !Array.isArray(obj)) {
      for (const [k, v] of Object.entries(obj as Record<string, unknown>)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
    } else if (typeof obj === 'string') out.set(prefix, obj);
    return out;
  }
  const NOT_COUNTS = new Set(['cache:truncated']); // "more than {{count}} keys": never one

  it.each(['en', 'es'])('%s: every counted noun has a singular (_one) form', (lng) => {
    const missing: string[] = [];
    for (const ns of NAMESPACES) {
      const en = leaves(bundles.en[ns]);
      const own = leaves(bundles[lng][ns]);
      for (const [k, v] of en) {
        if (/_(one|other)$/.test(k) || NOT_COUNTS.has(`${ns}:${k}`) || !COUNTED.test(v)) continue;
        if (!own.has(`${k}_one`)) missing.push(`${ns}:${k} = ${own.get(k)}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it.each(['en', 'es'])('%s: a _one form keeps the placeholders of its plural', (lng) => {
    const differing = NAMESPACES.flatMap((ns) => {
      const own = leaves(bundles[lng][ns]);
      return [...own]
        .filter(([k]) => k.endsWith('_one') && own.has(k.slice(0, -4)))
        .filter(([k, v]) => placeholders(v) !== placeholders(own.get(k.slice(0, -4))))
        .map(([k]) => `${ns}:${k}`);
    });
    expect(differing).toEqual([]);
  });

  it('menu.json covers every seeded menu title; zh maps each title to itself', () => {
    const zh = flatten(bundles.zh.menu);
    expect(menuNames(MENU_TREE).filter((n) => !zh.has(n))).toEqual([]);
    expect([...zh].filter(([k, v]) => k !== v)).toEqual([]);
  });

  it('the dialog section titles of the definitions are in crud.json (and the staff ones in accounts.json)', () => {
    const crud = flatten(bundles.zh.crud);
    expect(sectionTitles().filter((s) => !crud.has(`sections.${s}`))).toEqual([]);
    const accounts = flatten(bundles.zh.accounts);
    expect(sectionTitles('accountsStaff').filter((s) => !accounts.has(`sections.${s}`))).toEqual([]);
  });
});
