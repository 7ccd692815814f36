import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { validateField } from '@app/shared/resource';
import { RESOURCES } from '@app/shared/resources/index';
import { useQuery } from '@tanstack/react-query';
import { DatePicker, Input, InputNumber, Radio, Select, Tag, TreeSelect } from 'antd';
import type { Rule } from 'antd/es/form';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type DictEntry, type DictMap, dictLabel } from '../app/dict';
import { fieldLabel, i18n } from '../app/i18n';
import { api } from '../app/request';
import { formatDate, formatDateTime, formatMoney, formatRatio } from './format';
import type { Row } from './useResourceList';

/**
 * Everything the generic pages derive from a field definition: where it appears (list, detail, form,
 * search), how its value is shown, which control edits it and which rules check it (the shared
 * `validateField`, so the dialog says exactly what the server would say).
 */

// ---- where fields appear ----------------------------------------------------------------------------

const hiddenEverywhere = (f: FieldDef) => !!f.secret;

/** Table columns (default: every field but `id` and secrets). */
export function listFields(def: ResourceDef): FieldDef[] {
  return def.fields.filter((f) => !hiddenEverywhere(f) && f.list !== false && !(f.name === 'id' && f.list === undefined));
}

/** Fields of the expandable row detail (default: those not in the list). */
export function detailFields(def: ResourceDef): FieldDef[] {
  return def.fields.filter((f) => !hiddenEverywhere(f) && f.name !== 'id' && (f.detail ?? f.list === false));
}

/** Fields of the add/edit dialog (default: writable ones). */
export function formFields(def: ResourceDef): FieldDef[] {
  return def.fields.filter((f) => !hiddenEverywhere(f) && f.name !== 'id' && (f.form ?? !f.readOnly));
}

/** Fields the server sorts by (mirrors the server's rule). */
export function isSortable(f: FieldDef): boolean {
  return f.sortable !== false && !f.secret && f.kind !== 'text';
}

/** Fields offered by the field chooser of `searchMode: 'fieldChooser'`. */
export function chooserFields(def: ResourceDef): FieldDef[] {
  const marked = def.fields.filter((f) => f.search && f.filter);
  return marked.length ? marked : def.fields.filter((f) => f.filter && ['string', 'idCard', 'phone', 'email'].includes(f.kind));
}

/** One control per declared filter (`searchMode: 'filters'`); `search: false` leaves a filter out. */
export function filterFields(def: ResourceDef): FieldDef[] {
  const withFilter = def.fields.filter((f) => f.filter && !f.secret);
  const anyMarked = withFilter.some((f) => f.search !== undefined);
  return anyMarked ? withFilter.filter((f) => f.search) : withFilter;
}

/** Dictionary names used by some fields. */
export function dictNames(fields: readonly FieldDef[]): string[] {
  return [...new Set(fields.map((f) => f.dict).filter((d): d is string => !!d))];
}

// ---- labels -----------------------------------------------------------------------------------------------

/** Label of a field in the current language (fields:<resource>.<field>, else the Chinese label). */
export const labelOf: (resource: string, field: Pick<FieldDef, 'name' | 'label'>) => string = fieldLabel;

/** Name of a resource in the current language (fields:<resource>._label, else the Chinese label). */
export function resourceLabel(def: Pick<ResourceDef, 'name' | 'label'>): string {
  return i18n.t(`fields:${def.name}._label`, { defaultValue: def.label });
}

// ---- showing values ----------------------------------------------------------------------------------------

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

function boolTag(value: unknown, entries: DictEntry[] | undefined): ReactNode {
  const on = value === true || value === 'true' || value === 1 || value === '1';
  const label = entries?.length ? dictLabel(entries, String(on)) : i18n.t(on ? 'crud:yes' : 'crud:no');
  return <Tag color={on ? 'success' : 'default'}>{label}</Tag>;
}

/** A value as the tables and details show it. */
export function renderValue(field: FieldDef, value: unknown, row?: Row, dicts?: DictMap): ReactNode {
  if (field.kind === 'bool') return value === null || value === undefined || value === '' ? '' : boolTag(value, field.dict ? dicts?.[field.dict] : undefined);
  if (value === null || value === undefined || value === '') return '';
  switch (field.kind) {
    case 'money':
      return formatMoney(value);
    case 'ratio':
      return formatRatio(value);
    case 'datetime':
      return formatDateTime(value);
    case 'date':
      return formatDate(value);
    case 'ref':
      return refLabel(field, row, value);
    default:
      if (field.dict) return dictLabel(dicts?.[field.dict], value);
      return String(value);
  }
}

