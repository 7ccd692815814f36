import type { FieldDef, ResourceDef, WebControl, WebDisplay } from '@app/shared/resource';
import { isSortableField, kindOf, validateField } from '@app/shared/resource';
import { RESOURCES } from '@app/shared/resources/index';
import { type LabelTranslator, renderError, translateMessage } from '@app/shared/errors/catalogue';
import type { FieldMessage } from '@app/shared/errors/zodIssues';
import { percentToRatio, ratioToPercent } from '@app/shared/percent';
import { useQuery } from '@tanstack/react-query';
import { DatePicker, Input, InputNumber, Radio, Select, Tag, TreeSelect } from 'antd';
import type { Rule } from 'antd/es/form';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type DictEntry, type DictMap, dictLabel, translateDictValue } from '../app/dict';
import { currentLanguage, i18n } from '../app/i18n';
import { fieldLabel, resourceLabel } from './resourceLabels';
import { formatDate, formatDateTime, formatMoney, formatRatio } from './format';
import type { Row } from './useResourceList';
import { listResource } from './resourceClient';

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
  return isSortableField(f);
}

/** Fields offered by the field chooser of `searchMode: 'fieldChooser'`. */
export function chooserFields(def: ResourceDef): FieldDef[] {
  const marked = def.fields.filter((f) => f.search && f.filter);
  const chosen = internalIdLast(marked.length ? marked : def.fields.filter((f) => f.filter && kindOf(f).text && kindOf(f).web.control === 'text'));
  // the first is the default choice: a person's or company's name where there is one
  return [...chosen.filter((f) => NAME_FIELDS.has(f.name)), ...chosen.filter((f) => !NAME_FIELDS.has(f.name))];
}

/** Fields that name a row (looked up by a clerk before anything else). */
const NAME_FIELDS = new Set(['staffName', 'name', 'companyName', 'cname']);

/**
 * U22: a clerk looks a row up by its name, never by the database's id, so the id filter (kept for those who
 * have one from a link or a log) comes last and is never the first or default choice.
 */
function internalIdLast(fields: FieldDef[]): FieldDef[] {
  return [...fields.filter((f) => f.name !== 'id'), ...fields.filter((f) => f.name === 'id')];
}

/** One control per declared filter (`searchMode: 'filters'`); `search: false` leaves a filter out. */
export function filterFields(def: ResourceDef): FieldDef[] {
  const withFilter = def.fields.filter((f) => f.filter && !f.secret);
  const anyMarked = withFilter.some((f) => f.search !== undefined);
  return internalIdLast(anyMarked ? withFilter.filter((f) => f.search) : withFilter);
}

/** Dictionary names used by some fields. */
export function dictNames(fields: readonly FieldDef[]): string[] {
  return [...new Set(fields.map((f) => f.dict).filter((d): d is string => !!d))];
}

// ---- labels -----------------------------------------------------------------------------------------------

/** Label of a field in the current language (the definition's `labels`, else the Chinese label). */
export const labelOf: (resource: string, field: Pick<FieldDef, 'name' | 'label'>) => string = fieldLabel;

/** Name of a resource in the current language (the definition's `labels._label`, else the Chinese label). */
export { resourceLabel };

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

// ---- rules and form values ------------------------------------------------------------------------------

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
 * the screens use (W9: en/es/ja forms said '请输入…'); Chinese text of a check not converted to a code yet
 * goes through the catalogue too, and stays as it is when the catalogue does not know it.
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
    return null;
  };
  if (typeof m !== 'string') return renderError(m.code, m.params ?? {}, lng, labels);
  return lng === 'zh' ? m : translateMessage(m, lng, labels);
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
    queryFn: () => listResource<{ content?: Row[] } | Row[]>(resource, { page: 0, size: 9999, ...params }),
    staleTime: 30_000,
    enabled,
  });
  const rows = Array.isArray(q.data) ? q.data : (q.data?.content ?? []);
  return { options: toRefOptions(rows, labelField), rows, loading: q.isLoading };
}

