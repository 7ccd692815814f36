/**
 * Body helpers of the system screens' relations: `{id}` objects such as a user's `dept`. (The role assignment
 * endpoints' `[{id}, ...]` lists are parsed by their contracts, contracts/system.ts; sets kept in link tables are
 * `refMany` fields of the generic CRUD.)
 */

/** An `{id}` object (or a bare id) from a body field such as `dept: {id}`; undefined when absent. */
export function refId(raw: unknown): unknown {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) return (raw as { id?: unknown }).id;
  return raw;
}
