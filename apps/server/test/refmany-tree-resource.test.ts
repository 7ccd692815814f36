import { dynamicDb } from '../src/core/db.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { defineResource } from '@app/shared/resource/types';
import { RESOURCES } from '@app/shared/resources/index';
import { MIGRATIONS } from '../migrations/index.ts';
import { createTable } from '../src/core/tableBuilder.ts';
import type { TestApp } from './helpers.ts';

/**
 * The generic CRUD's `refMany` field kind (a set of another resource's ids in a link table) and its tree
 * listing (`tree`), through throwaway resources added the way plain-resource-recipe.test.ts adds one: a
 * definition in RESOURCES and a migration in MIGRATIONS, nothing else.
 */

const tag = defineResource({
  name: 'recipeTag',
  table: 'recipe_tag',
  permission: 'RECIPETAG',
  label: '配方标签',
  menu: { parent: 'records', path: 'recipeTag', icon: 'TagOutlined', titles: { en: 'Tags', es: 'Etiquetas', ja: 'タグ' } },
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true },
    { name: 'name', kind: 'string', label: '名称', required: true, maxLength: 50 },
    { name: 'sort', kind: 'int', label: '排序' },
  ],
});

const node = defineResource({
  name: 'recipeNode',
  table: 'recipe_node',
  permission: 'RECIPENODE',
  label: '配方节点',
  defaultSort: [['sort', 'asc']],
  menu: { parent: 'records', path: 'recipeNode', icon: 'ApartmentOutlined', titles: { en: 'Nodes', es: 'Nodos', ja: 'ノード' } },
  excel: { fileName: '配方节点', templateName: '配方节点模板' },
  tree: { parentField: 'pid', parentLabel: '上级节点', onDelete: 'cascade' },
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true },
    { name: 'name', kind: 'string', label: '名称', required: true, maxLength: 50, filter: 'like' },
    { name: 'pid', kind: 'int', label: '上级节点', required: true, min: 0, defaultValue: 0 },
    { name: 'sort', kind: 'int', label: '排序', defaultValue: 999 },
    {
      name: 'tags',
      kind: 'refMany',
      label: '标签',
      ref: { resource: 'recipeTag', labelField: 'name' },
      links: { table: 'recipe_node_tag', ownerColumn: 'node_id', targetColumn: 'tag_id', show: ['name'], orderBy: [['sort', 'desc']] },
    },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true },
  ],
});
RESOURCES[tag.name] = tag;
RESOURCES[node.name] = node;
MIGRATIONS.push(
  ['9002_recipe_tag', ({ db, dialect }) => createTable(db, dialect, 'recipe_tag', (t) => t.id().string('name', 50, { notNull: true }).int('sort'))],
  [
    '9003_recipe_node',
    async ({ db, dialect }) => {
      await createTable(db, dialect, 'recipe_node', (t) => t.id().string('name', 50, { notNull: true }).int('pid', { notNull: true }).int('sort').datetime('create_time'));
      await createTable(db, dialect, 'recipe_node_tag', (t) => t.int('node_id', { notNull: true }).int('tag_id', { notNull: true, index: true }).unique('node_id', 'tag_id'));
    },
  ],
);

type Row = Record<string, any>;
let t: TestApp;
let fx: typeof import('./system-fixtures.ts');
let dx: typeof import('./dispatch-fixtures.ts');
let hx: typeof import('./helpers.ts');
let admin: Awaited<ReturnType<typeof import('./system-fixtures.ts').adminCaller>>;
const tagIds: Record<string, number> = {};

beforeAll(async () => {
  hx = await import('./helpers.ts');
  fx = await import('./system-fixtures.ts');
  dx = await import('./dispatch-fixtures.ts');
  t = await hx.createTestApp();
  admin = await fx.adminCaller(t);
  for (const [i, name] of ['甲', '乙', '丙'].entries()) {
    const res = await admin('POST', '/api/recipeTag', { name, sort: i + 1 });
    expect(res.statusCode, res.body).toBe(201);
    tagIds[name] = res.json().id;
  }
});
afterAll(async () => {
  await t?.close();
});

const links = async (nodeId: number) =>
  (await dynamicDb(t.app.ctx.db).selectFrom('recipe_node_tag').select('tag_id').where('node_id', '=', nodeId).orderBy('tag_id').execute()).map((r) => Number(r.tag_id));

