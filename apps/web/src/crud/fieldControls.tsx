import type { FieldDef, WebControl } from '@app/shared/resource';
import { kindOf } from '@app/shared/resource';
import { percentToRatio, ratioToPercent } from '@app/shared/percent';
import { DatePicker, Input, InputNumber, Radio, Select } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DictEntry, DictMap } from '../app/dict';
import { labelOf } from './fieldLabels';
import { RefMultiSelect, RefSelect } from './RefSelect';

/** The control that edits a field, per `web.control` of the kind registry. */

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

