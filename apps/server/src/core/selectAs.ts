import { type AliasedRawBuilder, sql } from 'kysely';

/**
 * `column AS alias` for a column named at run time (a definition field's column, a table-qualified name): Kysely
 * checks a string selection such as `'t.c as a'` against the table's literal column names, which a computed `string`
 * cannot satisfy. This one is typed by its alias instead; the value is `unknown` until the caller reads it
 * (the stores normalise their rows anyway, as drivers differ in how they return numbers and flags). Same SQL as the
 * string form: `"t"."c" as "a"`.
 */
export function refAs<A extends string>(column: string, alias: A): AliasedRawBuilder<unknown, A> {
  return sql.ref<unknown>(column).as(alias);
}

/** `column(name) AS name` for each name: the common shape "field's column under the field's name". */
export function refsAs<A extends string>(names: readonly A[], column: (name: A) => string): AliasedRawBuilder<unknown, A>[] {
  return names.map((name) => refAs(column(name), name));
}