describe('refMany: a set of ids kept in a link table', () => {
  it('takes [{id}] or [id], answers [{id, ...show}] in the declared order, and replaces the set on update', async () => {
    const created = await admin('POST', '/api/recipeNode', { name: '根', tags: [{ id: tagIds.甲 }, { id: tagIds.乙 }, { id: tagIds.甲 }] });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    // 乙 before 甲: orderBy sort desc; duplicates dropped
    expect(created.json().tags).toEqual([
      { id: tagIds.乙, name: '乙' },
      { id: tagIds.甲, name: '甲' },
    ]);
    expect(await links(id)).toEqual([tagIds.甲, tagIds.乙].sort((a, b) => a - b));

    expect((await admin('PUT', '/api/recipeNode', { id, name: '根', pid: 0, tags: [tagIds.丙, String(tagIds.甲)] })).statusCode).toBe(204);
    expect(await links(id)).toEqual([tagIds.甲, tagIds.丙].sort((a, b) => a - b));
    // absent: the set stays; null or []: emptied
    expect((await admin('PUT', '/api/recipeNode', { id, name: '根2', pid: 0 })).statusCode).toBe(204);
    expect(await links(id)).toHaveLength(2);
    expect((await admin('GET', `/api/recipeNode/${id}`)).json()).toMatchObject({ name: '根2', tags: [{ name: '丙' }, { name: '甲' }] });
    expect((await admin('PUT', '/api/recipeNode', { id, name: '根', pid: 0, tags: null })).statusCode).toBe(204);
    expect(await links(id)).toEqual([]);
    expect((await admin('GET', `/api/recipeNode/${id}`)).json().tags).toEqual([]);
    expect((await admin('DELETE', `/api/recipeNode/${id}`)).statusCode).toBe(200);
  });

  it('refuses malformed sets and unknown ids with 400 and writes nothing', async () => {
    const before = await dynamicDb(t.app.ctx.db).selectFrom('recipe_node').select('id').execute();
    for (const [tags, message] of [
      ['甲', '标签格式不正确，应为 [{id}]'],
      [[{ id: 'x' }], '标签格式不正确，应为 [{id}]'],
      [[0], '标签格式不正确，应为 [{id}]'],
      [{ id: 1 }, '标签格式不正确，应为 [{id}]'],
      [Array.from({ length: 2001 }, (_, i) => i + 1), '一次最多提交2000项'],
      [[{ id: 999999 }], '标签不存在: 999999'],
    ] as [unknown, string][]) {
      const res = await admin('POST', '/api/recipeNode', { name: '坏', tags });
      expect(res.statusCode, JSON.stringify(tags).slice(0, 50)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(await dynamicDb(t.app.ctx.db).selectFrom('recipe_node').select('id').execute()).toEqual(before);
    expect(await dynamicDb(t.app.ctx.db).selectFrom('recipe_node_tag').select('node_id').execute()).toEqual([]);
  });

  it('reads the sets of a whole page with one query per field', async () => {
    const { attachLinks } = await import('../src/crud/links.ts');
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await admin('POST', '/api/recipeNode', { name: `批${i}`, tags: [tagIds.甲, tagIds.丙] })).json().id);
    let queries = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => {
        queries++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const rows: Row[] = ids.map((id) => ({ id }));
    await attachLinks(t.app.ctx.db.withPlugin(counter), node, rows);
    expect(queries).toBe(1);
    for (const r of rows) expect(r.tags.map((x: Row) => x.name)).toEqual(['丙', '甲']);
    expect((await admin('DELETE', '/api/recipeNode', ids)).statusCode).toBe(200);
    // the owners' links go with them
    expect(await dynamicDb(t.app.ctx.db).selectFrom('recipe_node_tag').select('node_id').where('node_id', 'in', ids).execute()).toEqual([]);
  });

  it('exports the linked rows by their labels', async () => {
    const created = await admin('POST', '/api/recipeNode', { name: '导出', tags: [tagIds.甲, tagIds.乙] });
    const token = await dx.adminToken(t.app);
    const exported = await t.app.inject({ method: 'GET', url: '/api/export/recipeNode', headers: hx.bearer(token) });
    expect(exported.statusCode).toBe(200);
    const rows = dx.sheetRows(exported.rawPayload);
    const row = rows.find((r) => r[rows[0].indexOf('名称')] === '导出');
    expect(row?.[rows[0].indexOf('标签')]).toBe('乙,甲');
    expect((await admin('DELETE', `/api/recipeNode/${created.json().id}`)).statusCode).toBe(200);
  });
});

describe('tree listing', () => {
  it('answers the whole tree nested on the parent field, keeps it a tree, and cascades deletes', async () => {
    const post = async (body: Row) => {
      const res = await admin('POST', '/api/recipeNode', body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as number;
    };
    const a = await post({ name: '总', sort: 1 });
    const b = await post({ name: '分二', pid: a, sort: 2 });
    const c = await post({ name: '分一', pid: a, sort: 1, tags: [tagIds.丙] });
    const d = await post({ name: '末', pid: c, sort: 1 });

    const list = (await admin('GET', '/api/recipeNode?page=3&size=1')).json();
    expect(list.totalElements).toBe(4);
    expect(list.content).toHaveLength(1);
    const root = list.content[0];
    expect(root).toMatchObject({ id: a, tags: [] });
    expect(root.children.map((n: Row) => n.id)).toEqual([c, b]);
    expect(root.children[0]).toMatchObject({ tags: [{ id: tagIds.丙, name: '丙' }], children: [{ id: d, pid: c }] });
    expect(root.children[1].children).toBeUndefined();
    // a filtered match deep in the tree comes back as a root
    expect((await admin('GET', `/api/recipeNode?name=${encodeURIComponent('末')}`)).json()).toMatchObject({ totalElements: 1, content: [{ id: d, pid: c }] });
    expect((await admin('GET', '/api/recipeNode?sort=nope,asc')).statusCode).toBe(400);

    for (const pid of [a, c, d]) {
      const res = await admin('PUT', '/api/recipeNode', { id: a, name: '总', pid });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('上级不能为自己或下级');
    }
    const missing = await admin('PUT', '/api/recipeNode', { id: b, name: '分二', pid: 999999 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('上级节点不存在');
    expect((await admin('POST', '/api/recipeNode', { name: '孤', pid: 999999 })).json().message).toBe('上级节点不存在');
    expect((await admin('PUT', '/api/recipeNode', { id: b, name: '分二', pid: d })).statusCode).toBe(204);

    expect((await admin('DELETE', `/api/recipeNode/${a}`)).statusCode).toBe(200);
    expect(await dynamicDb(t.app.ctx.db).selectFrom('recipe_node').select('id').where('id', 'in', [a, b, c, d]).execute()).toEqual([]);
    expect(await links(c)).toEqual([]);
  });
});
