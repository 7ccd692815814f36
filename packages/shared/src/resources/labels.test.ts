import { describe, expect, it } from 'vitest';
import { RESOURCE_DEFINITIONS } from './index.ts';
import { fieldLabelIn, missingLabels, resourceLabelIn, translateDefinitionLabel } from './labels.ts';

/**
 * Every shipped definition names itself and each of its fields in en, es and ja (its `labels`), with no label
 * for a field it does not have; the translations are translations (what the web's locale test checked while the
 * labels lived in the web's fields.json).
 */

const OTHER_LANGUAGES = ['en', 'es', 'ja'] as const;
const HAN = /\p{Script=Han}/u;

describe.each(OTHER_LANGUAGES)('definition labels in %s', (lng) => {
  it('name every resource and every field, non-empty', () => {
    const missing = RESOURCE_DEFINITIONS.flatMap((def) => missingLabels(def)).filter((m) => m.startsWith(`${lng}: `));
    expect(missing).toEqual([]);
  });

  it('name no field the definition lacks', () => {
    const extra = RESOURCE_DEFINITIONS.flatMap((def) => {
      const names = new Set(['_label', ...def.fields.map((f) => f.name)]);
      return Object.keys(def.labels?.[lng] ?? {}).filter((k) => !names.has(k)).map((k) => `${def.name}.${k}`);
    });
    expect(extra).toEqual([]);
  });

  it('are not Chinese copies', () => {
    const copies = RESOURCE_DEFINITIONS.flatMap((def) => {
      const texts: Record<string, string> = def.labels?.[lng] ?? {};
      const zh: Record<string, string> = { _label: def.label, ...Object.fromEntries(def.fields.map((f) => [f.name, f.label])) };
      return Object.entries(texts)
        // en and es hold no Chinese at all; ja may share a one- or two-character word (名称) with Chinese
        .filter(([k, v]) => (lng === 'ja' ? HAN.test(v) && v.length > 2 && v === zh[k] : HAN.test(v)))
        .map(([k, v]) => `${def.name}.${k} = ${v}`);
    });
    expect(copies).toEqual([]);
  });
});

describe('reading the labels', () => {
  const dict = RESOURCE_DEFINITIONS.find((d) => d.name === 'dict')!;
  const nameField = dict.fields.find((f) => f.name === 'name')!;

  it('gives the Chinese label in Chinese and the translation elsewhere', () => {
    expect(fieldLabelIn(dict, nameField, 'zh')).toBe('字典名称');
    expect(fieldLabelIn(dict, nameField, 'en')).toBe('Dictionary name');
    expect(resourceLabelIn(dict, 'ja')).toBe('辞書');
    expect(fieldLabelIn(undefined, { name: 'x', label: '某字段' }, 'en')).toBe('某字段');
    expect(missingLabels({ name: 'x', fields: [{ name: 'a', kind: 'int', label: '甲' }], labels: { en: { _label: 'X', a: 'A' }, es: { _label: 'X' }, ja: { _label: 'X', a: ' ' } } })).toEqual(['es: x.a', 'ja: x.a']);
  });

  it('translates a Chinese label found in a definition, and nothing else', () => {
    expect(translateDefinitionLabel('字典名称', 'es')).toBe('Nombre del diccionario');
    expect(translateDefinitionLabel('员工', 'en')).toBe('Employee');
    expect(translateDefinitionLabel('没有这个字段', 'en')).toBeNull();
  });
});
