/** Helpers for the tree-shaped system lists (departments, menus, permissions) and their pickers. */

export interface TreeRow {
  id: number;
  children?: TreeRow[];
  [key: string]: unknown;
}

export interface TreeOption {
  value: number;
  title: string;
  key: number;
  disabled?: boolean;
  children?: TreeOption[];
}

/** Keys of every node that has children (to expand a whole tree). */
export function parentKeys(rows: readonly TreeRow[]): number[] {
  const out: number[] = [];
  const walk = (list: readonly TreeRow[]) => {
    for (const r of list) {
      if (r.children?.length) {
        out.push(r.id);
        walk(r.children);
      }
    }
  };
  walk(rows);
  return out;
}

/** Every id in a tree. */
export function allIds(rows: readonly TreeRow[]): number[] {
  const out: number[] = [];
  const walk = (list: readonly TreeRow[]) => {
    for (const r of list) {
      out.push(r.id);
      if (r.children) walk(r.children);
    }
  };
  walk(rows);
  return out;
}

/** Ids of leaves (nodes without children). */
export function leafIds(rows: readonly TreeRow[]): Set<number> {
  const out = new Set<number>();
  const walk = (list: readonly TreeRow[]) => {
    for (const r of list) {
      if (r.children?.length) walk(r.children);
      else out.add(r.id);
    }
  };
  walk(rows);
  return out;
}

/** The node and everything below it. */
export function subtreeIds(rows: readonly TreeRow[], id: number): Set<number> {
  const out = new Set<number>();
  const collect = (r: TreeRow) => {
    out.add(r.id);
    for (const c of r.children ?? []) collect(c);
  };
  const find = (list: readonly TreeRow[]): boolean => {
    for (const r of list) {
      if (r.id === id) {
        collect(r);
        return true;
      }
      if (r.children && find(r.children)) return true;
    }
    return false;
  };
  find(rows);
  return out;
}

/** TreeSelect options from rows; `disabled` ids (a node and its descendants when editing) cannot be picked. */
export function toTreeOptions(rows: readonly TreeRow[], labelField: string, disabled: Set<number> = new Set()): TreeOption[] {
  return rows.map((r) => ({
    value: r.id,
    key: r.id,
    title: String(r[labelField] ?? r.label ?? r.id),
    disabled: disabled.has(r.id),
    children: r.children?.length ? toTreeOptions(r.children, labelField, disabled) : undefined,
  }));
}
