import { sql } from 'kysely';
import type { Db, DialectName } from '../../../core/db.ts';

/**
 * Tables and columns of the connected database, read from the catalogue of each dialect (SQLite
 * `sqlite_master` / `pragma_table_info`, PostgreSQL and MySQL/MariaDB `information_schema` of the current
 * schema/database). Table names only ever reach SQL as bound parameters; callers check a client's table name
 * against `listTables()` before asking for its columns.
 */

export interface TableInfo {
  tableName: string;
  engine: string;
  coding: string;
  remark: string;
  createTime: string | null;
}

export interface ColumnInfo {
  columnName: string;
  /** The type as the database states it, e.g. `varchar(50)`, `integer`, `numeric(12,6)`. */
  columnType: string;
  /** Lower-case base type without length: varchar, integer, bigint, numeric, smallint, text... */
  baseType: string;
  /** Character length of varchar/char columns. */
  maxLength: number | null;
  notNull: boolean;
  primaryKey: boolean;
  autoIncrement: boolean;
  columnComment: string;
  position: number;
  /** A plain literal default (number or text), or null when there is none or it is an expression. */
  defaultValue: string | number | null;
}

/** A column default as a literal: `0`, `'x'`, `'x'::character varying`; expressions (nextval(), now()) give null. */
export function literalDefault(raw: unknown, dialect: DialectName): string | number | null {
  if (raw === null || raw === undefined) return null;
  let s = String(raw).trim().replace(/::[a-z ]+(\(\d+\))?$/i, '');
  if (/^\(.*\)$/.test(s)) s = s.slice(1, -1).trim();
  if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s);
  const quoted = /^'((?:[^']|'')*)'$/.exec(s);
  if (quoted) return quoted[1].replace(/''/g, "'");
  // MySQL's information_schema gives text defaults unquoted (MariaDB quotes them); NULL is no default
  if (dialect === 'mysql' && s.toUpperCase() !== 'NULL' && !/\(|current_timestamp/i.test(s)) return s;
  return null;
}

/** Kysely's own bookkeeping tables are not the project's data. */
const HIDDEN_TABLE = /^(kysely_migration|kysely_migration_lock|sqlite_.*)$/;

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

export async function listTables(db: Db, dialect: DialectName): Promise<TableInfo[]> {
  let rows: TableInfo[];
  if (dialect === 'sqlite') {
    const r = await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(db);
    rows = r.rows.map((t) => ({ tableName: t.name, engine: 'SQLite', coding: 'UTF-8', remark: '', createTime: null }));
  } else if (dialect === 'postgres') {
    const enc = await sql<{ e: string }>`select pg_encoding_to_char(encoding) as e from pg_database where datname = current_database()`.execute(db);
    const coding = str(enc.rows[0]?.e);
    const r = await sql<{ name: string; remark: string | null }>`
      select c.relname as name, obj_description(c.oid, 'pg_class') as remark
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'p')
      order by c.relname`.execute(db);
    rows = r.rows.map((t) => ({ tableName: t.name, engine: 'PostgreSQL', coding, remark: str(t.remark), createTime: null }));
  } else {
    const r = await sql<{ name: string; engine: string | null; coding: string | null; remark: string | null; createTime: unknown }>`
      select table_name as name, engine, table_collation as coding, table_comment as remark, create_time as createTime
      from information_schema.tables
      where table_schema = database() and table_type = 'BASE TABLE'
      order by table_name`.execute(db);
    rows = r.rows.map((t) => ({
      tableName: str(t.name),
      engine: str(t.engine),
      coding: str(t.coding),
      remark: str(t.remark),
      createTime: t.createTime ? str(t.createTime).replace(' ', 'T') : null,
    }));
  }
  return rows.filter((t) => !HIDDEN_TABLE.test(t.tableName));
}

