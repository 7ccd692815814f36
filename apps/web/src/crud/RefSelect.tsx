import { RESOURCES } from '@app/shared/resources/index';
import { useQuery } from '@tanstack/react-query';
import { Select, TreeSelect } from 'antd';
import type { Row } from './useResourceList';
import { listResource } from './resourceClient';

/** Pickers of rows of another resource (`ref` and `refMany` fields, and pages that pick a row themselves). */

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
