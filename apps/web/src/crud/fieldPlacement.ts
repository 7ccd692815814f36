import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { isSortableField, kindOf } from '@app/shared/resource';

/** Where a field appears on the generic pages: list, detail, form, search. */

const hiddenEverywhere = (f: FieldDef) => !!f.secret;

/** Table columns (default: every field but `id` and secrets). */
export function listFields(def: ResourceDef): FieldDef[] {
  return def.fields.filter((f) => !hiddenEverywhere(f) && f.list !== false && !(f.name === 'id' && f.list === undefined));
}

/** Fields of the expandable row detail (default: those not in the list). */
export function detailFields(def: ResourceDef): FieldDef[] {
  return def.fields.filter((f) => !hiddenEverywhere(f) && f.name !== 'id' && (f.detail ?? f.list === false));
}

/** Fields of the add/edit dialog (default: writable ones). */
export function formFields(def: ResourceDef): FieldDef[] {
  return def.fields.filter((f) => !hiddenEverywhere(f) && f.name !== 'id' && (f.form ?? !f.readOnly));
}

/** Fields the server sorts by (mirrors the server's rule). */
export function isSortable(f: FieldDef): boolean {
  return isSortableField(f);
}

/** Fields offered by the field chooser of `searchMode: 'fieldChooser'`. */
export function chooserFields(def: ResourceDef): FieldDef[] {
  const marked = def.fields.filter((f) => f.search && f.filter);
  const chosen = internalIdLast(marked.length ? marked : def.fields.filter((f) => f.filter && kindOf(f).text && kindOf(f).web.control === 'text'));
  // the first is the default choice: a person's or company's name where there is one
  return [...chosen.filter((f) => NAME_FIELDS.has(f.name)), ...chosen.filter((f) => !NAME_FIELDS.has(f.name))];
}

/** Fields that name a row (looked up by a clerk before anything else). */
const NAME_FIELDS = new Set(['staffName', 'name', 'companyName', 'cname']);

/**
 * U22: a clerk looks a row up by its name, never by the database's id, so the id filter (kept for those who
 * have one from a link or a log) comes last and is never the first or default choice.
 */
function internalIdLast(fields: FieldDef[]): FieldDef[] {
  return [...fields.filter((f) => f.name !== 'id'), ...fields.filter((f) => f.name === 'id')];
}

/** One control per declared filter (`searchMode: 'filters'`); `search: false` leaves a filter out. */
export function filterFields(def: ResourceDef): FieldDef[] {
  const withFilter = def.fields.filter((f) => f.filter && !f.secret);
  const anyMarked = withFilter.some((f) => f.search !== undefined);
  return internalIdLast(anyMarked ? withFilter.filter((f) => f.search) : withFilter);
}

/** Dictionary names used by some fields. */
export function dictNames(fields: readonly FieldDef[]): string[] {
  return [...new Set(fields.map((f) => f.dict).filter((d): d is string => !!d))];
}
