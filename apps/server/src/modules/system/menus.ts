import type { FastifyInstance } from 'fastify';
import { type LabelNode, menuTree, ownMenus } from '@app/shared/contracts/systemTrees';
import type { MenuVo } from '@app/shared/navigation';
import { menuResource } from '@app/shared/resources/menu';
import type { Db } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { rowToApi } from '../../crud/rowMapping.ts';
import { shippedMenuTitles } from '../../sync/index.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { trustedResponse } from '../../crud/routeSchemas.ts';
import { registerResource } from '../../crud/registerResource.ts';
import { buildTree } from '../../crud/tree.ts';

type Row = Record<string, unknown>;

const EXTERNAL_LINK = /^https?:\/\//i;


interface MenuNode {
  id: number;
  pid: number;
  name: string;
  path: string | null;
  component: string | null;
  componentName: string | null;
  icon: string | null;
  iframe: boolean;
  hidden: boolean;
  cache: boolean;
  children?: MenuNode[];
}

/** A route of the web app in the reference's MenuVo shape (the contract's, ownMenus); empty fields are left out. */
export type { MenuVo };

function withoutEmpty<T extends object>(o: T): T {
  for (const [k, v] of Object.entries(o)) if (v === undefined || v === null || v === '') delete (o as Row)[k];
  return o;
}

/**
 * The reference's menu building: roots get a leading '/' and the 'Layout' component; nodes with children
 * are directories (alwaysShow, redirect 'noredirect'); a root without children is wrapped in a Layout whose
 * only child is `index`, so the single-page payslip menu becomes /acPayslip/index.
 */
export function buildMenuVos(nodes: MenuNode[]): MenuVo[] {
  return nodes.map((m) => {
    const isRoot = m.pid === 0;
    const vo: MenuVo = { name: m.componentName || m.name, path: m.path ?? '', hidden: m.hidden };
    if (!m.iframe) {
      if (isRoot) {
        vo.path = `/${m.path ?? ''}`;
        vo.component = m.component || 'Layout';
      } else if (m.component) vo.component = m.component;
    }
    vo.meta = withoutEmpty({ title: m.name, icon: m.icon ?? undefined, noCache: !m.cache, titles: shippedMenuTitles(m.component, m.name) });
    const children = m.children ?? [];
    if (children.length) {
      vo.alwaysShow = true;
      vo.redirect = 'noredirect';
      vo.children = buildMenuVos(children);
    } else if (isRoot) {
      const only: MenuVo = m.iframe ? { path: m.path ?? '', meta: vo.meta } : { path: 'index', name: vo.name, component: vo.component, meta: vo.meta };
      vo.name = undefined;
      vo.meta = undefined;
      vo.component = 'Layout';
      vo.children = [withoutEmpty(only)];
    }
    return withoutEmpty(vo);
  });
}

/** sys_menu rows (sorted) -> the MenuVo tree of /api/menus/build. */
function menuVosOf(rows: Row[]): MenuVo[] {
  const nodes = rows.map((r) => rowToApi(menuResource, r) as unknown as MenuNode);
  // Only real roots start a route; a menu granted without its parent has nowhere to hang.
  const tree = buildTree(nodes).filter((n) => n.pid === 0) as MenuNode[];
  return buildMenuVos(tree);
}

/** Every menu as MenuVo, whoever may see it (which screen lives at which path; no access decision). */
export async function allMenuVos(db: Db): Promise<MenuVo[]> {
  const rows = await db.selectFrom('sys_menu').selectAll().orderBy('sort', 'asc').orderBy('id', 'asc').execute();
  return menuVosOf(rows as Row[]);
}

/** Menus: management tree, the role-assignment tree, and each user's routes. */
export function registerMenus(app: FastifyInstance): void {
  const db = () => app.ctx.db;

  // built here from typed rows: sent without a second check outside the tests (it is on every page start)
  trustedResponse(ownMenus.response);
  routeContract(app, ownMenus, async (req) => {
    const roleIds = req.user!.roles.map((r) => r.id);
    if (!roleIds.length) return [];
    const rows = await db()
      .selectFrom('sys_menu')
      .selectAll()
      .where('id', 'in', db().selectFrom('sys_roles_menus').select('menu_id').where('role_id', 'in', roleIds))
      .orderBy('sort', 'asc')
      .orderBy('id', 'asc')
      .execute();
    return menuVosOf(rows as Row[]);
  });

  routeContract(app, menuTree, async () => {
    const rows = await db().selectFrom('sys_menu').select(['id', 'pid', 'name']).orderBy('sort', 'asc').orderBy('id', 'asc').execute();
    return labelTree(rows.map((r) => ({ id: Number(r.id), pid: Number(r.pid), label: r.name as string })));
  });

  registerResource(app, menuResource, {
    decorate: (rows) => {
      for (const r of rows) r.label = r.name;
    },
    beforeWrite: (values, { existing }) => {
      const merged = { ...existing, ...values };
      if (merged.iframe === true && !EXTERNAL_LINK.test(String(merged.path ?? ''))) {
        throw new AppError('MENU_LINK', {}, { path: { code: 'MENU_LINK' } });
      }
    },
    // roles link to menus (the roles' link table is theirs, not the menu's): a deleted menu leaves no grant behind
    beforeDelete: async (ids, { db: trx }) => {
      for (let i = 0; i < ids.length; i += 500) await trx.deleteFrom('sys_roles_menus').where('menu_id', 'in', ids.slice(i, i + 500)).execute();
    },
  });
}

/** `[{id, label, children}]` for checkbox trees; `children` only where there are some. */
export function labelTree(nodes: { id: number; pid: number; label: string }[]): LabelNode[] {
  const strip = (n: LabelNode): LabelNode => {
    const out: LabelNode = { id: n.id, label: n.label };
    if (n.children?.length) out.children = n.children.map(strip);
    return out;
  };
  return buildTree(nodes).map(strip);
}
