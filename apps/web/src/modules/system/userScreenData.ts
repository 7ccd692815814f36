import { deptResource } from '@app/shared/resources/dept';
import { userResource } from '@app/shared/resources/user';
import { dictsQuery } from '../../app/dict';
import { startEagerQuery } from '../../app/prefetch';
import { queryClient } from '../../app/queryClient';
import { listTreeOf } from '../../crud/resourceClient';
import { initialListQuery } from '../../crud/useResourceList';

/** The users screen's first requests, apart from its code, so that a page load can start them at once. */

export const USER_DICTS = ['user_status'];

/** The department tree beside the users, filtered by name. */
export function deptTreeQuery(name: string) {
  return { queryKey: ['ref', 'dept', { name, tree: true }], queryFn: () => listTreeOf(deptResource, { name: name || undefined }) };
}

/** Start what UserPage asks for first (its useEagerQuery calls then take these requests as their own). */
export function prefetchUserScreen(): void {
  startEagerQuery(queryClient, initialListQuery(userResource));
  startEagerQuery(queryClient, dictsQuery(USER_DICTS));
  startEagerQuery(queryClient, deptTreeQuery(''));
}
