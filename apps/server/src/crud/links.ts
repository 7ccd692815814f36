import { dynamicDb } from '../core/db.ts';
import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { columnOf, isLinkField, toApiValue } from '@app/shared/resource';
import { RESOURCES } from '@app/shared/resources/index';
import type { Db } from '../core/db.ts';
import { argList, runStatement } from './compiledQuery.ts';
import { AppError } from '../core/errors.ts';

/**
 * `refMany` fields of the generic CRUD: sets of ids of another resource's rows kept in a link table
 * (owner id, target id). Rows read them with one query per field and page, writes replace a whole set in
 * the write's transaction, deletes drop the owner's links.
 */

/** The link-table fields of a definition. */
export function linkFields(def: ResourceDef): FieldDef[] {
  return def.fields.filter(isLinkField);
}

interface LinkTarget {
  field: FieldDef;
  link: NonNullable<FieldDef['links']>;
  /** The linked resource (its table and the fields shown beside `id`). */
  target: ResourceDef;
  show: FieldDef[];
  orderBy: [column: string, dir: 'asc' | 'desc'][];
}

const targets = new WeakMap<FieldDef, LinkTarget>();
/** The link table and target of a `refMany` field, resolved once (a misdeclared definition fails at start-up). */
export function linkTarget(field: FieldDef): LinkTarget {
  let t = targets.get(field);
  if (t) return t;
  const link = field.links;
  const target = field.ref ? RESOURCES[field.ref.resource] : undefined;
  if (!link || !target) throw new Error(`refMany field ${field.name} needs \`links\` and a \`ref\` to a known resource`);
  const fieldOf = (name: string) => {
    const f = target.fields.find((x) => x.name === name);
    if (!f) throw new Error(`refMany field ${field.name}: ${target.name} has no field ${name}`);
    return f;
  };
  const show = (link.show ?? []).map(fieldOf);
  const orderBy = (link.orderBy ?? [['id', 'asc']]).map(([n, d]) => [n === 'id' ? 'id' : columnOf(fieldOf(n)), d] as [string, 'asc' | 'desc']);
  if (!orderBy.some(([c]) => c === 'id')) orderBy.push(['id', 'asc']);
  t = { field, link, target, show, orderBy };
  targets.set(field, t);
  return t;
}

/**
 * Read every `refMany` field of API rows (`[{id, ...show}]` per row, one query per field for the whole page) and
 * return the step that puts them on the rows. Split so that a caller can read the links beside its own look-ups
 * and still add the fields in a fixed order.
 */
export async function readLinks(db: Db, def: ResourceDef, rows: Record<string, unknown>[]): Promise<() => void> {
  const fields = linkFields(def);
  if (!fields.length || !rows.length) return () => undefined;
  const ids = [...new Set(rows.map((r) => Number(r.id)))];
  const sets = await Promise.all(
    fields.map(async (field) => {
      const { link, target, show, orderBy } = linkTarget(field);
      const byOwner = new Map<number, Record<string, unknown>[]>();
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        // compiled once per field and number of owners (a page's size, mostly): compiledQuery.ts
        const linked = await runStatement<Record<string, unknown>>(db, `links ${def.name}.${field.name} ${chunk.length}`, chunk, (arg) => {
          let qb = dynamicDb(db)
            .selectFrom(`${link.table} as l`)
            .innerJoin(`${target.table} as t`, 't.id', `l.${link.targetColumn}`)
            .select([`l.${link.ownerColumn} as __owner`, 't.id as id', ...show.map((f) => `t.${columnOf(f)} as ${columnOf(f)}`)])
            .where(`l.${link.ownerColumn}`, 'in', argList<number>(arg, chunk.length));
          for (const [c, d] of orderBy) qb = qb.orderBy(`t.${c}`, d);
          return qb;
        });
        for (const r of linked) {
          const item: Record<string, unknown> = { id: Number(r.id) };
          for (const f of show) item[f.name] = toApiValue(f, r[columnOf(f)]);
          const owner = Number(r.__owner);
          const list = byOwner.get(owner);
          if (list) list.push(item);
          else byOwner.set(owner, [item]);
        }
      }
      return { name: field.name, byOwner };
    }),
  );
  return () => {
    for (const { name, byOwner } of sets) for (const r of rows) r[name] = byOwner.get(Number(r.id)) ?? [];
  };
}

/** Add every `refMany` field to API rows (readLinks, then its fields put on the rows). */
export async function attachLinks(db: Db, def: ResourceDef, rows: Record<string, unknown>[]): Promise<void> {
  (await readLinks(db, def, rows))();
}

/** 400 naming the missing ids unless every id exists in `table`. */
export async function assertIdsExist(db: Db, table: string, ids: readonly number[], what: string): Promise<void> {
  if (ids.length === 0) return;
  const found = new Set<number>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const r of await dynamicDb(db).selectFrom(table).select('id').where('id', 'in', ids.slice(i, i + 500)).execute()) found.add(Number(r.id));
  }
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw new AppError('LINKED_NOT_FOUND', { resource: what, ids: missing.slice(0, 10).join(',') });
}

/** Replace the set of `targetColumn` values linked to one owner. Run it inside the write's transaction. */
export async function replaceLinks(db: Db, table: string, ownerColumn: string, ownerId: number, targetColumn: string, targetIds: readonly number[]): Promise<void> {
  await dynamicDb(db).deleteFrom(table).where(ownerColumn, '=', ownerId).execute();
  for (let i = 0; i < targetIds.length; i += 500) {
    const chunk = targetIds.slice(i, i + 500);
    await dynamicDb(db)
      .insertInto(table)
      .values(chunk.map((t) => ({ [ownerColumn]: ownerId, [targetColumn]: t })))
      .execute();
  }
}

/**
 * Write the writable `refMany` fields present in a validated body (absent: unchanged; null: emptied), each
 * after checking its ids exist. Runs in the write's transaction, after the row itself is written.
 */
export async function writeLinks(db: Db, def: ResourceDef, ownerId: number, values: Record<string, unknown>): Promise<void> {
  for (const field of linkFields(def)) {
    if (field.readOnly || values[field.name] === undefined) continue;
    const ids = (values[field.name] as number[] | null) ?? [];
    const { link, target } = linkTarget(field);
    await assertIdsExist(db, target.table, ids, field.label);
    await replaceLinks(db, link.table, link.ownerColumn, ownerId, link.targetColumn, ids);
  }
}

/** Drop the links of deleted owners (every `refMany` field, read-only ones too). */
export async function deleteLinks(db: Db, def: ResourceDef, ownerIds: readonly number[]): Promise<void> {
  for (const field of linkFields(def)) {
    const { link } = linkTarget(field);
    for (let i = 0; i < ownerIds.length; i += 500) await dynamicDb(db).deleteFrom(link.table).where(link.ownerColumn, 'in', ownerIds.slice(i, i + 500)).execute();
  }
}
