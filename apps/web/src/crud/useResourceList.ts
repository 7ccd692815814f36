import type { ResourceDef } from '@app/shared/resource';
import type { ListPage } from '@app/shared/resource/listPage';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useEagerQuery } from '../app/prefetch';
import { api } from '../app/request';
import { isTotalEstimated } from './listTotal';
import { resourcePaths } from './resourceClient';

/**
 * The list state of a resource screen: 0-based page (shown +1), page size, sort and filters, loaded with
 * `GET /api/<name>?page&size&sort&<filters>` -> `{content, totalElements, totalEstimated?}` (spec §4, §9).
 */

export const PAGE_SIZES = [10, 20, 30, 50];
export const DEFAULT_PAGE_SIZE = 10;

export type Row = Record<string, any>;
export type SortOrder = [field: string, dir: 'asc' | 'desc'];

/** A list answer: the shared ListPage (`totalEstimated` when the total is the PostgreSQL planner's estimate). */
export type PageResult<T = Row> = ListPage<T>;

export interface ResourceListOptions {
  /** List URL (a contract's path for a list that is not a resource's); default the resource's own (resourceClient). */
  url?: string;
  /** Parameters always sent (e.g. a fixed restriction). */
  baseParams?: Record<string, unknown>;
  /** Filters the screen starts with. */
  initialFilters?: Record<string, unknown>;
  pageSize?: number;
  /** Default sort; else the definition's, else `id,desc`. */
  defaultSort?: SortOrder[];
  /** Load only when true (e.g. once a company is chosen); may depend on the filters. */
  enabled?: boolean | ((filters: Record<string, unknown>) => boolean);
  /** Tree endpoints answer the whole tree: no page/size are sent. */
  paged?: boolean;
}

export interface ResourceList<T = Row> {
  rows: T[];
  total: number;
  /** `total` is the server's estimate (PostgreSQL, 10,000 matching rows or more): shown as "约 N 条". */
  totalEstimated: boolean;
  loading: boolean;
  /** 0-based. */
  page: number;
  size: number;
  sort: SortOrder[];
  filters: Record<string, unknown>;
  /** The parameters of the current call (exports reuse them). */
  params: Record<string, unknown>;
  /** Go to a 0-based page; a new size goes back to page 0. */
  setPage: (page: number, size?: number) => void;
  setSort: (sort: SortOrder[] | null) => void;
  /** New filters from the search bar: back to page 0. */
  search: (filters: Record<string, unknown>) => void;
  reload: () => Promise<unknown>;
  /** After deleting `count` rows of the current page: back one page when the page is now empty (the delete's mutation refreshes). */
  afterDelete: (count: number) => void;
  /** Query key prefix of this list (to invalidate it from elsewhere). */
  queryKey: unknown[];
}

function clean(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    if (typeof v === 'string' && v.trim() === '') continue;
    out[k] = typeof v === 'string' ? v.trim() : v;
  }
  return out;
}

/** The parameters of a list call for the given state. */
function listParams(state: { baseParams?: Record<string, unknown>; filters: Record<string, unknown>; page: number; size: number; sort: SortOrder[]; paged: boolean }) {
  const p: Record<string, unknown> = { ...clean(state.baseParams ?? {}), ...state.filters };
  if (state.paged) {
    p.page = state.page;
    p.size = state.size;
  }
  p.sort = state.sort.map(([f, d]) => `${f},${d}`);
  return p;
}

function listQuery<T>(url: string, params: Record<string, unknown>) {
  return { queryKey: ['crud', url, params], queryFn: () => api.get<PageResult<T> | T[]>(url, params) };
}

/**
 * The query a screen's useResourceList(def) starts with (first page, default size and sort, no filters): a page
 * load asks for it before the screen renders (see startEagerQuery).
 */
export function initialListQuery(def: Pick<ResourceDef, 'name' | 'defaultSort'>) {
  const params = listParams({ filters: {}, page: 0, size: DEFAULT_PAGE_SIZE, sort: def.defaultSort ?? [['id', 'desc']], paged: true });
  return listQuery(resourcePaths(def.name).list, params);
}

/** List state + data of a resource (or any paged endpoint with the same contract). */
export function useResourceList<T = Row>(def: Pick<ResourceDef, 'name' | 'defaultSort'>, opts: ResourceListOptions = {}): ResourceList<T> {
  const url = opts.url ?? resourcePaths(def.name).list;
  const paged = opts.paged ?? true;
  const defaultSort = useMemo<SortOrder[]>(() => opts.defaultSort ?? def.defaultSort ?? [['id', 'desc']], [opts.defaultSort, def.defaultSort]);
  const [page, setPageState] = useState(0);
  const [size, setSize] = useState(opts.pageSize ?? DEFAULT_PAGE_SIZE);
  const [sort, setSortState] = useState<SortOrder[] | null>(null);
  const [filters, setFilters] = useState<Record<string, unknown>>(() => clean(opts.initialFilters ?? {}));
  const queryClient = useQueryClient();

  const effectiveSort = sort ?? defaultSort;
  const params = useMemo(
    () => listParams({ baseParams: opts.baseParams, filters, page, size, sort: effectiveSort, paged }),
    [opts.baseParams, filters, page, size, effectiveSort, paged],
  );

  const enabled = typeof opts.enabled === 'function' ? opts.enabled(filters) : (opts.enabled ?? true);
  const queryKey = useMemo(() => ['crud', url], [url]);
  // requested while the screen first renders (useEagerQuery), not after that render
  const query = useEagerQuery({
    ...listQuery<T>(url, params),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

  const data = enabled ? query.data : undefined;
  const rows = useMemo<T[]>(() => {
    if (!data) return [];
    if (Array.isArray(data)) return data;
    return Array.isArray(data.content) ? data.content : [];
  }, [data]);
  const total = data && !Array.isArray(data) ? Number(data.totalElements ?? rows.length) : rows.length;

  const setPage = useCallback(
    (p: number, s?: number) => {
      if (s !== undefined && s !== size) {
        setSize(s);
        setPageState(0);
      } else setPageState(Math.max(0, p));
    },
    [size],
  );
  const search = useCallback((f: Record<string, unknown>) => {
    setFilters(clean(f));
    setPageState(0);
  }, []);
  const reload = useCallback(() => queryClient.invalidateQueries({ queryKey }), [queryClient, queryKey]);
  // the delete mutation (useResourceMutation) refreshes the list; this only steps back from an emptied page
  const afterDelete = useCallback(
    (count: number) => {
      if (page > 0 && count >= rows.length) setPageState(page - 1);
    },
    [page, rows.length],
  );

  return {
    rows,
    total,
    totalEstimated: isTotalEstimated(data),
    loading: enabled && (query.isFetching || query.isLoading),
    page,
    size,
    sort: effectiveSort,
    filters,
    params,
    setPage,
    setSort: setSortState,
    search,
    reload,
    afterDelete,
    queryKey,
  };
}
