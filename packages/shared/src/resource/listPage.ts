/**
 * What a list route answers: the generic resource lists (`GET /api/<resource>?page&size`, apps/server/src/crud/
 * registerResource.ts `pageOf`) and the hand-written lists shaped alike. The web reads every list through this type.
 */
export interface ListPage<Row> {
  content: Row[];
  totalElements: number;
  /**
   * true: `totalElements` is the PostgreSQL planner's estimate, answered when the filter matches 10,000 rows or more
   * (apps/server/src/crud/listTotal.ts, rule in the README); screens show it as approximate. Absent: exact.
   */
  totalEstimated?: boolean;
}

/** A row of a tree list (departments, menus): the list's own row with its children; the tree is built on ids, so each has one. */
export type TreeRowOf<Row> = Omit<Row, 'id' | 'children'> & { id: number; children?: TreeRowOf<Row>[] };
