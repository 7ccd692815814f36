import { menuTreeOf } from '../sync/definitions.ts';
import { SHIPPED_RESOURCES } from '../sync/index.ts';
import type { MenuSeed } from '../seed/menus.ts';

/**
 * The order of the API document's tags (U25: they began with 存储管理 and ended with 首页, the order routes
 * happened to register): the session's own endpoints first, then the menu's order, each tag beside the screen it
 * serves; a tag no screen claims comes last, in the document's order.
 */

/** Endpoints every screen uses, before the menus: the login, the home screen, its bell, the personal centre. */
const BEFORE_MENUS = ['登录', '首页', '首页统计', '通知', '个人中心'];

/** Tags named differently from their screen's menu entry (the resource's label against the menu's title). */
const SCREEN_OF_TAG: Record<string, string> = {
  单位: '单位管理',
  员工: '员工管理',
  工资确认记录: '月度工资',
  薪资输入核对: '月度工资',
  用户: '用户管理',
  角色: '角色管理',
  权限: '权限管理',
  菜单: '菜单管理',
  部门: '部门管理',
  岗位: '岗位管理',
  字典: '字典管理',
  字典详情: '字典管理',
  日志: '操作日志',
};

function menuTitles(tree: MenuSeed[]): string[] {
  return tree.flatMap((m) => [m.name, ...menuTitles(m.children ?? [])]);
}

/**
 * The tags in menu order — the shipped menu with the definitions' own screens (专项附加扣除 and the like) where
 * their `menu` puts them — stable: tags of one screen keep the document's order among themselves.
 */
export function tagsInMenuOrder(tags: string[], tree: MenuSeed[] = menuTreeOf(SHIPPED_RESOURCES)): string[] {
  const titles = menuTitles(tree);
  const rank = (tag: string): number => {
    const before = BEFORE_MENUS.indexOf(tag);
    if (before >= 0) return before;
    const screen = titles.indexOf(SCREEN_OF_TAG[tag] ?? tag);
    return screen >= 0 ? BEFORE_MENUS.length + screen : Number.MAX_SAFE_INTEGER;
  };
  return tags
    .map((tag, i) => ({ tag, i, r: rank(tag) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map(({ tag }) => tag);
}

interface OpenApiDoc {
  /** path -> method -> operation; a path item holds other keys too ($ref, summary, parameters), which have no tags */
  paths?: Record<string, object | undefined>;
  tags?: { name: string }[];
}

const tagsOf = (operation: unknown): string[] =>
  operation && typeof operation === 'object' && 'tags' in operation && Array.isArray(operation.tags) ? operation.tags.filter((t): t is string => typeof t === 'string') : [];

/** The document with its top-level `tags` list in menu order (Swagger UI and the 接口文档 screen group by it). */
export function withOrderedTags<D extends OpenApiDoc>(doc: D): D {
  const seen: string[] = [];
  for (const ops of Object.values(doc.paths ?? {})) for (const op of Object.values(ops ?? {})) for (const tag of tagsOf(op)) if (!seen.includes(tag)) seen.push(tag);
  return { ...doc, tags: tagsInMenuOrder(seen).map((name) => ({ name })) };
}
