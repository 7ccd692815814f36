import type { FieldDef } from '@app/shared/resource';
import { kindOf, type WebDisplay } from '@app/shared/resource';
import { Tag } from 'antd';
import type { ReactNode } from 'react';
import { type DictEntry, type DictMap, dictLabel, translateDictValue } from '../app/dict';
import { i18n } from '../app/i18n';
import { formatDate, formatDateTime, formatMoney, formatRatio } from './format';
import type { Row } from './useResourceList';

/** How a field's value is shown in the tables and details, per `web.display` of the kind registry. */

/** The name shown for a `ref` field: `row.<base>.<labelField>` (deptId -> row.dept.name) or `row.<base>Name`. */
export function refLabel(field: FieldDef, row: Row | undefined, value: unknown): string {
  if (!row || !field.ref) return value === null || value === undefined ? '' : String(value);
  const base = field.name.endsWith('Id') ? field.name.slice(0, -2) : field.name;
  const nested = row[base];
  if (nested && typeof nested === 'object' && !Array.isArray(nested)) {
    const label = (nested as Row)[field.ref.labelField];
    if (label !== undefined && label !== null) return String(label);
  }
  const flat = row[`${base}Name`];
  if (flat !== undefined && flat !== null) return String(flat);
  return value === null || value === undefined ? '' : String(value);
}

/** The names of a `refMany` value (`[{id, name}]`), comma-separated as the Excel export writes them. */
export function refsLabel(field: FieldDef, value: unknown): string {
  if (!Array.isArray(value)) return '';
  const labelField = field.ref?.labelField ?? 'name';
  return value.map((v: unknown) => (v !== null && typeof v === 'object' ? String((v as Row)[labelField] ?? (v as Row).id) : String(v))).join(', ');
}

function boolTag(value: unknown, entries: DictEntry[] | undefined): ReactNode {
  const on = value === true || value === 'true' || value === 1 || value === '1';
  const label = entries?.length ? dictLabel(entries, String(on)) : i18n.t(on ? 'crud:yes' : 'crud:no');
  return <Tag color={on ? 'success' : 'default'}>{label}</Tag>;
}

/** How a value is shown, per `web.display` of the kind registry. */
const DISPLAYS: Record<WebDisplay, (field: FieldDef, value: unknown, row?: Row, dicts?: DictMap) => ReactNode> = {
  money: (_f, value) => formatMoney(value),
  ratio: (_f, value) => formatRatio(value),
  datetime: (_f, value) => formatDateTime(value),
  date: (_f, value) => formatDate(value),
  ref: (field, value, row) => refLabel(field, row, value),
  refs: (field, value) => refsLabel(field, value),
  bool: (field, value, _row, dicts) => boolTag(value, field.dict ? dicts?.[field.dict] : undefined),
  // 民族 is free text on the staff record: the common ones read in the UI language too (U26)
  text: (field, value, _row, dicts) => (field.dict ? dictLabel(dicts?.[field.dict], value) : field.name === 'nation' ? translateDictValue('nation', value, String(value)) : String(value)),
};

/** A value as the tables and details show it. */
export function renderValue(field: FieldDef, value: unknown, row?: Row, dicts?: DictMap): ReactNode {
  if (value === null || value === undefined || value === '') return '';
  return DISPLAYS[kindOf(field).web.display](field, value, row, dicts);
}

/** Text alignment of a column by kind (amounts right-aligned). */
export function alignOf(field: FieldDef): 'left' | 'right' | 'center' {
  return kindOf(field).web.align;
}

/** Default column width by kind. */
export function defaultWidth(field: FieldDef): number | undefined {
  return field.width ?? kindOf(field).web.width;
}