/** Whether a picker of `resource` is a tree: tree resources (a `pid` field) from the start, not only once their rows arrived. */
function isTreeOptions(resource: string, options: RefOption[]): boolean {
  return !!RESOURCES[resource]?.fields.some((f) => f.name === 'pid') || options.some((o) => o.children?.length);
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
  if (isTreeOptions(resource, options)) {
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

/**
 * Several rows of another resource (a `refMany` field): a multiple select, or a checkable tree for tree
 * resources (departments, menus), where checking a parent checks its children and every checked row is in the
 * value (each row is its own link). The value is the ids.
 */
export function RefMultiSelect({
  resource,
  labelField,
  value,
  onChange,
  disabled,
  placeholder,
  params,
  style,
  id,
  testId,
}: {
  resource: string;
  labelField: string;
  value?: number[] | null;
  onChange?: (v: number[]) => void;
  disabled?: boolean;
  placeholder?: string;
  params?: Record<string, unknown>;
  style?: React.CSSProperties;
  id?: string;
  testId?: string;
}) {
  const { options, loading } = useRefOptions(resource, labelField, params);
  if (isTreeOptions(resource, options)) {
    return (
      <TreeSelect
        id={id}
        value={value ?? []}
        onChange={(v: number[] | { value: number }[]) => onChange?.((v ?? []).map((x) => (typeof x === 'object' ? x.value : x)))}
        treeData={options}
        treeCheckable
        showCheckedStrategy={TreeSelect.SHOW_ALL}
        treeDefaultExpandAll
        showSearch={{ treeNodeFilterProp: 'title' }}
        disabled={disabled}
        placeholder={placeholder}
        loading={loading}
        style={{ width: '100%', ...style }}
        data-testid={testId}
      />
    );
  }
  return (
    <Select
      id={id}
      mode="multiple"
      value={value ?? []}
      onChange={(v: number[]) => onChange?.(v ?? [])}
      options={options.map((o) => ({ value: o.value, label: o.label }))}
      showSearch={{ optionFilterProp: 'label' }}
      allowClear
      disabled={disabled}
      placeholder={placeholder}
      loading={loading}
      style={{ width: '100%', ...style }}
      data-testid={testId}
    />
  );
}

interface ControlContext extends FieldControlProps {
  t: (key: string) => string;
  choose: string;
  type: string;
  entries?: DictEntry[];
}

/** The control that edits a value, per `web.control` of the kind registry. */
const CONTROLS: Record<WebControl, (c: ControlContext) => ReactNode> = {
  bool: ({ id, value, onChange, disabled, forSearch, style, entries, t, choose }) => {
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
  },
  dict: ({ id, value, onChange, disabled, style, entries, choose }) => (
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
  ),
  ref: ({ id, field, value, onChange, disabled, style, choose }) =>
    field.ref ? (
      <RefSelect id={id} resource={field.ref.resource} labelField={field.ref.labelField} value={value} onChange={onChange} disabled={disabled} placeholder={choose} style={style} />
    ) : (
      <InputNumber id={id} value={value} onChange={onChange} disabled={disabled} style={{ width: '100%', ...style }} />
    ),
  refMany: ({ id, field, value, onChange, disabled, style, choose }) =>
    field.ref ? (
      <RefMultiSelect id={id} resource={field.ref.resource} labelField={field.ref.labelField} value={value} onChange={onChange} disabled={disabled} placeholder={choose} style={style} />
    ) : null,
  date: ({ id, value, onChange, disabled, style, choose }) => <DateControl id={id} value={value} onChange={onChange} disabled={disabled} placeholder={choose} style={style} />,
  month: ({ id, value, onChange, disabled, style, choose }) => <DateControl id={id} value={value} onChange={onChange} month disabled={disabled} placeholder={choose} style={style} />,
  int: (c) =>
    c.forSearch ? (
      searchInput(c)
    ) : (
      // No min/max on the control: it would clamp silently; the rules say what is wrong instead.
      <InputNumber id={c.id} value={c.value} onChange={c.onChange} precision={0} disabled={c.disabled} placeholder={c.type} style={{ width: '100%', ...c.style }} />
    ),
  decimal: (c) =>
    c.forSearch ? (
      searchInput(c)
    ) : (
      <InputNumber id={c.id} value={c.value} onChange={c.onChange} stringMode disabled={c.disabled} placeholder={c.type} style={{ width: '100%', ...c.style }} />
    ),
  // a ratio (stored 0.16) is typed and shown as a percentage (16 %), as the tables show it (U20)
  percent: (c) =>
    c.forSearch ? (
      searchInput(c)
    ) : (
      <InputNumber
        id={c.id}
        value={ratioToPercent(c.value)}
        onChange={(v) => c.onChange?.(percentToRatio(v))}
        stringMode
        suffix="%"
        disabled={c.disabled}
        placeholder={c.type}
        style={{ width: '100%', ...c.style }}
      />
    ),
  textarea: (c) =>
    c.forSearch ? (
      searchInput(c)
    ) : (
      <Input.TextArea
        id={c.id}
        value={c.value}
        onChange={(e) => c.onChange?.(e.target.value)}
        autoSize={{ minRows: 2, maxRows: 6 }}
        maxLength={c.field.maxLength}
        placeholder={c.type}
        disabled={c.disabled}
        style={c.style}
      />
    ),
  text: ({ id, value, onChange, disabled, forSearch, style, type }) => (
    <Input id={id} value={value} onChange={(e) => onChange?.(e.target.value)} placeholder={type} disabled={disabled} allowClear={forSearch} style={style} autoComplete="off" />
  ),
};

function searchInput({ id, value, onChange, disabled, style, type }: ControlContext) {
  return <Input id={id} value={value} onChange={(e) => onChange?.(e.target.value)} placeholder={type} disabled={disabled} allowClear style={style} />;
}

/** The control that edits a field by its kind. */
export function FieldControl(props: FieldControlProps) {
  const { field, dicts } = props;
  const { t } = useTranslation('crud');
  const label = labelOf(props.resource, field);
  const choose = props.placeholder ?? t('selectPlaceholder', { label });
  const type = props.placeholder ?? t('inputPlaceholder', { label });
  const entries = field.dict ? (dicts?.[field.dict] ?? []) : undefined;
  return CONTROLS[kindOf(field).web.control]({ ...props, t, choose, type, entries });
}
