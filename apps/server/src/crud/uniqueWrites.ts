import { dynamicDb } from '../core/db.ts';
import type { ResourceDef } from '@app/shared/resource';
import { columnOf } from '@app/shared/resource';
import type { Db } from '../core/db.ts';
import { isUniqueViolation } from '../core/db.ts';
import { AppError } from '../core/errors.ts';
import { apiToDb } from './rowMapping.ts';

/**
 * The unique rules of a resource definition, for every writer of its table (the generic CRUD routes and
 * the tree resources): a readable 409 before writing, and the same 409 when a concurrent writer wins the
 * race and the database's unique index refuses the row.
 */

/** The 409 of a unique rule: its own code, or its sentence as DUPLICATE_TEXT. */
function clash(rule: NonNullable<ResourceDef['unique']>[number]): AppError {
  return rule.code ? new AppError(rule.code) : new AppError('DUPLICATE_TEXT', { text: rule.message });
}

/** 409 with the rule's message when another row already has the values of a unique rule. */
export async function assertUnique(db: Db, def: ResourceDef, table: string, values: Record<string, unknown>, excludeId?: number): Promise<void> {
  for (const u of def.unique ?? []) {
    const fields = u.fields.map((n) => def.fields.find((f) => f.name === n)!);
    if (fields.some((f) => values[f.name] === undefined || values[f.name] === null)) continue;
    let qb = dynamicDb(db).selectFrom(table).select('id');
    const dbValues = apiToDb(def, values);
    for (const f of fields) qb = qb.where(columnOf(f), '=', dbValues[columnOf(f)]);
    if (excludeId !== undefined) qb = qb.where('id', '!=', excludeId);
    if (await qb.executeTakeFirst()) throw clash(u);
  }
}

/** Runs `fn` in a transaction, turning a unique-index violation into the definition's 409. */
export async function writeUnique<T>(db: Db, def: ResourceDef, fn: (trx: Db) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(fn);
  } catch (err) {
    if (isUniqueViolation(err)) {
      const rule = def.unique?.[0];
      throw rule ? clash(rule) : new AppError('DUPLICATE', { resource: def.label });
    }
    throw err;
  }
}
