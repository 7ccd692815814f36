import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, Space, Tooltip } from 'antd';
import type { TableProps } from 'antd';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listTotalText } from './listTotal';
import { SearchButtons, SearchItem, SearchRow } from './SearchBar';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type PageResult } from './useResourceList';

/**
 * The list state of a hand-written list screen whose endpoint is not a resource list (its own URL, paging
 * parameters and filters): filters, page and size, the page loaded with the previous one shown meanwhile, and the
 * paging rules every list follows (spec §4): a new filter or page size goes back to the first page, deleting the
 * last row of a page goes back one page. Resource screens use useResourceList instead.
 */
export interface PagedListOptions<T, F> {
  /** Query-key prefix: refresh() invalidates everything under it (the screen's dialogs' queries too). */
  key: string | readonly unknown[];
  /** The filters the list starts with. */
  filters: F;
  /** Loads one page; `page` is 0-based (an endpoint counting from 1 is given page + 1). */
  load: (filters: F, page: number, size: number) => Promise<PageResult<T>>;
  /** The pager's "共 N 条" text (a total the server only estimated shows as the CRUD lists' "约 N 条" instead). */
  showTotal: (total: number) => ReactNode;
}

export function usePagedList<T extends object, F extends Record<string, unknown>>({ key, filters: initialFilters, load, showTotal }: PagedListOptions<T, F>) {
  const queryClient = useQueryClient();
  const { t } = useTranslation('crud');
  const prefix = typeof key === 'string' ? [key] : key;
  const [filters, setFilters] = useState<F>(initialFilters);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(DEFAULT_PAGE_SIZE);
  const query = useQuery({
    queryKey: [...prefix, 'list', filters, page, size],
    queryFn: () => load(filters, page, size),
    placeholderData: (previous) => previous,
  });
  const rows = query.data?.content ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: prefix });

  /** Props for antd's Table: rows, loading and a pager with the usual sizes. */
  const tableProps: Pick<TableProps<T>, 'rowKey' | 'dataSource' | 'loading' | 'pagination'> = {
    rowKey: 'id' as TableProps<T>['rowKey'],
    dataSource: rows,
    loading: query.isFetching,
    pagination: {
      current: page + 1,
      pageSize: size,
      total: query.data?.totalElements ?? 0,
      showSizeChanger: true,
      pageSizeOptions: PAGE_SIZES,
      showTotal: (total) => (query.data?.totalEstimated ? listTotalText(t, total, true) : showTotal(total)),
      onChange: (p, s) => {
        if (s !== size) {
          setSize(s);
          setPage(0);
        } else setPage(p - 1);
      },
    },
  };

  return {
    query,
    rows,
    filters,
    /** 0-based. */
    page,
    /** New values for some filters: back to the first page. */
    filter: (patch: Partial<F>) => {
      setFilters((current) => ({ ...current, ...patch }));
      setPage(0);
    },
    refresh,
    /** After one row was deleted: when it was the last of its page, show the page before (spec §4). */
    afterDelete: () => {
      if (rows.length === 1 && page > 0) setPage(page - 1);
      return refresh();
    },
    tableProps,
  };
}

export interface ListToolbarProps {
  /** i18n namespace holding the screen's `search`, `add` and `refresh` texts. */
  ns: string;
  /**
   * The name search box: the trimmed text is searched on Enter or 搜索. `label` names it in front of the box
   * (default 关键字), as every filter of the CRUD screens is named.
   */
  search: { placeholder: string; onSearch: (text: string) => void; testId?: string; width?: number; label?: string };
  /** Further filters, between the search box and 搜索 (wrap each in a `SearchItem` with its label). */
  filters?: ReactNode;
  /** 新增, shown only when given (i.e. when the user may create). */
  onAdd?: () => void;
  addTestId?: string;
  /** Further buttons, after 新增. */
  extra?: ReactNode;
  onRefresh: () => unknown;
}

/**
 * The filter row and toolbar above a hand-written list, laid out as the CRUD screens' (U19: one design
 * language): a labelled search row with 搜索 and 重置, then 新增 and the screen's buttons on the left and the
 * refresh icon on the right.
 */
export function ListToolbar({ ns, search, filters, onAdd, addTestId, extra, onRefresh }: ListToolbarProps) {
  const { t } = useTranslation(ns);
  const { t: tc } = useTranslation('crud');
  const [draft, setDraft] = useState('');
  const inputId = useId();
  const submit = () => search.onSearch(draft.trim());
  const reset = () => {
    setDraft('');
    search.onSearch('');
  };
  return (
    <>
      <SearchRow>
        <SearchItem label={search.label ?? tc('keyword')} htmlFor={inputId}>
          <Input
            id={inputId}
            allowClear
            placeholder={search.placeholder}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onPressEnter={submit}
            style={{ width: search.width ?? 220 }}
            data-testid={search.testId}
          />
        </SearchItem>
        {filters}
        <SearchButtons onSearch={submit} onReset={reset} searchTestId={`${search.testId ?? 'list'}-submit`} />
      </SearchRow>
      <div className="crud-toolbar">
        <Space wrap>
          {onAdd ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={onAdd} data-testid={addTestId}>
              {t('add')}
            </Button>
          ) : null}
          {extra}
        </Space>
        <Tooltip title={t('refresh')}>
          <Button icon={<ReloadOutlined />} onClick={() => void onRefresh()} aria-label={t('refresh')} />
        </Tooltip>
      </div>
    </>
  );
}
