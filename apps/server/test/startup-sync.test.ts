import { dynamicDb } from '../src/core/db.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { defineResource, type ResourceDef } from '@app/shared/resource/types';
import { isBuiltInPermission, PERMISSION_GROUPS } from '@app/shared/permissions';
import { openDatabase, type Database } from '../src/core/db.ts';
import { prepareDatabase, SHIPPED_RESOURCES, syncShipped } from '../src/sync/index.ts';
import { MIGRATIONS } from '../migrations/index.ts';
import { DICTIONARIES } from '../src/seed/dictionaries.ts';
import { seedDatabase } from '../src/seed/index.ts';
import { MENU_TREE, type MenuSeed } from '../src/seed/menus.ts';
import { buildPreviousReleaseDatabase } from './fixtures/previousRelease.ts';
import { throwawayUrl } from './throwawayUrl.ts';

/**
 * Issue 9 item 4: menus, permission codes and dictionaries come from the definitions and are synced on every
 * start under the start-up lock; an existing database gets new screens and codes, operator edits survive.
 */

const gadget = (label = '小工具', icon = 'ToolOutlined'): ResourceDef =>
  defineResource({
    name: 'gadget',
    table: 'gadget',
    permission: 'GADGET',
    label,
    menu: { parent: 'records', path: 'gadget', icon, titles: { en: 'Gadgets', es: 'Artilugios', ja: 'ガジェット' } },
    fields: [
      { name: 'id', kind: 'int', label: 'ID', readOnly: true },
      { name: 'color', kind: 'dict', dict: 'gadget_color', label: '颜色' },
    ],
  });

/**
 * What a start of this release adds to a database of the previous one (test/fixtures/previousRelease.ts, seeded
 * with the hand-written MENU_TREE, PERMISSION_GROUPS and DICTIONARIES), read from the definitions: the menu of
 * each definition whose screen that tree lacks (`parent/path`, grouped by parent in tree order), the five codes of
 * each permission prefix those groups lack, and each dictionary a `dict` field names that the seed lacks.
 */
function addedSincePreviousRelease(resources: readonly ResourceDef[]): { menus: string[]; permissions: string[]; dictionaries: string[] } {
  const treeKeys = (items: MenuSeed[], parent?: string): string[] =>
    items.flatMap((m) => {
      const key = parent ? `${parent}/${m.path}` : m.path;
      return [key, ...treeKeys(m.children ?? [], key)];
    });
  const previousMenus = new Set(treeKeys(MENU_TREE));
  const parentOrder = (parent: string | undefined) => (parent ? MENU_TREE.findIndex((m) => m.path === parent && !m.component) : MENU_TREE.length);
  const menus = resources
    .filter((d) => d.menu)
    .map((d) => ({ key: d.menu?.parent ? `${d.menu.parent}/${d.menu.path}` : String(d.menu?.path), order: parentOrder(d.menu?.parent) }))
    .filter((m) => !previousMenus.has(m.key))
    .sort((a, b) => a.order - b.order) // stable: within a directory, in definition order
    .map((m) => m.key);
  // ADMIN is the one code of its own, seeded by every release
  const previousPrefixes = new Set(['ADMIN', ...PERMISSION_GROUPS.map((g) => g.prefix)]);
  const prefixes = [...new Set(resources.map((d) => d.permission))].filter((p) => !previousPrefixes.has(p));
  const permissions = prefixes.flatMap((p) => ['ALL', 'SELECT', 'CREATE', 'EDIT', 'DELETE'].map((a) => `${p}_${a}`));
  const seeded = new Set(DICTIONARIES.map((d) => d.name));
  const dictionaries = [...new Set(resources.flatMap((d) => d.fields.map((f) => (f.kind === 'dict' ? f.dict : undefined))))].filter((n): n is string => !!n && !seeded.has(n));
  return { menus, permissions, dictionaries };
}

