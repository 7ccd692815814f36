import { type ColumnMetadata, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { columnFields, columnOf, type FieldDef, kindOf, type ResourceDef } from '@app/shared/resource';
import { RESOURCE_DEFINITIONS } from '@app/shared/resources/index';
import { createTableFor } from '../src/core/tableBuilder.ts';
import { createTestApp, TEST_DB } from './helpers.ts';

/**
 * Issue 21 item 3: a definition and the table its migration made agree. For every shipped definition, the migrated
 * table has a column for each stored field, of a type that holds the field's kind, and NOT NULL only where every
 * row has a value (the field is required, has a default, or the server sets it). `createTableFor(def)`, which new
 * plain resources' migrations use, makes tables that pass the same check for every definition.
 */

const t = await createTestApp();
afterAll(async () => {
  await t.close();
});
const db = t.app.ctx.db;

/** Column types (as each database's introspection spells them) that hold a kind's values. */
const TEXT = /^(varchar|character varying|char|bpchar|text|longtext|mediumtext|tinytext)\b/;
const INTEGER = /^(integer|int|int4|int8|bigint|smallint|int2|mediumint|serial|bigserial)\b/;
const BIGINT = /^(bigint|int8)\b/;
const DECIMAL = /^(numeric|decimal)\b/;
const SMALL_INTEGER = /^(smallint|int2|tinyint|integer|int|int4|boolean|bool)\b/;
const TYPES_OF_SQL: Record<string, RegExp> = {
  varchar: TEXT,
  text: TEXT,
  'varchar(10)': TEXT,
  'varchar(7)': TEXT,
  'varchar(32)': TEXT,
  integer: INTEGER,
  bigint: BIGINT,
  'numeric(12, 6)': DECIMAL,
  smallint: SMALL_INTEGER,
};

async function tablesByName(): Promise<Map<string, Map<string, ColumnMetadata>>> {
  // PostgreSQL lists every schema (other test files have theirs): only this app's
  const schema = TEST_DB === 'postgres' ? String((await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0].s) : undefined;
  const tables = (await db.introspection.getTables()).filter((x) => schema === undefined || x.schema === schema);
  return new Map(tables.map((x) => [x.name, new Map(x.columns.map((c) => [c.name, c]))]));
}

/**
 * Fields that declare no `required` and yet always have a value because only the server creates their rows:
 * salary rows come from the payroll module's generation (a staff member's company, month and ID card), and the
 * inline edit sends a few figures only, so the definition cannot require them.
 */
const SET_WHEN_CREATED_BY_SERVER: Record<string, string[]> = { accountsSalary: ['companyId', 'month', 'idCard'] };

/** Does every row have a value for the field without the client giving one? */
const alwaysHasValue = (def: ResourceDef, f: FieldDef) =>
  (!!f.required && !f.optionalWhen) || f.defaultValue != null || !!f.readOnly || !!SET_WHEN_CREATED_BY_SERVER[def.name]?.includes(f.name);

/** The disagreements of a definition with its table, one line each. */
function disagreements(def: ResourceDef, table: string, columns: Map<string, ColumnMetadata> | undefined): string[] {
  if (!columns) return [`${def.name}: no table ${table}`];
  return columnFields(def).flatMap((f) => {
    const c = columns.get(columnOf(f));
    if (!c) return [`${def.name}.${f.name}: no column ${table}.${columnOf(f)}`];
    const out: string[] = [];
    const accepted = TYPES_OF_SQL[kindOf(f).sql ?? ''];
    if (accepted && !accepted.test(c.dataType.toLowerCase())) out.push(`${def.name}.${f.name} (${f.kind}): column ${c.name} is ${c.dataType}`);
    if (!c.isNullable && !c.hasDefaultValue && !c.isAutoIncrementing && f.name !== 'id' && !alwaysHasValue(def, f)) {
      out.push(`${def.name}.${f.name}: column ${c.name} is NOT NULL without a default, the field is optional`);
    }
    return out;
  });
}

describe(`definitions and their tables (${TEST_DB})`, () => {
  it('every shipped definition: a column of a fitting type and nullability for each stored field', async () => {
    const tables = await tablesByName();
    expect(RESOURCE_DEFINITIONS.flatMap((def) => disagreements(def, def.table, tables.get(def.table)))).toEqual([]);
  });

  it('createTableFor(def) makes such a table for every shipped definition', async () => {
    const copies = RESOURCE_DEFINITIONS.map((def) => ({ ...def, table: `tf_${RESOURCE_DEFINITIONS.indexOf(def)}` }) as ResourceDef);
    try {
      for (const def of copies) await createTableFor(db, t.app.ctx.dialect, def);
      const tables = await tablesByName();
      expect(copies.flatMap((def) => disagreements(def, def.table, tables.get(def.table)))).toEqual([]);
      // and nothing else: no column the definition does not store
      const extra = copies.flatMap((def) => {
        const stored = new Set(columnFields(def).map(columnOf));
        return [...(tables.get(def.table)?.keys() ?? [])].filter((c) => !stored.has(c)).map((c) => `${def.name}: ${c}`);
      });
      expect(extra).toEqual([]);
    } finally {
      for (const def of copies) await db.schema.dropTable(def.table).ifExists().execute();
    }
  });

  it('catches a table that disagrees', () => {
    const def = RESOURCE_DEFINITIONS.find((d) => d.name === 'dict')! as ResourceDef;
    const col = (name: string, dataType: string, isNullable = true): [string, ColumnMetadata] => [name, { name, dataType, isNullable, isAutoIncrementing: false, hasDefaultValue: false }];
    const wrong = new Map([col('id', 'integer'), col('name', 'bigint'), col('remark', 'varchar', false)]);
    expect(disagreements(def, 'sys_dict', wrong)).toEqual([
      'dict.name (string): column name is bigint',
      'dict.remark: column remark is NOT NULL without a default, the field is optional',
      'dict.createTime: no column sys_dict.create_time',
    ]);
  });
});
