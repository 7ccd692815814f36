import { type Compilable, type CompiledQuery, createQueryId } from 'kysely';
import type { Db } from '../core/db.ts';

/**
 * Statements built once and run many times with new values (issue 27: "lists build their SQL once").
 *
 * Building a query with Kysely's builder and compiling it to SQL cost ~25 µs a statement, about an eighth of a list
 * request's CPU on SQLite (five statements a page: the page, its count, and the look-ups of its departments, jobs and
 * roles), for SQL text that is the same on every request of the same shape. Here a statement is built once per
 * database and shape, with placeholders where the values go; each run fills the placeholders with its own values.
 *
 * The shape key must name everything that changes the SQL text: which filters are present, the sort, the length of
 * an `in (...)` list. Values never go into the key. A builder that put a request's value into the text itself (a
 * literal, `sql.raw`) instead of a parameter would be wrong here; every value reaches Kysely through a placeholder.
 */

/** Where one value of a run goes; it stands in the statement's parameters while the statement is compiled. */
class Placeholder {
  constructor(readonly index: number) {}
}

interface Template {
  sql: string;
  query: CompiledQuery['query'];
  /** The compiled parameters: a Placeholder where a run's value goes, else a constant of the statement itself. */
  parameters: readonly unknown[];
  /** How many values a run brings (every placeholder handed to the builder appears at least once). */
  arity: number;
}

/** Templates per database (its dialect adapter: a transaction shares it with the database it runs on). */
const templatesOf = new WeakMap<object, Map<string, Template>>();
/** Shapes kept per database before the store starts afresh: in-list lengths and filter sets are bounded, but not by this file. */
const MAX_SHAPES = 5000;

/** How many statements were compiled (for the tests: a second run of a shape compiles nothing). */
export const compiledQueryStats = { compiled: 0 };

function templatesFor(db: Db): Map<string, Template> {
  const owner = db.getExecutor().adapter;
  let templates = templatesOf.get(owner);
  if (!templates) templatesOf.set(owner, (templates = new Map()));
  return templates;
}

/**
 * The statement of `shape` with `values`: built by `build` the first time (its `arg(i)` stands for `values[i]`),
 * then only filled in. `build` must use every `arg(i)` it is given as a value (a where, a limit, an in-list item).
 */
export function statementOf<R>(db: Db, shape: string, values: readonly unknown[], build: (arg: <T = unknown>(i: number) => T) => Compilable<R>): CompiledQuery<R> {
  const templates = templatesFor(db);
  let template = templates.get(shape);
  if (!template) {
    let arity = 0;
    const compiled = build(<T,>(i: number) => {
      arity = Math.max(arity, i + 1);
      return new Placeholder(i) as unknown as T;
    }).compile();
    compiledQueryStats.compiled++;
    const placed = new Set(compiled.parameters.flatMap((p) => (p instanceof Placeholder ? [p.index] : [])));
    // a placeholder the builder used as a JS value (in a condition, a string) would run with the first request's value
    for (let i = 0; i < arity; i++) if (!placed.has(i)) throw new Error(`statement ${shape}: value ${i} is not a parameter of its SQL`);
    template = { sql: compiled.sql, query: compiled.query, parameters: compiled.parameters, arity };
    if (templates.size >= MAX_SHAPES) templates.clear();
    templates.set(shape, template);
  }
  if (values.length !== template.arity) throw new Error(`statement ${shape}: ${values.length} values for ${template.arity} placeholders`);
  const parameters = template.parameters.map((p) => (p instanceof Placeholder ? values[p.index] : p));
  return { sql: template.sql, query: template.query, parameters, queryId: createQueryId() };
}

/** Run the statement of `shape` with `values` (see statementOf) and answer its rows. */
export async function runStatement<R>(db: Db, shape: string, values: readonly unknown[], build: (arg: <T = unknown>(i: number) => T) => Compilable<R>): Promise<R[]> {
  return (await db.executeQuery(statementOf(db, shape, values, build))).rows;
}

/** `arg(from) ... arg(from + n - 1)`: the placeholders of an in-list of n values. */
export const argList = <T,>(arg: <U = unknown>(i: number) => U, n: number, from = 0): T[] => Array.from({ length: n }, (_, i) => arg<T>(from + i));
