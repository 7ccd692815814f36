import { QueryClient } from '@tanstack/react-query';

/** The one TanStack Query client of the app (errors are already shown by the request layer). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
