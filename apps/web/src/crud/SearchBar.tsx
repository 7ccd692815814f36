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
 * Every control sits behind a visible label (`SearchItem`: a placeholder vanishes once a value is typed, so
 * it cannot be the only name of a filter), and a screen's required filter (单位) goes first through `lead`.
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
  /**
   * Controls before every other filter, each wrapped in a `SearchItem`: the filters a screen cannot list
   * without (单位, then 月份) come first, where the eye starts, as in Ant Design Pro's query forms.
   */
  lead?: ReactNode;
  /**
   * The keyword box: its placeholder, test id and width, and `field`, the filter its text goes under when the
   * resource has no multi-column `blurry` search (e.g. a dictionary's entries by 字典标签).
   */
  keyword?: KeywordOptions;
  /** Which mode; default the definition's, else 'filters'. */
  mode?: 'fieldChooser' | 'filters';
}

export interface KeywordOptions {
  placeholder?: string;
  testId?: string;
  width?: number;
  field?: string;
}

export function SearchBar({ def, dicts, filters, onSearch, fixed, exclude = [], extra, lead, keyword, mode }: SearchBarProps) {
  const m = mode ?? def.searchMode ?? 'filters';
  return m === 'fieldChooser' ? (
    <FieldChooserSearch def={def} filters={filters} onSearch={onSearch} fixed={fixed} exclude={exclude} extra={extra} lead={lead} />
  ) : (
    <FiltersSearch def={def} dicts={dicts} filters={filters} onSearch={onSearch} fixed={fixed} exclude={exclude} extra={extra} lead={lead} keyword={keyword} />
  );
}

export interface SearchItemProps {
  /** The filter's name, shown before the control (单位, 月份, 姓名...). */
  label: ReactNode;
  /** The id of the control, so a click on the label focuses it. */
  htmlFor?: string;
  /** The screen lists nothing without this filter: a red mark as in the dialogs' required fields. */
  required?: boolean;
  testId?: string;
  children: ReactNode;
}

/** One labelled filter of a search bar: the label and its control stay together when the bar wraps. */
export function SearchItem({ label, htmlFor, required, testId, children }: SearchItemProps) {
  return (
    <div className="crud-search-item" data-testid={testId}>
      <label className={required ? 'crud-search-label crud-search-required' : 'crud-search-label'} htmlFor={htmlFor}>
        {label}
      </label>
      {children}
    </div>
  );
}

/** The bar's frame: a wrapping row of labelled items, the buttons last. */
export function SearchRow({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="crud-search" data-testid={testId}>
      {children}
    </div>
  );
}

/** 搜索 and 重置 (重置 only when `onReset` is given). */
export function SearchButtons({ onSearch, onReset, searchTestId = 'crud-search' }: { onSearch: () => void; onReset?: () => void; searchTestId?: string }) {
  const { t } = useTranslation('crud');
  // their own Space: as one item of the bar a fragment would leave the two buttons touching
  return (
    <Space className="crud-search-buttons">
      <Button type="primary" icon={<SearchOutlined />} onClick={onSearch} data-testid={searchTestId}>
        {t('search')}
      </Button>
      {onReset && (
        <Button icon={<ReloadOutlined />} onClick={onReset} data-testid="crud-reset">
          {t('reset')}
        </Button>
      )}
    </Space>
  );
}

