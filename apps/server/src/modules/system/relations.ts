import { idListInput } from '@app/shared/resource';
import { firstIssueError } from '../../core/errors.ts';

/**
 * Body helpers of the system screens' relations: the role assignment endpoints' `[{id}, ...]` lists and
 * `{id}` objects such as a user's `dept`. (Sets kept in link tables are `refMany` fields of the generic CRUD.)
 */

/** Parse `[{id}, ...]` (or `[id, ...]`) into distinct positive ids; 400 with `message` when malformed. */
export function parseIdRefs(raw: unknown, message: string): number[] {
  const r = idListInput(message).safeParse(raw);
  if (!r.success) throw firstIssueError(r.error);
  return r.data;
}

/** An `{id}` object (or a bare id) from a body field such as `dept: {id}`; undefined when absent. */
export function refId(raw: unknown): unknown {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) return (raw as { id?: unknown }).id;
  return raw;
}