const open: { database: Database; drop?: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.database.destroy();
    await o.drop?.();
  }
});

async function fresh(): Promise<{ database: Database; url: string }> {
  const { url, drop } = await throwawayUrl();
  const database = await openDatabase(url);
  open.push({ database, drop });
  return { database, url };
}

async function menu(db: Database['db'], name: string) {
  return db.selectFrom('sys_menu').selectAll().where('name', '=', name).executeTakeFirst();
}

describe('upgrading a database of the previous release', () => {
  it('adopts its migrations, adds the new menus, codes and dictionaries, keeps operator edits', async () => {
    const { database } = await fresh();
    const { db } = database;
    await buildPreviousReleaseDatabase(db, database.dialect);
    // operator edits made with the previous release
    await db.updateTable('sys_menu').set({ name: '入职登记' }).where('name', '=', '入职记录').execute();
    await db.updateTable('sys_menu').set({ sort: 999 }).where('name', '=', '离职记录').execute();
    await db.updateTable('sys_menu').set({ hidden: 1 }).where('name', '=', '实习记录').execute();
    const trainId = Number((await menu(db, '培训记录'))?.id);
    await db.deleteFrom('sys_roles_menus').where('menu_id', '=', trainId).execute();
    await db.deleteFrom('sys_menu').where('id', '=', trainId).execute();
    await db.insertInto('sys_menu').values({ name: '自定义报表', sort: 5, path: 'report', iframe: 0, hidden: 0, cache: 0, pid: 0, icon: 'BarChartOutlined' }).execute();
    await db.updateTable('sys_permission').set({ alias: '入职查询（改）' }).where('name', '=', 'ACCENTRY_SELECT').execute();
    await db.updateTable('sys_dict').set({ remark: '性别（改）' }).where('name', '=', 'sex').execute();
    const bennong = await db.selectFrom('sys_dict').select('id').where('name', '=', 'bennong').executeTakeFirstOrThrow();
    await db.updateTable('sys_dict_detail').set({ value: '0.15' }).where('dict_id', '=', bennong.id).where('label', '=', 'yanglaoRatioCompany').execute();
    await db.deleteFrom('sys_dict_detail').where('dict_id', '=', bennong.id).where('label', '=', 'effectiveMonth').execute();
    const menusBefore = Number((await db.selectFrom('sys_menu').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    // the new release starts
    const first = await prepareDatabase(database, { resources: [...SHIPPED_RESOURCES, gadget()] });
    expect(first.migrations).toEqual(MIGRATIONS.slice(4).map(([name]) => name));
    const recorded = await dynamicDb(db).selectFrom('kysely_migration').select('name').orderBy('name').execute();
    expect(recorded.map((r) => r.name)).toEqual(MIGRATIONS.map(([name]) => name));
    // the definition-derived menus the previous release lacked (专项附加扣除 and the others shipped since, and the
    // throwaway one), with the codes and dictionaries of their definitions: derived, so a new resource needs no edit here
    const upgrade = addedSincePreviousRelease([...SHIPPED_RESOURCES, gadget()]);
    expect(upgrade.menus).toEqual(expect.arrayContaining(['salary/taxDeduction', 'tools/siChangeTemplate', 'records/gadget']));
    expect(first.sync.menus).toEqual(upgrade.menus);
    expect(upgrade.permissions).toEqual(expect.arrayContaining(['TAXDEDUCTIONCAP_ALL', 'SICHANGETEMPLATE_DELETE', 'GADGET_SELECT']));
    expect(first.sync.permissions).toEqual(upgrade.permissions);
    expect(first.sync.dictionaries).toEqual(upgrade.dictionaries);
    expect(upgrade.dictionaries).toEqual(['gadget_color']);
    expect(first.sync.dictEntries).toBe(1);

    // operator edits intact, the deleted menu stays deleted
    expect(await menu(db, '入职记录')).toBeUndefined();
    expect((await menu(db, '入职登记'))?.component).toBe('crud/accEntry');
    expect(Number((await menu(db, '离职记录'))?.sort)).toBe(999);
    expect(Number((await menu(db, '实习记录'))?.hidden)).toBe(1);
    expect(await menu(db, '培训记录')).toBeUndefined();
    expect(await menu(db, '自定义报表')).toBeDefined();
    const alias = await db.selectFrom('sys_permission').select('alias').where('name', '=', 'ACCENTRY_SELECT').executeTakeFirstOrThrow();
    expect(alias.alias).toBe('入职查询（改）');
    expect((await db.selectFrom('sys_dict').select('remark').where('name', '=', 'sex').executeTakeFirstOrThrow()).remark).toBe('性别（改）');
    const rate = await db.selectFrom('sys_dict_detail').select('value').where('dict_id', '=', bennong.id).where('label', '=', 'yanglaoRatioCompany').execute();
    expect(rate.map((r) => r.value)).toEqual(['0.15']);
    // a shipped dictionary entry missing in a database of the previous release is put back (a missing rate or
    // option breaks more than a returning one); deletions after the upgrade stay (see the next test)
    const deletedEntry = await db.selectFrom('sys_dict_detail').select('value').where('dict_id', '=', bennong.id).where('label', '=', 'effectiveMonth').execute();
    expect(deletedEntry).toEqual([{ value: '2025-07' }]);

    // the new screen: under 人事档案, visible to the ADMIN role only, with its codes under GADGET_ALL
    const records = await menu(db, '人事档案');
    const added = await menu(db, '小工具');
    expect(added).toMatchObject({ path: 'gadget', component: 'crud/gadget', icon: 'ToolOutlined' });
    expect(Number(added?.pid)).toBe(Number(records?.id));
    expect(Number((await db.selectFrom('sys_menu').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(menusBefore + 7); // 专项附加扣除, 专项附加扣除标准, 结算条款, 增值税计税方式, 小工具, 银行模板 and 社保模板
    const grantedTo = await db
      .selectFrom('sys_roles_menus as rm')
      .innerJoin('sys_role as r', 'r.id', 'rm.role_id')
      .select('r.name')
      .where('rm.menu_id', '=', Number(added?.id))
      .execute();
    expect(grantedTo.map((r) => r.name)).toEqual(['超级管理员']);
    const codes = await db.selectFrom('sys_permission').select(['id', 'name', 'pid', 'alias']).where('name', 'like', 'GADGET%').execute();
    const parent = codes.find((c) => c.name === 'GADGET_ALL');
    expect(parent).toMatchObject({ alias: '小工具', pid: 0 });
    for (const c of codes.filter((x) => x.name !== 'GADGET_ALL')) expect(Number(c.pid)).toBe(Number(parent?.id));
    expect(isBuiltInPermission('GADGET_EDIT')).toBe(true);
    // migration 0005 added proration_rule to the seeded database; the sync adopted it (no duplicate entries)
    const proration = await db
      .selectFrom('sys_dict_detail as d')
      .innerJoin('sys_dict as t', 't.id', 'd.dict_id')
      .select('d.value')
      .where('t.name', '=', 'proration_rule')
      .execute();
    expect(proration.map((r) => r.value).sort()).toEqual(['calendar', 'workdays']);

    // every later start: nothing to do
    const again = await prepareDatabase(database, { resources: [...SHIPPED_RESOURCES, gadget()] });
    expect(again).toEqual({ migrations: [], sync: { menus: [], permissions: [], dictionaries: [], dictEntries: 0 } });
  });

  it('a later release changes what it ships: untouched rows follow, edited ones keep the operator value', async () => {
    const { database } = await fresh();
    const { db } = database;
    await prepareDatabase(database, { resources: [...SHIPPED_RESOURCES, gadget()] });
    await seedDatabase(db, database.dialect, { adminPassword: undefined, production: false });
    // the next release renames the screen and changes its icon
    await syncShipped(database, [...SHIPPED_RESOURCES, gadget('小工具箱', 'AppstoreOutlined')]);
    expect(await menu(db, '小工具箱')).toMatchObject({ icon: 'AppstoreOutlined' });
    const alias = async () => (await db.selectFrom('sys_permission').select('alias').where('name', '=', 'GADGET_ALL').executeTakeFirstOrThrow()).alias;
    expect(await alias()).toBe('小工具箱');
    // the operator renames it; the release after that renames it again: the operator's name stays, the icon follows
    await db.updateTable('sys_menu').set({ name: '我的工具' }).where('name', '=', '小工具箱').execute();
    await db.updateTable('sys_permission').set({ alias: '工具（改）' }).where('name', '=', 'GADGET_ALL').execute();
    await syncShipped(database, [...SHIPPED_RESOURCES, gadget('小工具集', 'ToolOutlined')]);
    expect(await menu(db, '小工具集')).toBeUndefined();
    expect(await menu(db, '我的工具')).toMatchObject({ icon: 'ToolOutlined', component: 'crud/gadget' });
    expect(await alias()).toBe('工具（改）');
    // a new shipped menu whose name an operator already gave another menu still arrives, its name told apart
    await db.updateTable('sys_menu').set({ name: '新工具' }).where('name', '=', '入职记录').execute();
    const withNewTool = [...SHIPPED_RESOURCES, gadget('小工具集', 'ToolOutlined'), { ...gadget('新工具'), name: 'newTool', permission: 'NEWTOOL', menu: { ...gadget().menu!, path: 'newTool' } }];
    expect((await syncShipped(database, withNewTool)).menus).toEqual(['records/newTool']);
    expect(await menu(db, '新工具（records/newTool）')).toMatchObject({ component: 'crud/newTool' });
    expect(await menu(db, '新工具')).toMatchObject({ component: 'crud/accEntry' });
    // a shipped menu the operator deleted is not recreated; a built-in code deleted behind the API's back is
    const id = Number((await menu(db, '我的工具'))?.id);
    await db.deleteFrom('sys_roles_menus').where('menu_id', '=', id).execute();
    await db.deleteFrom('sys_menu').where('id', '=', id).execute();
    await db.deleteFrom('sys_permission').where('name', '=', 'GADGET_DELETE').execute();
    const sex = await db.selectFrom('sys_dict').select('id').where('name', '=', 'sex').executeTakeFirstOrThrow();
    await db.deleteFrom('sys_dict_detail').where('dict_id', '=', sex.id).where('label', '=', '女').execute();
    const report = await syncShipped(database, [...SHIPPED_RESOURCES, gadget('小工具集', 'ToolOutlined')]);
    expect(report).toEqual({ menus: [], permissions: ['GADGET_DELETE'], dictionaries: [], dictEntries: 0 });
  });
});

describe('instances starting together', () => {
  it('two start-ups racing on one empty database both finish, and the database is migrated and synced once', async () => {
    const { database: a, url } = await fresh();
    const b = await openDatabase(url);
    open.push({ database: b });
    const seed = (d: Database) => async () => {
      await seedDatabase(d.db, d.dialect, { adminPassword: 'x', production: false });
    };
    const [ra, rb] = await Promise.all([prepareDatabase(a, { afterSync: seed(a) }), prepareDatabase(b, { afterSync: seed(b) })]);
    expect([ra.migrations.length, rb.migrations.length].sort()).toEqual([0, MIGRATIONS.length]);
    const users = await a.db.selectFrom('sys_user').select('username').execute();
    expect(users.map((u) => u.username)).toEqual(['admin']);
    const dupes = await a.db.selectFrom('sys_menu').select('name').groupBy('name').having((e) => e.fn.countAll(), '>', 1).execute();
    expect(dupes).toEqual([]);
  });
});
