import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { columnOf } from '@app/shared/resource';

/** Exact yuan (number or string with <= 2 decimals, already validated) to integer fen, without float maths. */
export function yuanToFenExact(v: number | string): number {
  const s = typeof v === 'number' ? v.toFixed(2) : v.trim();
  const neg = s.startsWith('-');
  const [int, frac = ''] = (neg ? s.slice(1) : s).split('.');
  const fen = Number(int) * 100 + Number((frac + '00').slice(0, 2));
  return neg ? -fen : fen;
}

/** Integer fen to yuan for JSON (e.g. 123456 -> 1234.56). */
export function fenToYuanNumber(fen: number | null | undefined): number | null {
  if (fen === null || fen === undefined) return null;
  return Number((fen / 100).toFixed(2));
}

/** A database value to its API form for one field. */
export function toApiValue(field: FieldDef, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (field.kind) {
    case 'money':
      return fenToYuanNumber(Number(v));
    case 'bool':
      return v === true || v === 1 || v === '1';
    case 'int':
    case 'ref':
    case 'ratio':
      return Number(v);
    default:
      return v;
  }
}

/** A validated API value to its database form for one field. */
export function toDbValue(field: FieldDef, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (field.kind) {
    case 'money':
      return yuanToFenExact(v as number);
    case 'bool':
      return v ? 1 : 0;
    default:
      return v;
  }
}

/** The fields of a definition that go out, with their columns: worked out once per definition. */
const outgoingFields = new WeakMap<ResourceDef, { field: FieldDef; name: string; column: string }[]>();
function outgoing(def: ResourceDef) {
  let list = outgoingFields.get(def);
  if (!list) {
    list = def.fields.filter((f) => !f.secret).map((f) => ({ field: f, name: f.name, column: columnOf(f) }));
    outgoingFields.set(def, list);
  }
  return list;
}

/** Map a database row to the API shape declared by the definition (secret fields dropped). */
export function rowToApi(def: ResourceDef, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of outgoing(def)) out[f.name] = toApiValue(f.field, row[f.column]);
  return out;
}

/** Map validated API values (by field name) to database columns. */
export function apiToDb(def: ResourceDef, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of def.fields) {
    if (f.name in values) out[columnOf(f)] = toDbValue(f, values[f.name]);
  }
  return out;
}
