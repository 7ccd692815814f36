import type { KindSpec, ResourceDef } from '@app/shared/resource';
import { columnFields, columnOf, FIELD_KINDS, toDbValue } from '@app/shared/resource';

// The conversions live in the kind registry (FIELD_KINDS); re-exported for the modules that map by hand.
export { fenToYuanNumber, toApiValue, toDbValue, yuanToFenExact } from '@app/shared/resource';

/** The fields of a definition that go out, with their columns: worked out once per definition. */
const outgoingFields = new WeakMap<ResourceDef, { name: string; column: string; toApi?: (v: any) => unknown }[]>();
function outgoing(def: ResourceDef) {
  let list = outgoingFields.get(def);
  if (!list) {
    list = columnFields(def).filter((f) => !f.secret).map((f) => ({ name: f.name, column: columnOf(f), toApi: (FIELD_KINDS[f.kind] as KindSpec).toApi }));
    outgoingFields.set(def, list);
  }
  return list;
}

/** Map a database row to the API shape declared by the definition (secret fields dropped). */
export function rowToApi(def: ResourceDef, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of outgoing(def)) {
    const v = row[f.column];
    out[f.name] = v === null || v === undefined ? null : f.toApi ? f.toApi(v) : v;
  }
  return out;
}

/** Map validated API values (by field name) to database columns. */
export function apiToDb(def: ResourceDef, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // (link-table fields are written by the CRUD's link step, not as columns)
  for (const f of columnFields(def)) {
    if (f.name in values) out[columnOf(f)] = toDbValue(f, values[f.name]);
  }
  return out;
}
