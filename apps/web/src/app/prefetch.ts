import { type QueryClient, type QueryKey, type UseQueryOptions, type UseQueryResult, hashKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

/** When the eager request of a query (by hash) started; read by the mount that follows it. */
const eagerStarts = new Map<string, number>();
/** An eager request whose component never mounted (a discarded render) is forgotten after this. */
const EAGER_WINDOW_MS = 10_000;

/**
 * Start a query's request now, as useEagerQuery does in a first render (and nothing when something is cached
 * under the key): a page load can ask for its screen's data before the screen renders, and the screen's
 * useEagerQuery then takes that request as its own (no second request at mount).
 */
export function startEagerQuery(queryClient: QueryClient, options: Pick<UseQueryOptions<any, Error, any, QueryKey>, 'queryKey' | 'queryFn'> & { enabled?: boolean }): void {
  if (options.enabled === false || queryClient.getQueryState(options.queryKey)) return;
  eagerStarts.set(hashKey(options.queryKey), Date.now());
  void queryClient.prefetchQuery({ queryKey: options.queryKey, queryFn: options.queryFn });
}

/**
 * useQuery whose first request starts while the component first renders, not after its first commit: a
 * screen's first render can take a few hundred ms and its data need not wait for it. Same rule as TanStack's
 * usePrefetchQuery: only when nothing is cached under the key, so there is never a second request (a fetch
 * at mount joins the one in flight). What the eager request loaded is not loaded again at mount, even with
 * staleTime 0, and its failure, already reported by the request layer, is not retried at mount; data or
 * errors cached before the component rendered are refetched / retried as useQuery would. Only a boolean
 * `enabled` is supported.
 */
export function useEagerQuery<T>(options: UseQueryOptions<T, Error, T, QueryKey> & { enabled?: boolean }): UseQueryResult<T, Error> {
  const queryClient = useQueryClient();
  const hash = hashKey(options.queryKey);
  const mounted = useRef(false);
  if (!mounted.current) startEagerQuery(queryClient, options);
  // a render that React discarded and retried finds the same start (its ref is gone, the map entry is not)
  const eager = mounted.current ? undefined : eagerStarts.get(hash);
  const started = eager !== undefined && Date.now() - eager < EAGER_WINDOW_MS ? eager : undefined;
  const state = queryClient.getQueryState(options.queryKey);
  const result = useQuery({
    ...options,
    refetchOnMount: started === undefined ? options.refetchOnMount : (query) => query.state.dataUpdatedAt < started,
    retryOnMount: started !== undefined && state?.status === 'error' && state.errorUpdatedAt >= started ? false : options.retryOnMount,
  });
  // after useQuery's own effects (it subscribes, and decides about fetching, in them)
  const firstHash = useRef(hash);
  useEffect(() => {
    mounted.current = true;
    eagerStarts.delete(firstHash.current);
  }, []);
  return result;
}
