import { z } from 'zod';
import type { MenuMeta, MenuVo } from '../navigation.ts';
import { defineContract } from './contract.ts';
import { SESSION_ROUTES } from './sessionRoutes.ts';

/**
 * The menu trees of 系统管理: each user's menus (the sidebar and the routes, eladmin's MenuVo tree) and the
 * checkbox trees of menus and permission codes the role screen assigns from.
 * Server: apps/server/src/modules/system (menus.ts, permissions.ts); web: apps/web/src/app/menus.ts,
 * apps/web/src/modules/system/RolePage.tsx.
 */

/** Menu managers and role editors read the menu tree; permission managers and role editors the code tree. */
export const MENU_TREE_READERS = ['MENU_ALL', 'MENU_SELECT', 'MENU_CREATE', 'MENU_EDIT', 'MENU_DELETE', 'ROLES_ALL', 'ROLES_SELECT', 'ROLES_EDIT'] as const;
export const PERMISSION_TREE_READERS = ['PERMISSION_ALL', 'PERMISSION_SELECT', 'PERMISSION_CREATE', 'PERMISSION_EDIT', 'PERMISSION_DELETE', 'ROLES_ALL', 'ROLES_SELECT', 'ROLES_EDIT'] as const;

/** One node of a checkbox tree; `children` only where there are some. */
export interface LabelNode {
  id: number;
  label: string;
  children?: LabelNode[];
}
// Recursive: the id makes the OpenAPI document name it as a component that refers to itself (apiDocs.ts).
export const labelNode: z.ZodType<LabelNode> = z
  .object({
    id: z.number(),
    label: z.string(),
    get children() {
      return z.array(labelNode).optional();
    },
  })
  .meta({ id: 'LabelNode' });

/** A node of the permission tree carries its code, so that the role screen can tell which ones the editor may hand on. */
export interface PermissionNode {
  id: number;
  label: string;
  name: string;
  children?: PermissionNode[];
}
export const permissionNode: z.ZodType<PermissionNode> = z
  .object({
    id: z.number(),
    label: z.string(),
    name: z.string(),
    get children() {
      return z.array(permissionNode).optional();
    },
  })
  .meta({ id: 'PermissionNode' });

export const menuTree = defineContract({
  method: 'GET',
  path: '/api/menus/tree',
  auth: MENU_TREE_READERS,
  summary: '菜单树（分配菜单用）',
  tags: ['菜单'],
  response: z.array(labelNode),
});

export const permissionTree = defineContract({
  method: 'GET',
  path: '/api/permissions/tree',
  auth: PERMISSION_TREE_READERS,
  summary: '权限树（分配权限用）',
  tags: ['权限'],
  response: z.array(permissionNode),
});

/** A menu's title, icon and caching; `titles` holds a definition's menu title in the other UI languages. */
const menuMeta: z.ZodType<MenuMeta> = z.strictObject({
  title: z.string(),
  icon: z.string().nullable().optional(),
  noCache: z.boolean().optional(),
  titles: z.record(z.string(), z.string()).optional(),
});

/**
 * One node of the user's menus (eladmin's MenuVo; the interface lives in navigation.ts, which the page's boot code
 * reads without zod). Strict: the answer is sent without a second check, and the tests, which check it, fail on a
 * field the server adds but this schema does not state.
 */
export const menuVo: z.ZodType<MenuVo> = z
  .strictObject({
    name: z.string().optional(),
    path: z.string(),
    hidden: z.boolean().optional(),
    redirect: z.string().optional(),
    component: z.string().optional(),
    alwaysShow: z.boolean().optional(),
    meta: menuMeta.optional(),
    get children() {
      return z.array(menuVo).optional();
    },
  })
  .meta({ id: 'MenuVo' });

/** The caller's menus as the sidebar and the routes read them; reachable before a required password change. */
export const ownMenus = defineContract({
  ...SESSION_ROUTES.ownMenus,
  summary: '当前用户的菜单（侧边栏）',
  tags: ['菜单'],
  beforePasswordChange: true,
  response: z.array(menuVo),
});