/** Text alignment of a column by kind (amounts right-aligned). */
export function alignOf(field: FieldDef): 'left' | 'right' | 'center' {
  if (field.kind === 'money' || field.kind === 'ratio' || field.kind === 'int') return 'right';
  if (field.kind === 'bool') return 'center';
  return 'left';
}

/** Default column width by kind. */
export function defaultWidth(field: FieldDef): number | undefined {
  if (field.width) return field.width;
  switch (field.kind) {
    case 'datetime':
      return 170;
    case 'date':
      return 120;
    case 'month':
      return 100;
    case 'idCard':
      return 190;
    case 'phone':
      return 130;
    case 'email':
      return 190;
    case 'bool':
      return 90;
    case 'money':
      return 120;
    case 'ratio':
    case 'int':
      return 100;
    default:
      return undefined;
  }
}

// ---- rules and form values ------------------------------------------------------------------------------

/** antd rules that run the shared `validateField` (same messages as the server). */
export function fieldRules(field: FieldDef): Rule[] {
  return [
    {
      validator: async (_rule, value) => {
        const r = validateField(field, value);
        if (!r.ok) throw new Error(r.message);
      },
    },
  ];
}

/** Form value of a stored value: booleans of dictionary-backed fields are edited as 'true'/'false'. */
export function toFormValue(field: FieldDef, value: unknown): unknown {
  if (value === undefined) return undefined;
  if (field.kind === 'bool' && field.dict && typeof value === 'boolean') return String(value);
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
    body[f.name] = v === undefined || (typeof v === 'string' && v.trim() === '') ? null : typeof v === 'string' ? v.trim() : v;
  }
  return body;
}

// ---- controls ---------------------------------------------------------------------------------------------

export interface FieldControlProps {
  resource: string;
  field: FieldDef;
  value?: any;
  onChange?: (value: any) => void;
  disabled?: boolean;
  dicts?: DictMap;
  placeholder?: string;
  /** Used in search bars: selects get a clear button, text gets no length counter. */
  forSearch?: boolean;
  style?: React.CSSProperties;
  id?: string;
}

function DateControl({ value, onChange, month, ...rest }: { value?: string; onChange?: (v: string | null) => void; month?: boolean } & Omit<FieldControlProps, 'value' | 'onChange' | 'resource' | 'field'>) {
  const fmt = month ? 'YYYY-MM' : 'YYYY-MM-DD';
  const d = value ? dayjs(value, fmt) : null;
  return (
    <DatePicker
      id={rest.id}
      picker={month ? 'month' : 'date'}
      value={d?.isValid() ? d : null}
      format={fmt}
      onChange={(v) => onChange?.(v ? v.format(fmt) : null)}
      disabled={rest.disabled}
      placeholder={rest.placeholder}
      style={{ width: '100%', ...rest.style }}
    />
  );
}

interface RefOption {
  value: number;
  title: string;
  label: string;
  children?: RefOption[];
}

function toRefOptions(rows: Row[], labelField: string): RefOption[] {
  return rows.map((r) => ({
    value: Number(r.id),
    title: String(r[labelField] ?? r.label ?? r.id),
    label: String(r[labelField] ?? r.label ?? r.id),
    children: Array.isArray(r.children) && r.children.length ? toRefOptions(r.children, labelField) : undefined,
  }));
}

/** Rows of another resource for a select box (size 9999 as the spec's lookups; cached briefly). */
export function useRefOptions(resource: string, labelField: string, params: Record<string, unknown> = {}, enabled = true) {
  const q = useQuery({
    queryKey: ['ref', resource, params],
    queryFn: () => api.get<{ content?: Row[] } | Row[]>(`/api/${resource}`, { page: 0, size: 9999, ...params }),
    staleTime: 30_000,
    enabled,
  });
  const rows = Array.isArray(q.data) ? q.data : (q.data?.content ?? []);
  return { options: toRefOptions(rows, labelField), rows, loading: q.isLoading };
}

