import { type PermissionGroup, permissionGroupsOf } from '@app/shared/permissions';
import type { ResourceDef } from '@app/shared/resource/types';
import { DICTIONARIES, type DictSeed } from '../seed/dictionaries.ts';
import { MENU_TREE, type MenuSeed } from '../seed/menus.ts';

/**
 * What the code ships, computed from the definitions and the hand-made seeds: the menu rows (the seeded tree
 * plus each definition's `menu`), every permission code and the dictionaries. sync/syncDefinitions.ts
 * writes it into a database.
 */

/** A menu row the code ships. `key` is stable across releases (its path below its directory). */
export interface ShippedMenu {
  key: string;
  parentKey?: string;
  name: string;
  path: string;
  icon: string;
  component: string | null;
  hidden: boolean;
  /** Position in the whole tree, depth first (as the first-start seed always numbered them). */
  sort: number;
  /** Titles in the other UI languages (definitions' menus only; the hand-made tree's are in the web's menu.json). */
  titles?: { en: string; es: string; ja: string };
}

export interface ShippedPermission {
  code: string;
  alias: string;
  parentCode?: string;
}

export interface ShippedDefinitions {
  menus: ShippedMenu[];
  permissions: ShippedPermission[];
  dictionaries: DictSeed[];
  permissionGroups: PermissionGroup[];
}

/** The menu tree with every definition's screen added where its `menu` says. */
export function menuTreeOf(resources: readonly ResourceDef[]): MenuSeed[] {
  const tree: MenuSeed[] = MENU_TREE.map((m) => ({ ...m, children: m.children ? [...m.children] : undefined }));
  const components = new Set<string>();
  const walk = (list: MenuSeed[]) => {
    for (const m of list) {
      if (m.component) components.add(m.component);
      walk(m.children ?? []);
    }
  };
  walk(tree);
  for (const def of resources) {
    if (!def.menu) continue;
    const component = def.menu.component ?? `crud/${def.name}`;
    if (components.has(component)) continue;
    components.add(component);
    const seed: MenuSeed = { name: def.label, path: def.menu.path, icon: def.menu.icon, component };
    const parent = def.menu.parent ? tree.find((m) => m.path === def.menu?.parent && !m.component) : undefined;
    if (parent) parent.children = [...(parent.children ?? []), seed];
    else tree.push(seed);
  }
  return tree;
}

/** Everything the definitions imply, in insertion order (parents first). */
export function shippedDefinitions(resources: readonly ResourceDef[]): ShippedDefinitions {
  const titles = new Map(resources.filter((d) => d.menu).map((d) => [d.menu?.component ?? `crud/${d.name}`, d.menu?.titles]));
  const menus: ShippedMenu[] = [];
  let sort = 1;
  const visit = (m: MenuSeed, parentKey: string | undefined) => {
    const key = parentKey ? `${parentKey}/${m.path}` : m.path;
    const t = m.component ? titles.get(m.component) : undefined;
    menus.push({ key, parentKey, name: m.name, path: m.path, icon: m.icon, component: m.component ?? null, hidden: !!m.hidden, sort: sort++, ...(t ? { titles: t } : {}) });
    for (const c of m.children ?? []) visit(c, key);
  };
  for (const m of menuTreeOf(resources)) visit(m, undefined);

  const permissionGroups = permissionGroupsOf(resources);
  const permissions: ShippedPermission[] = [{ code: 'ADMIN', alias: '超级管理员' }];
  for (const g of permissionGroups) {
    permissions.push({ code: `${g.prefix}_ALL`, alias: g.alias });
    for (const [suffix, alias] of g.actions) permissions.push({ code: `${g.prefix}_${suffix}`, alias: `${g.alias}${alias}`, parentCode: `${g.prefix}_ALL` });
  }

  // every dictionary a `dict` field names exists, empty if no seed fills it
  const dictionaries = [...DICTIONARIES];
  const named = new Set(dictionaries.map((d) => d.name));
  for (const def of resources) {
    for (const f of def.fields) {
      if (f.kind !== 'dict' || !f.dict || named.has(f.dict)) continue;
      named.add(f.dict);
      dictionaries.push({ name: f.dict, remark: `${def.label}${f.label}`, entries: [] });
    }
  }
  return { menus, permissions, dictionaries, permissionGroups };
}
