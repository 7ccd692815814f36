import type { Generated, Kysely } from 'kysely';
import type { FieldDef, FieldKind, ResourceDef } from '@app/shared/resource';
import { RESOURCE_DEFINITIONS } from '@app/shared/resources/index';
import { confirmLogResource } from '@app/shared/resources/salary';
// type only: core imports no module at run time (the hand tables are described beside their modules)
import type { HAND_TABLES } from '../dbTables.ts';

/**
 * The database as a Kysely type (`Kysely<DB>`), generated from the same sources as the tables: each
 * definition's fields (column = `column` or snake_case of the name, stored type from its kind) plus the
 * columns the definitions do not declare, and the hand-made tables (links, batches, sync state), which each module
 * describes in its own tables.ts.
 * test/db-types.test.ts compares `DB_COLUMNS` with the real tables on every database.
 */

/**
 * The definitions that describe their table: every shared resource (RESOURCE_DEFINITIONS) and the salary
 * confirm log, which only the payroll routes use. A definition whose table is listed in HAND_TABLES (src/dbTables.ts; its
 * stored columns differ from its fields) is typed from there instead.
 */
export const DESCRIBED_BY_DEFINITIONS = [...RESOURCE_DEFINITIONS, confirmLogResource] as const;

/** Columns of definition tables that no field declares (server-managed). */
export const EXTRA_COLUMNS = {
  sys_user: { token_version: 'int' },
  sys_log: { exception_detail: 'text' },
  sys_dict: { update_time: 'datetime' },
  sys_dict_detail: { update_time: 'datetime' },
} as const satisfies Record<string, Record<string, FieldKind>>;

/** A hand table's column: its kind, `!` NOT NULL, `=` NOT NULL with a default. */
export type HandColumn = FieldKind | `${FieldKind}!` | `${FieldKind}=`;

/**
 * Tables that no definition describes, each module's beside its code (`<module>/tables.ts`, assembled in
 * src/dbTables.ts): table -> column -> stored kind. A plain kind is a nullable column; `kind!` is NOT NULL without a
 * default (required on insert), `kind=` NOT NULL with a default (optional on insert). `id` is always the generated
 * key. Read from the migrations (apps/server/migrations); test/db-types.test.ts checks the names against the
 * migrated tables and fails on a table that is missing.
 */
export type HandTableSet = Record<string, Record<string, HandColumn>>;

/** What a column of each kind holds (money: integer fen; PostgreSQL hands bigint and numeric back as text). */
interface StoredByKind {
  string: string;
  text: string;
  dict: string;
  phone: string;
  email: string;
  idCard: string;
  int: number;
  ref: number;
  money: number | string;
  ratio: number | string;
  date: string;
  month: string;
  datetime: string;
  bool: number;
}
type Stored<K> = K extends keyof StoredByKind ? StoredByKind[K] : never;

/** snake_case of a camelCase name, as `toSnakeCase` does it for the names the definitions use. */
export type SnakeCase<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${SnakeCase<T>}` : S;
/** The column of a field, as `columnOf` gives it: its `column`, else the snake_case of its name. */
export type ColumnOf<F extends FieldDef> = F extends { column: infer C extends string } ? C : SnakeCase<F['name']>;
type Column<Name, K> = Name extends 'id' ? Generated<number> : Stored<K> | null;

// (link-table fields, `refMany`, have no column)
type DefinitionTable<D extends ResourceDef> = { [F in D['fields'][number] as F extends { kind: 'refMany' } ? never : ColumnOf<F>]: Column<F['name'], F['kind']> };
type Extra<T> = T extends keyof typeof EXTRA_COLUMNS ? { [C in keyof (typeof EXTRA_COLUMNS)[T]]: Stored<(typeof EXTRA_COLUMNS)[T][C]> | null } : unknown;
type HandColumnType<Name, K> = Name extends 'id'
  ? Generated<number>
  : K extends `${infer B}!`
    ? Stored<B>
    : K extends `${infer B}=`
      ? Generated<Stored<B>>
      : Stored<K> | null;
type HandTable<T extends keyof typeof HAND_TABLES> = { -readonly [C in keyof (typeof HAND_TABLES)[T]]: HandColumnType<C, (typeof HAND_TABLES)[T][C]> };

type Definitions = Exclude<(typeof DESCRIBED_BY_DEFINITIONS)[number], { table: keyof typeof HAND_TABLES }>;
export type DB = { [D in Definitions as D['table']]: DefinitionTable<D> & Extra<D['table']> } & { [T in keyof typeof HAND_TABLES]: HandTable<T> };
export type TypedDb = Kysely<DB>;
