import type { CompiledQuery } from 'kysely';
import type { Db, DialectName } from '../core/db.ts';
import { runStatement, statementOf } from './compiledQuery.ts';
import { applyFilterPlan, type FilterPlan, type Paging } from './listQuery.ts';
import { estimatedTotal, type ListTotal, probeOf, totalOfPage, withTotalColumn } from './listTotal.ts';
import { countOf } from './pagedQuery.ts';
import type { AnySelect } from './registerResource.ts';

/** What a list page reads: its page, the page with the list's total as a column, the total alone, the planner's probe. */
export interface ListReads {
  page(): Promise<Record<string, unknown>[]>;
  pageWithTotal(): Promise<Record<string, unknown>[]>;
  count(): Promise<number>;
  probe(): CompiledQuery;
}

/** A generic list's table as registerResource knows it. */
export interface ListSource {
  /** The definition's name: part of its statements' shape. */
  name: string;
  dialect: DialectName;
  /** The table's bare selection on `db` (the same builder each time). */
  bare(db: Db): AnySelect;
  /** The selected columns in the paging's order. */
  ordered(filtered: AnySelect, paging: Paging): AnySelect;
}

/**
 * The statements a list page reads. A request whose hooks and scope add no condition (`conditioned` is the bare
 * selection: the caller sees the whole table and the filters alone decide) runs statements compiled once per shape:
 * filters present, sort (compiledQuery.ts); otherwise the hooks' conditions (a department's descendants, a scope's
 * companies) are built for the request.
 */
export function listReads(source: ListSource, db: Db, plan: FilterPlan, conditioned: AnySelect, paging: Paging): ListReads {
  const size = paging.size;
  const offset = paging.page * size;
  if (conditioned !== source.bare(db)) {
    const filtered = applyFilterPlan(conditioned, plan, source.dialect);
    const page = source.ordered(filtered, paging).limit(size).offset(offset);
    return {
      page: async () => (await page.execute()) as Record<string, unknown>[],
      pageWithTotal: async () => (await withTotalColumn(page, filtered).execute()) as Record<string, unknown>[],
      count: () => countOf(filtered),
      probe: () => probeOf(filtered).compile(),
    };
  }
  const values = plan.steps.map((s) => s.value);
  const shape = `list ${source.name}?${plan.shape}#${paging.sort.map(([c, d]) => `${c} ${d}`).join(',')}`;
  const filteredWith = (arg: <T>(i: number) => T) => applyFilterPlan(source.bare(db), plan, source.dialect, (i) => arg(i));
  const pageWith = (arg: <T>(i: number) => T) => source.ordered(filteredWith(arg), paging).limit(arg<number>(values.length)).offset(arg<number>(values.length + 1));
  const pageValues = [...values, size, offset];
  return {
    page: () => runStatement<Record<string, unknown>>(db, `${shape} page`, pageValues, pageWith),
    pageWithTotal: () => runStatement<Record<string, unknown>>(db, `${shape} page+total`, pageValues, (arg) => withTotalColumn(pageWith(arg), filteredWith(arg))),
    count: async () => Number((await runStatement<{ n: unknown }>(db, `${shape} count`, values, (arg) => filteredWith(arg).select((eb) => eb.fn.countAll().as('n'))))[0]?.n ?? 0),
    probe: () => statementOf(db, `${shape} probe`, values, (arg) => probeOf(filteredWith(arg))),
  };
}

/**
 * A page of a list and its total, with the fewest statements: on PostgreSQL a big total is the planner's estimate
 * (listTotal.ts), asked before the page; over the network an exact total comes with the page in one statement; on
 * SQLite (in the process, no round trip) a first page that is not full is the whole list (no count) and a page past
 * the end is not read.
 */
export async function readListPage(db: Db, dialect: DialectName, table: string, reads: ListReads, paging: Paging): Promise<{ rows: Record<string, unknown>[]; total: ListTotal }> {
  const offset = paging.page * paging.size;
  const estimate = await estimatedTotal(db, dialect, table, reads.probe);
  const totalOf = async (): Promise<ListTotal> => estimate ?? { totalElements: await reads.count() };
  let rows: Record<string, unknown>[];
  let total: ListTotal;
  if (dialect !== 'sqlite' && !estimate) {
    // A database over the network: the page and its exact count in one round trip (a page past the end, which has
    // no row to carry the count, is counted on its own). SQLite runs in the process and counts only when needed.
    rows = await reads.pageWithTotal();
    total = { totalElements: totalOfPage(rows) ?? (offset === 0 ? 0 : await reads.count()) };
  } else if (offset === 0) {
    rows = await reads.page();
    total = rows.length < paging.size ? { totalElements: rows.length } : await totalOf();
  } else {
    total = await totalOf();
    // an estimate proves no page empty: it is read, and a short page makes the total exact
    rows = offset < total.totalElements || total.totalEstimated ? await reads.page() : [];
    if (total.totalEstimated && rows.length > 0 && rows.length < paging.size) total = { totalElements: offset + rows.length };
  }
  if (total.totalEstimated && total.totalElements < offset + rows.length) total = { ...total, totalElements: offset + rows.length };
  return { rows, total };
}
