import { userResource } from '@app/shared/resources/user';
import { dictsQuery } from '../../app/dict';
import { startEagerQuery } from '../../app/prefetch';
import { queryClient } from '../../app/queryClient';
import { api } from '../../app/request';
import { initialListQuery } from '../../crud/useResourceList';
import type { TreeRow } from './tree';

/** The users screen's first requests, apart from its code, so that a page load can start them at once. */

export const USER_DICTS = ['user_status'];

/** The department tree beside the users, filtered by name. */
export function deptTreeQuery(name: string) {
  return { queryKey: ['ref', 'dept', { name, tree: true }], queryFn: () => api.get<{ content: TreeRow[] }>('/api/dept', { name: name || undefined }) };
}

/** Start what UserPage asks for first (its useEagerQuery calls then take these requests as their own). */
export function prefetchUserScreen(): void {
  startEagerQuery(queryClient, initialListQuery(userResource));
  startEagerQuery(queryClient, dictsQuery(USER_DICTS));
  startEagerQuery(queryClient, deptTreeQuery(''));
}