function FieldChooserSearch({ def, filters, onSearch, fixed, exclude, extra, lead }: Omit<SearchBarProps, 'dicts' | 'mode' | 'keyword'> & { exclude: string[] }) {
  const { t } = useTranslation('crud');
  const fields = chooserFields(def).filter((f) => !exclude.includes(f.name));
  const current = fields.find((f) => filters[f.name] !== undefined && filters[f.name] !== '');
  const [field, setField] = useState<string | undefined>(current?.name ?? fields[0]?.name);
  const [value, setValue] = useState<string>(current ? String(filters[current.name]) : '');
  if (fields.length === 0) return extra || lead ? <SearchRow>{lead}{extra}</SearchRow> : null;

  const run = (f = field, v = value) => onSearch({ ...fixed, ...(f && v.trim() ? { [f]: v.trim() } : {}) });
  return (
    <SearchRow>
      {lead}
      <SearchItem label={t('keyword')} htmlFor={`crud-search-value-${def.name}`}>
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
            id={`crud-search-value-${def.name}`}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            onPressEnter={() => run()}
            placeholder={t('searchValue')}
            allowClear
            style={{ width: 220 }}
            data-testid="crud-search-value"
          />
        </Space.Compact>
      </SearchItem>
      {extra}
      <SearchButtons
        onSearch={() => run()}
        onReset={() => {
          setValue('');
          setField(fields[0]?.name);
          onSearch({ ...fixed });
        }}
      />
    </SearchRow>
  );
}

function FiltersSearch({ def, dicts, filters, onSearch, fixed, exclude, extra, lead, keyword }: Omit<SearchBarProps, 'mode'> & { exclude: string[] }) {
  const { t } = useTranslation('crud');
  // the keyword box searches `blurry`, or the one field named by `keyword.field` (then not offered twice)
  const kw = keyword?.field ?? 'blurry';
  const fields: FieldDef[] = filterFields(def).filter((f) => f.name !== kw && !exclude.includes(f.name) && !(fixed && f.name in fixed));
  const [values, setValues] = useState<Record<string, unknown>>(() => ({ ...filters }));
  const hasBlurry = (keyword?.field ? true : !!def.blurry?.length) && !exclude.includes(kw);
  // a keyword box on one field is named after it (字典标签), the multi-column one 关键字
  const kwField = keyword?.field ? def.fields.find((f) => f.name === keyword.field) : undefined;
  const kwLabel = kwField ? labelOf(def.name, kwField) : t('keyword');
  if (fields.length === 0 && !hasBlurry && !extra && !lead) return null;

  const run = (v = values) => onSearch({ ...v, ...fixed });
  const set = (name: string, v: unknown) => setValues((s) => ({ ...s, [name]: v }));
  const id = (name: string) => `crud-filter-${def.name}-${name}`;
  return (
    <SearchRow>
      {lead}
      {hasBlurry && (
        <SearchItem label={kwLabel} htmlFor={id(kw)}>
          <Input
            id={id(kw)}
            value={(values[kw] as string) ?? ''}
            onChange={(e) => set(kw, e.target.value)}
            onPressEnter={() => run()}
            placeholder={keyword?.placeholder ?? t('blurryPlaceholder')}
            allowClear
            style={{ width: keyword?.width ?? 200 }}
            data-testid={keyword?.testId ?? 'crud-search-blurry'}
          />
        </SearchItem>
      )}
      {fields.map((f) => (
        <SearchItem key={f.name} label={labelOf(def.name, f)} htmlFor={id(f.name)} testId={`crud-filter-${f.name}`}>
          <SearchControl def={def} field={f} dicts={dicts} value={values[f.name]} onChange={(v) => set(f.name, v)} onEnter={() => run()} id={id(f.name)} />
        </SearchItem>
      ))}
      {extra}
      <SearchButtons
        onSearch={() => run()}
        onReset={() => {
          setValues({});
          onSearch({ ...fixed });
        }}
      />
    </SearchRow>
  );
}

function SearchControl({
  def,
  field,
  dicts,
  value,
  onChange,
  onEnter,
  id,
}: {
  def: ResourceDef;
  field: FieldDef;
  dicts?: DictMap;
  value: unknown;
  onChange: (v: unknown) => void;
  onEnter: () => void;
  id: string;
}) {
  const label = labelOf(def.name, field);
  const isText = !['bool', 'dict', 'ref', 'date', 'month'].includes(field.kind);
  const width = field.kind === 'ref' ? 180 : isText ? 160 : 140;
  if (isText) {
    return (
      <Input
        id={id}
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
  return <FieldControl resource={def.name} field={field} dicts={dicts} value={value} onChange={onChange} placeholder={label} forSearch style={{ width }} id={id} />;
}