function baseTypeOf(type: string): string {
  return type.toLowerCase().replace(/\(.*$/, '').replace(/\s+unsigned$/, '').trim();
}

function lengthOf(type: string): number | null {
  const m = /^(?:var)?char(?:acter)?(?: varying)?\s*\((\d+)\)/i.exec(type.trim());
  return m ? Number(m[1]) : null;
}

/** The columns of a table (which the caller has found in listTables), in table order. */
export async function listColumns(db: Db, dialect: DialectName, table: string): Promise<ColumnInfo[]> {
  if (dialect === 'sqlite') {
    const r = await sql<{ cid: number; name: string; type: string; notnull: number; pk: number; dflt_value: unknown }>`select * from pragma_table_info(${table})`.execute(db);
    return r.rows.map((c) => {
      const type = str(c.type) || 'text';
      // an `integer primary key` column is SQLite's rowid: it numbers itself
      const pk = Number(c.pk) > 0;
      return {
        columnName: c.name,
        columnType: type.toLowerCase(),
        baseType: baseTypeOf(type),
        maxLength: lengthOf(type),
        notNull: Number(c.notnull) === 1 || pk,
        primaryKey: pk,
        autoIncrement: pk && baseTypeOf(type) === 'integer',
        columnComment: '',
        position: Number(c.cid) + 1,
        defaultValue: literalDefault(c.dflt_value, dialect),
      };
    });
  }
  if (dialect === 'postgres') {
    const r = await sql<{
      name: string;
      udt: string;
      len: number | null;
      precision: number | null;
      scale: number | null;
      nullable: string;
      dflt: string | null;
      pos: number;
      remark: string | null;
      pk: boolean;
    }>`
      select c.column_name as name, c.udt_name as udt, c.character_maximum_length as len,
        c.numeric_precision as precision, c.numeric_scale as scale, c.is_nullable as nullable,
        c.column_default as dflt, c.ordinal_position as pos,
        col_description(format('%I.%I', c.table_schema, c.table_name)::regclass, c.ordinal_position) as remark,
        exists (
          select 1 from information_schema.table_constraints tc
          join information_schema.key_column_usage k on k.constraint_name = tc.constraint_name and k.table_schema = tc.table_schema
          where tc.table_schema = c.table_schema and tc.table_name = c.table_name and tc.constraint_type = 'PRIMARY KEY' and k.column_name = c.column_name
        ) as pk
      from information_schema.columns c
      where c.table_schema = current_schema() and c.table_name = ${table}
      order by c.ordinal_position`.execute(db);
    const names: Record<string, string> = { int4: 'integer', int8: 'bigint', int2: 'smallint', bpchar: 'char', bool: 'boolean' };
    return r.rows.map((c) => {
      const base = names[c.udt] ?? c.udt;
      const len = c.len === null ? null : Number(c.len);
      const columnType = len ? `${base}(${len})` : base === 'numeric' && c.precision ? `numeric(${c.precision}, ${c.scale ?? 0})` : base;
      return {
        columnName: c.name,
        columnType,
        baseType: base,
        maxLength: len,
        notNull: c.nullable === 'NO',
        primaryKey: !!c.pk,
        autoIncrement: /^nextval\(/.test(str(c.dflt)),
        columnComment: str(c.remark),
        position: Number(c.pos),
        defaultValue: /^nextval\(/.test(str(c.dflt)) ? null : literalDefault(c.dflt, dialect),
      };
    });
  }
  const r = await sql<{ name: string; dataType: string; columnType: string; len: unknown; nullable: string; extra: string; columnKey: string; remark: string; pos: unknown; dflt: unknown }>`
    select column_name as name, column_default as dflt, data_type as dataType, column_type as columnType, character_maximum_length as len,
      is_nullable as nullable, extra, column_key as columnKey, column_comment as remark, ordinal_position as pos
    from information_schema.columns
    where table_schema = database() and table_name = ${table}
    order by ordinal_position`.execute(db);
  return r.rows.map((c) => ({
    columnName: str(c.name),
    columnType: str(c.columnType).toLowerCase(),
    baseType: baseTypeOf(str(c.dataType)),
    maxLength: c.len === null || c.len === undefined ? null : Number(c.len),
    notNull: c.nullable === 'NO',
    primaryKey: c.columnKey === 'PRI',
    autoIncrement: /auto_increment/i.test(str(c.extra)),
    columnComment: str(c.remark),
    position: Number(c.pos),
    defaultValue: literalDefault(c.dflt, dialect),
  }));
}