/** Select of rows of another resource; a tree select when the rows come as a tree (departments). */
export function RefSelect({
  resource,
  labelField,
  value,
  onChange,
  disabled,
  placeholder,
  params,
  allowClear = true,
  style,
  id,
}: {
  resource: string;
  labelField: string;
  value?: number | null;
  onChange?: (v: number | null) => void;
  disabled?: boolean;
  placeholder?: string;
  params?: Record<string, unknown>;
  allowClear?: boolean;
  style?: React.CSSProperties;
  id?: string;
}) {
  const { options, loading } = useRefOptions(resource, labelField, params);
  // Tree resources (a `pid` field) get a tree select from the start, not only once their rows arrived.
  const isTree = !!RESOURCES[resource]?.fields.some((f) => f.name === 'pid') || options.some((o) => o.children?.length);
  if (isTree) {
    return (
      <TreeSelect
        id={id}
        value={value ?? undefined}
        onChange={(v) => onChange?.(v ?? null)}
        treeData={options}
        treeDefaultExpandAll
        showSearch={{ treeNodeFilterProp: 'title' }}
        allowClear={allowClear}
        disabled={disabled}
        placeholder={placeholder}
        loading={loading}
        style={{ width: '100%', ...style }}
      />
    );
  }
  return (
    <Select
      id={id}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={options.map((o) => ({ value: o.value, label: o.label }))}
      showSearch={{ optionFilterProp: 'label' }}
      allowClear={allowClear}
      disabled={disabled}
      placeholder={placeholder}
      loading={loading}
      style={{ width: '100%', ...style }}
    />
  );
}

/** The control that edits a field by its kind. */
export function FieldControl(props: FieldControlProps) {
  const { field, value, onChange, disabled, dicts, forSearch, style, id } = props;
  const { t } = useTranslation('crud');
  const label = labelOf(props.resource, field);
  const choose = props.placeholder ?? t('selectPlaceholder', { label });
  const type = props.placeholder ?? t('inputPlaceholder', { label });
  const entries = field.dict ? (dicts?.[field.dict] ?? []) : undefined;

  switch (field.kind) {
    case 'bool': {
      const options = entries?.length
        ? entries.map((e) => ({ value: e.value, label: e.label }))
        : [
            { value: true as unknown as string, label: t('yes') },
            { value: false as unknown as string, label: t('no') },
          ];
      if (forSearch) {
        return <Select id={id} value={value} onChange={onChange} options={options} allowClear placeholder={choose} disabled={disabled} style={style} />;
      }
      return <Radio.Group id={id} value={value} onChange={(e) => onChange?.(e.target.value)} options={options} disabled={disabled} />;
    }
    case 'dict':
      return (
        <Select
          id={id}
          value={value ?? undefined}
          onChange={(v) => onChange?.(v ?? null)}
          options={(entries ?? []).map((e) => ({ value: e.value, label: e.label }))}
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={choose}
          disabled={disabled}
          style={{ width: '100%', ...style }}
        />
      );
    case 'ref':
      return field.ref ? (
        <RefSelect id={id} resource={field.ref.resource} labelField={field.ref.labelField} value={value} onChange={onChange} disabled={disabled} placeholder={choose} style={style} />
      ) : (
        <InputNumber id={id} value={value} onChange={onChange} disabled={disabled} style={{ width: '100%', ...style }} />
      );
    case 'date':
    case 'month':
      return <DateControl id={id} value={value} onChange={onChange} month={field.kind === 'month'} disabled={disabled} placeholder={choose} style={style} />;
    case 'int':
      if (forSearch) return <Input id={id} value={value} onChange={(e) => onChange?.(e.target.value)} placeholder={type} disabled={disabled} allowClear style={style} />;
      // No min/max on the control: it would clamp silently; the rules say what is wrong instead.
      return <InputNumber id={id} value={value} onChange={onChange} precision={0} disabled={disabled} placeholder={type} style={{ width: '100%', ...style }} />;
    case 'money':
    case 'ratio':
      if (forSearch) return <Input id={id} value={value} onChange={(e) => onChange?.(e.target.value)} placeholder={type} disabled={disabled} allowClear style={style} />;
      return <InputNumber id={id} value={value} onChange={onChange} stringMode disabled={disabled} placeholder={type} style={{ width: '100%', ...style }} />;
    case 'text':
      if (!forSearch) {
        return (
          <Input.TextArea
            id={id}
            value={value}
            onChange={(e) => onChange?.(e.target.value)}
            autoSize={{ minRows: 2, maxRows: 6 }}
            maxLength={field.maxLength}
            placeholder={type}
            disabled={disabled}
            style={style}
          />
        );
      }
      return <Input id={id} value={value} onChange={(e) => onChange?.(e.target.value)} placeholder={type} disabled={disabled} allowClear style={style} />;
    default:
      return (
        <Input
          id={id}
          value={value}
          onChange={(e) => onChange?.(e.target.value)}
          placeholder={type}
          disabled={disabled}
          allowClear={forSearch}
          style={style}
          autoComplete="off"
        />
      );
  }
}
