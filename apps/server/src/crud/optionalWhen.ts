import type { ResourceDef } from '@app/shared/resource';
import { columnOf, isEmptyValue, requiredGiven, requiredMessage } from '@app/shared/resource';
import type { FieldMessage } from '@app/shared/errors/zodIssues';
import { RESOURCES } from '@app/shared/resources/index';
import { dynamicDb, type Db } from '../core/db.ts';
import { validationError } from '../core/errors.ts';

/**
 * The `optionalWhen` rule of a definition's fields on a write (the body schema leaves such fields optional): an
 * empty one is refused with its required message unless its condition field points to a row with one of the
 * exempting labels (a user's e-mail, not needed when the job is 普通员工). `values` is the row as it will be.
 */
export async function checkOptionalWhen(db: Db, def: ResourceDef, values: Record<string, unknown>): Promise<void> {
  const errors: Record<string, FieldMessage> = {};
  for (const field of def.fields) {
    const rule = field.optionalWhen;
    if (!rule || !field.required || !isEmptyValue(values[field.name])) continue;
    if (!requiredGiven(field, await conditionLabel(db, def, rule.field, values[rule.field]))) continue;
    errors[field.name] = requiredMessage(field);
  }
  if (Object.keys(errors).length) throw validationError(errors);
}

/** The label of the row a `ref` field points to (null when unset or unknown). */
async function conditionLabel(db: Db, def: ResourceDef, fieldName: string, id: unknown): Promise<string | null> {
  const ref = def.fields.find((f) => f.name === fieldName)?.ref;
  const target = ref ? RESOURCES[ref.resource] : undefined;
  const labelField = target?.fields.find((f) => f.name === ref!.labelField);
  if (!target || !labelField || id === null || id === undefined || !Number.isInteger(Number(id))) return null;
  const row = await dynamicDb(db).selectFrom(target.table).select(`${columnOf(labelField)} as label`).where('id', '=', Number(id)).executeTakeFirst();
  return row ? String(row.label) : null;
}
