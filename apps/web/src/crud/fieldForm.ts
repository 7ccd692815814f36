import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { kindOf, validateField } from '@app/shared/resource';
import { RESOURCES } from '@app/shared/resources/index';
import { translateDefinitionLabel } from '@app/shared/resources/labels';
import { type LabelTranslator, renderError } from '@app/shared/errors/catalogue';
import type { FieldMessage } from '@app/shared/errors/zodIssues';
import type { Rule } from 'antd/es/form';
import { currentLanguage } from '../app/i18n';
import { formFields } from './fieldPlacement';
import { fieldLabel, resourceLabel } from './resourceLabels';
import type { Row } from './useResourceList';

/**
 * The add/edit dialog's rules and values: the shared `validateField` (so the dialog says exactly what the server
 * would say), stored values as form values and back.
 */

/** antd rules that run the shared `validateField` (same messages as the server, in the UI language). */
export function fieldRules(field: FieldDef, resource?: string): Rule[] {
  return [
    {
      validator: async (_rule, value) => {
        const r = validateField(field, value);
        if (!r.ok) throw new Error(localMessage(r.error, field, resource));
      },
    },
  ];
}

/**
 * A validation message of the shared definitions in the UI language: a catalogue code rendered with the labels
 * the screens use (W9: en/es/ja forms said '请输入…'); a definition's own sentence (`required: '请输入员工姓名'`)
 * through the definitions' translations. Text (a check that gives no code) is shown as it is: no text is read
 * back into a code.
 */
export function localMessage(m: FieldMessage, field: FieldDef, resource?: string): string {
  const lng = currentLanguage();
  const labels: LabelTranslator = (zhLabel) => {
    if (resource && zhLabel === field.label) return fieldLabel(resource, field);
    for (const def of Object.values(RESOURCES)) {
      const f = def.fields.find((x) => x.label === zhLabel);
      if (f) return fieldLabel(def.name, f);
      if (def.label === zhLabel) return resourceLabel(def);
    }
    return translateDefinitionLabel(zhLabel, lng);
  };
  return typeof m === 'string' ? m : renderError(m.code, m.params ?? {}, lng, labels);
}

/** Form value of a stored value: booleans of dictionary-backed fields are edited as 'true'/'false'. */
export function toFormValue(field: FieldDef, value: unknown): unknown {
  if (value === undefined) return undefined;
  if (kindOf(field).web.control === 'bool' && field.dict && typeof value === 'boolean') return String(value);
  // a refMany value arrives as linked rows ([{id, name}]); its control edits the ids
  if (kindOf(field).web.control === 'refMany' && Array.isArray(value)) return value.map((v: unknown) => (v !== null && typeof v === 'object' ? Number((v as Row).id) : Number(v)));
  return value;
}

/** Initial values of the dialog: the row (edit) or the definition's defaults (add). */
export function initialFormValues(def: ResourceDef, row?: Row | null, fields: FieldDef[] = formFields(def)): Row {
  const out: Row = {};
  for (const f of fields) {
    const raw = row ? row[f.name] : f.defaultValue;
    const v = toFormValue(f, raw === null ? undefined : raw);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}

/**
 * The body of a create/update call from the form values: fields on the form only (a hidden field keeps its
 * stored value), cleared ones sent as null so that an update really clears them.
 */
export function formValuesToBody(fields: readonly FieldDef[], values: Row): Row {
  const body: Row = {};
  for (const f of fields) {
    if (!(f.name in values)) continue;
    const v = values[f.name];
    // a cleared multiple select is an empty set (the server replaces the links), not null
    if (kindOf(f).web.control === 'refMany') body[f.name] = Array.isArray(v) ? v : [];
    else body[f.name] = v === undefined || (typeof v === 'string' && v.trim() === '') ? null : typeof v === 'string' ? v.trim() : v;
  }
  return body;
}
