import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Input, Select, Space } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DictMap } from '../app/dict';
import { FieldControl, chooserFields, filterFields, labelOf } from './fields';

/**
 * The search bar of a resource list. `fieldChooser`: one searchable field plus a value (HR records);
 * `filters`: one control per declared filter, dictionaries as selects, plus the multi-column `blurry`
 * search when the resource has one. Searching always goes back to page 0 (the list hook does that).
 */

export interface SearchBarProps {
  def: ResourceDef;
  dicts?: DictMap;
  /** Current filters (to fill the controls). */
  filters: Record<string, unknown>;
  onSearch: (filters: Record<string, unknown>) => void;
  /** Filters kept whatever the user does (e.g. a chosen company); reset does not clear them. */
  fixed?: Record<string, unknown>;
  /** Fields to leave out of the bar. */
  exclude?: string[];
  /** Extra controls before the buttons. */
  extra?: ReactNode;
  /** Which mode; default the definition's, else 'filters'. */
  mode?: 'fieldChooser' | 'filters';
}

export function SearchBar({ def, dicts, filters, onSearch, fixed, exclude = [], extra, mode }: SearchBarProps) {
  const m = mode ?? def.searchMode ?? 'filters';
  return m === 'fieldChooser' ? (
    <FieldChooserSearch def={def} filters={filters} onSearch={onSearch} fixed={fixed} exclude={exclude} extra={extra} />
  ) : (
    <FiltersSearch def={def} dicts={dicts} filters={filters} onSearch={onSearch} fixed={fixed} exclude={exclude} extra={extra} />
  );
}

function Buttons({ onSearch, onReset }: { onSearch: () => void; onReset: () => void }) {
  const { t } = useTranslation('crud');
  return (
    <>
      <Button type="primary" icon={<SearchOutlined />} onClick={onSearch} data-testid="crud-search">
        {t('search')}
      </Button>
      <Button icon={<ReloadOutlined />} onClick={onReset} data-testid="crud-reset">
        {t('reset')}
      </Button>
    </>
  );
}

function FieldChooserSearch({ def, filters, onSearch, fixed, exclude, extra }: Omit<SearchBarProps, 'dicts' | 'mode'> & { exclude: string[] }) {
  const { t } = useTranslation('crud');
  const fields = chooserFields(def).filter((f) => !exclude.includes(f.name));
  const current = fields.find((f) => filters[f.name] !== undefined && filters[f.name] !== '');
  const [field, setField] = useState<string | undefined>(current?.name ?? fields[0]?.name);
  const [value, setValue] = useState<string>(current ? String(filters[current.name]) : '');
  if (fields.length === 0) return extra ? <Space wrap>{extra}</Space> : null;

  const run = (f = field, v = value) => onSearch({ ...fixed, ...(f && v.trim() ? { [f]: v.trim() } : {}) });
  return (
    <Space wrap className="crud-search">
      <Space.Compact>
        <Select
          value={field}
          onChange={(f) => setField(f)}
          options={fields.map((f) => ({ value: f.name, label: labelOf(def.name, f) }))}
          style={{ width: 130 }}
          aria-label={t('searchField')}
          data-testid="crud-search-field"
        />
        <Input
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onPressEnter={() => run()}
          placeholder={t('searchValue')}
          allowClear
          style={{ width: 220 }}
          data-testid="crud-search-value"
        />
      </Space.Compact>
      {extra}
      <Buttons
        onSearch={() => run()}
        onReset={() => {
          setValue('');
          setField(fields[0]?.name);
          onSearch({ ...fixed });
        }}
      />
    </Space>
  );
}

function FiltersSearch({ def, dicts, filters, onSearch, fixed, exclude, extra }: Omit<SearchBarProps, 'mode'> & { exclude: string[] }) {
  const { t } = useTranslation('crud');
  const fields: FieldDef[] = filterFields(def).filter((f) => !exclude.includes(f.name) && !(fixed && f.name in fixed));
  const [values, setValues] = useState<Record<string, unknown>>(() => ({ ...filters }));
  const hasBlurry = !!def.blurry?.length && !exclude.includes('blurry');
  if (fields.length === 0 && !hasBlurry && !extra) return null;

  const run = (v = values) => onSearch({ ...v, ...fixed });
  const set = (name: string, v: unknown) => setValues((s) => ({ ...s, [name]: v }));
  return (
    <Space wrap className="crud-search">
      {hasBlurry && (
        <Input
          value={(values.blurry as string) ?? ''}
          onChange={(e) => set('blurry', e.target.value)}
          onPressEnter={() => run()}
          placeholder={t('blurryPlaceholder')}
          allowClear
          style={{ width: 200 }}
          data-testid="crud-search-blurry"
        />
      )}
      {fields.map((f) => (
        <div key={f.name} className="crud-search-item" data-testid={`crud-filter-${f.name}`}>
          <SearchControl def={def} field={f} dicts={dicts} value={values[f.name]} onChange={(v) => set(f.name, v)} onEnter={() => run()} />
        </div>
      ))}
      {extra}
      <Buttons
        onSearch={() => run()}
        onReset={() => {
          setValues({});
          onSearch({ ...fixed });
        }}
      />
    </Space>
  );
}

function SearchControl({
  def,
  field,
  dicts,
  value,
  onChange,
  onEnter,
}: {
  def: ResourceDef;
  field: FieldDef;
  dicts?: DictMap;
  value: unknown;
  onChange: (v: unknown) => void;
  onEnter: () => void;
}) {
  const label = labelOf(def.name, field);
  const isText = !['bool', 'dict', 'ref', 'date', 'month'].includes(field.kind);
  const width = field.kind === 'ref' ? 180 : isText ? 160 : 140;
  if (isText) {
    return (
      <Input
        value={(value as string) ?? ''}
        onChange={(e) => onChange(e.target.value)}
        onPressEnter={onEnter}
        placeholder={label}
        allowClear
        style={{ width }}
        aria-label={label}
      />
    );
  }
  return <FieldControl resource={def.name} field={field} dicts={dicts} value={value} onChange={onChange} placeholder={label} forSearch style={{ width }} />;
}
