import { CONTRACT_LABELS } from '../contracts/labels.ts';
import { renderError } from '../errors/catalogue.ts';
import type { Language } from '../language.ts';
import { kindOf } from '../resource/kinds.ts';
import type { FieldDef, ResourceDef } from '../resource/types.ts';
import { RESOURCES } from './index.ts';
import { RULE_TEXTS } from './ruleTexts.ts';

/**
 * Resource and field names in the UI languages, read from the definitions' `labels` (Chinese: their `label`).
 * The web's screens and the server's error messages both read them here, so a message names a field the way
 * the form shows it.
 */

/** A field's label in `language`; the Chinese label when the definition has no translation for it. */
export function fieldLabelIn(def: Pick<ResourceDef, 'labels'> | undefined, field: Pick<FieldDef, 'name' | 'label'>, language: Language): string {
  if (language === 'zh') return field.label;
  return def?.labels?.[language]?.[field.name] || field.label;
}

/** A resource's name in `language`; the Chinese name when untranslated. */
export function resourceLabelIn(def: Pick<ResourceDef, 'label' | 'labels'>, language: Language): string {
  if (language === 'zh') return def.label;
  return def.labels?.[language]?._label || def.label;
}

/** `<resource>.<key>` of each name a definition lacks in en, es or ja (its own `_label` and each field's). */
export function missingLabels(def: Pick<ResourceDef, 'name' | 'fields' | 'labels'>): string[] {
  return (['en', 'es', 'ja'] as const).flatMap((lng) => {
    const texts: Record<string, string> = def.labels?.[lng] ?? {};
    return ['_label', ...def.fields.map((f) => f.name)].filter((k) => !texts[k]?.trim()).map((k) => `${lng}: ${def.name}.${k}`);
  });
}

let byChineseLabel: Map<Language, Map<string, string>> | undefined;

/** Controls where a value is chosen, not typed: their required sentence says "choose". */
const CHOSEN = new Set(['dict', 'ref', 'refMany', 'date', 'month', 'bool']);

/**
 * A Chinese resource or field label (as the definitions spell it, e.g. in a validation message), one of the
 * definitions' own sentences (FIELD_REQUIRED_TEXT, FIELD_PATTERN_TEXT, DUPLICATE_TEXT), or a contract's field
 * label that no definition has (contracts/labels.ts), in `language`; null when none names it so. A required
 * sentence (`required: '请输入员工姓名'`) is worded from its field's translated label ("Please enter Name"), the
 * others come from RULE_TEXTS. Where two definitions give the same Chinese text different translations, the
 * first definition (in RESOURCES order) wins; a definition's label wins over a contract's.
 */
export function translateDefinitionLabel(zhLabel: string, language: Language): string | null {
  if (language === 'zh') return zhLabel;
  if (!byChineseLabel) {
    byChineseLabel = new Map();
    for (const lng of ['en', 'es', 'ja'] as const) {
      const map = new Map<string, string>();
      for (const def of Object.values(RESOURCES)) {
        const texts = def.labels?.[lng] ?? {};
        if (texts._label && !map.has(def.label)) map.set(def.label, texts._label);
        for (const f of def.fields) if (texts[f.name] && !map.has(f.label)) map.set(f.label, texts[f.name]);
      }
      for (const [zh, t] of Object.entries(RULE_TEXTS)) if (!map.has(zh)) map.set(zh, t[lng]);
      for (const def of Object.values(RESOURCES)) {
        for (const f of def.fields) {
          if (typeof f.required !== 'string' || map.has(f.required)) continue;
          const label = fieldLabelIn(def, f, lng);
          map.set(f.required, renderError(CHOSEN.has(kindOf(f).web.control) ? 'FIELD_CHOOSE' : 'FIELD_ENTER', { label }, lng));
        }
      }
      for (const [zh, t] of Object.entries(CONTRACT_LABELS)) if (!map.has(zh)) map.set(zh, t[lng]);
      byChineseLabel.set(lng, map);
    }
  }
  return byChineseLabel.get(language)?.get(zhLabel) ?? null;
}
