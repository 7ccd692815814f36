import type { CreateTableBuilder, ColumnDefinitionBuilder } from 'kysely';
import { sql } from 'kysely';
import { columnFields, columnOf, type FieldDef, kindOf, type ResourceDef, toSnakeCase } from '@app/shared/resource';
import type { Db, DialectName } from './db.ts';

/**
 * A small, dialect-aware column vocabulary for migrations, matching the resource field kinds:
 * money is integer fen (bigint), ratios exact numerics, dates/months/times ISO text so that SQLite,
 * PostgreSQL and MySQL compare and return them identically.
 */
type Col = { name: string; type: string; build?: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder };

export class TableSpec {
  readonly columns: Col[] = [];
  readonly uniques: string[][] = [];
  readonly indexes: string[][] = [];

  id(): this {
    this.columns.push({ name: 'id', type: 'id' });
    return this;
  }
  string(name: string, length = 255, opts: ColOpts = {}): this {
    return this.add(name, `varchar(${length})`, opts);
  }
  text(name: string, opts: ColOpts = {}): this {
    return this.add(name, 'text', { ...opts, default: undefined });
  }
  int(name: string, opts: ColOpts = {}): this {
    return this.add(name, 'integer', opts);
  }
  /** Money in integer fen. */
  money(name: string, opts: ColOpts = {}): this {
    return this.add(name, 'bigint', opts);
  }
  ratio(name: string, opts: ColOpts = {}): this {
    return this.add(name, 'numeric(12, 6)', opts);
  }
  bool(name: string, opts: ColOpts = {}): this {
    return this.add(name, 'smallint', { ...opts, default: opts.default === undefined ? undefined : opts.default ? 1 : 0 });
  }
  date(name: string, opts: ColOpts = {}): this {
    return this.add(name, 'varchar(10)', opts);
  }
  month(name: string, opts: ColOpts = {}): this {
    return this.add(name, 'varchar(7)', opts);
  }
  datetime(name: string, opts: ColOpts = {}): this {
    return this.add(name, 'varchar(32)', opts);
  }
  /** createTime and updateTime, set by the server. */
  timestamps(): this {
    return this.datetime('create_time').datetime('update_time');
  }
  unique(...cols: string[]): this {
    this.uniques.push(cols);
    return this;
  }
  index(...cols: string[]): this {
    this.indexes.push(cols);
    return this;
  }
  private add(name: string, type: string, opts: ColOpts): this {
    this.columns.push({
      name,
      type,
      build: (c) => {
        let b = c;
        if (opts.notNull) b = b.notNull();
        if (opts.default !== undefined) b = b.defaultTo(opts.default);
        return b;
      },
    });
    if (opts.unique) this.uniques.push([name]);
    if (opts.index) this.indexes.push([name]);
    return this;
  }
}

export interface ColOpts {
  notNull?: boolean;
  unique?: boolean;
  index?: boolean;
  default?: string | number | boolean;
}

/** Create a table (and its unique constraints and indexes) from a TableSpec. */
export async function createTable(db: Db, dialect: DialectName, table: string, define: (t: TableSpec) => void): Promise<void> {
  const spec = new TableSpec();
  define(spec);
  let builder: CreateTableBuilder<any, any> = db.schema.createTable(table);
  for (const col of spec.columns) {
    if (col.type === 'id') {
      builder =
        dialect === 'postgres'
          ? builder.addColumn('id', 'serial', (c) => c.primaryKey())
          : builder.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      continue;
    }
    builder = builder.addColumn(col.name, sql.raw(col.type), col.build ?? ((c) => c));
  }
  if (dialect === 'mysql') builder = builder.modifyEnd(sql`ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  for (const cols of spec.uniques) builder = builder.addUniqueConstraint(`uq_${table}_${cols.join('_')}`, cols);
  await builder.execute();
  for (const cols of spec.indexes) {
    await db.schema.createIndex(`ix_${table}_${cols.join('_')}`).on(table).columns(cols).execute();
  }
}

/**
 * The column of a stored field, as `createTableFor` makes it: the kind's SQL type (kinds.ts `sql`), varchar at
 * the field's `maxLength` (255 when it has none), NOT NULL when the field is required on every row (a `required`
 * with an `optionalWhen` exception is not), its `defaultValue` as the column default. `id` is the primary key.
 */
export function columnSpecOf(spec: TableSpec, field: FieldDef): void {
  const name = columnOf(field);
  if (field.name === 'id') {
    spec.id();
    return;
  }
  const opts: ColOpts = { notNull: !!field.required && !field.optionalWhen };
  if (field.defaultValue !== undefined && field.defaultValue !== null) opts.default = field.defaultValue;
  const sqlType = kindOf(field).sql;
  switch (sqlType) {
    case null:
      return; // refMany: its link table is a table of its own
    case 'varchar':
      spec.string(name, field.maxLength ?? 255, opts);
      return;
    case 'text':
      spec.text(name, opts);
      return;
    case 'integer':
      spec.int(name, opts);
      return;
    case 'bigint':
      // money: integer fen, so a yuan default is stored in fen
      spec.money(name, typeof opts.default === 'number' ? { ...opts, default: Math.round(opts.default * 100) } : opts);
      return;
    case 'numeric(12, 6)':
      spec.ratio(name, opts);
      return;
    case 'smallint':
      spec.bool(name, { ...opts, default: opts.default === undefined ? undefined : opts.default === true || opts.default === 'true' || opts.default === 1 });
      return;
    case 'varchar(10)':
      spec.date(name, opts);
      return;
    case 'varchar(7)':
      spec.month(name, opts);
      return;
    case 'varchar(32)':
      spec.datetime(name, opts);
      return;
  }
}

/**
 * The table of a resource definition, for a new plain resource's migration: a column per stored field
 * (`columnSpecOf`), the definition's `unique` groups as unique constraints, an index on each `ref` column;
 * `extra` adds more indexes or columns the definition does not describe. `definition-tables.test.ts` checks the
 * migrated tables of all shipped definitions against them (older migrations wrote their tables by hand).
 *
 *   export const up = ({ db, dialect }: MigrationContext) => createTableFor(db, dialect, gadgetResource);
 */
export async function createTableFor(db: Db, dialect: DialectName, def: ResourceDef, extra?: (t: TableSpec) => void): Promise<void> {
  await createTable(db, dialect, def.table, (t) => {
    for (const field of columnFields(def)) columnSpecOf(t, field);
    const byName = new Map(def.fields.map((f) => [f.name, f]));
    for (const u of def.unique ?? []) t.unique(...u.fields.map((n) => {
      const f = byName.get(n);
      return f ? columnOf(f) : toSnakeCase(n);
    }));
    for (const f of columnFields(def)) if (f.kind === 'ref') t.index(columnOf(f));
    extra?.(t);
  });
}
