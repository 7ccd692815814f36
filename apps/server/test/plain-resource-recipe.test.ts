import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineResource } from '@app/shared/resource/types';
import { RESOURCES } from '@app/shared/resources/index';
import { MIGRATIONS } from '../migrations/index.ts';
import { createTableFor } from '../src/core/tableBuilder.ts';
import { missingLabels } from '@app/shared/resources/labels';
import type { TestApp } from './helpers.ts';

/**
 * The README recipe "Adding a plain CRUD resource", followed literally: one definition listed in RESOURCES,
 * one migration listed in MIGRATIONS (its table `createTableFor(def)`), nothing else; the definition carries its
 * en/es/ja labels. (The test adds both before the server modules load, as a
 * release that contains them would.) The resource then has its routes, Excel import/export, menu row and codes.
 */

const gadget = defineResource({
  name: 'recipeGadget',
  table: 'recipe_gadget',
  permission: 'RECIPEGADGET',
  label: '配方小工具',
  labels: {
    en: { _label: 'Gadget', id: 'ID', name: 'Name', color: 'Colour', price: 'Price', createTime: 'Created' },
    es: { _label: 'Artilugio', id: 'ID', name: 'Nombre', color: 'Color', price: 'Precio', createTime: 'Fecha de creación' },
    ja: { _label: 'ガジェット', id: 'ID', name: '名前', color: '色', price: '価格', createTime: '作成日' },
  },
  menu: { parent: 'records', path: 'recipeGadget', icon: 'ToolOutlined', titles: { en: 'Gadgets', es: 'Artilugios', ja: 'ガジェット' } },
  excel: { fileName: '配方小工具', templateName: '配方小工具模板', importKey: ['name'] },
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true },
    { name: 'name', kind: 'string', label: '名称', required: true, maxLength: 50, filter: 'like' },
    { name: 'color', kind: 'dict', dict: 'recipe_gadget_color', label: '颜色' },
    { name: 'price', kind: 'money', label: '价格' },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true },
  ],
});
RESOURCES[gadget.name] = gadget;
MIGRATIONS.push([
  '9001_recipe_gadget',
  ({ db, dialect }) => createTableFor(db, dialect, gadget),
]);

let t: TestApp;
let hx: typeof import('./helpers.ts');
let fx: typeof import('./system-fixtures.ts');
let dx: typeof import('./dispatch-fixtures.ts');
beforeAll(async () => {
  hx = await import('./helpers.ts');
  fx = await import('./system-fixtures.ts');
  dx = await import('./dispatch-fixtures.ts');
  t = await hx.createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('a plain resource from one definition and one migration', () => {
  it('list, create, update, delete', async () => {
    const admin = await fx.adminCaller(t);
    const created = await admin('POST', '/api/recipeGadget', { name: '扳手', color: '红', price: 12.5 });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    expect(created.json()).toMatchObject({ name: '扳手', price: 12.5 });
    expect((await admin('PUT', '/api/recipeGadget', { id, name: '扳手', price: 13 })).statusCode).toBe(204);
    const list = await admin('GET', '/api/recipeGadget?name=扳');
    expect(list.json()).toMatchObject({ totalElements: 1, content: [{ id, name: '扳手', price: 13 }] });
    expect((await admin('POST', '/api/recipeGadget', { price: 1 })).statusCode).toBe(400);
    expect((await admin('DELETE', `/api/recipeGadget/${id}`)).statusCode).toBe(200);
    expect((await admin('GET', '/api/recipeGadget')).json().totalElements).toBe(0);
  });

  it("its labels: complete in en/es/ja, and the server's messages name its fields by them", async () => {
    expect(missingLabels(gadget)).toEqual([]);
    const token = await dx.adminToken(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/api/recipeGadget', headers: { ...hx.bearer(token), 'accept-language': 'en' }, payload: { price: 1 } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Name');
    expect(res.body).not.toContain('名称');
  });

  it('its table: a column of the definition for each stored field', async () => {
    const tables = await t.app.ctx.db.introspection.getTables();
    const table = tables.find((x) => x.name === 'recipe_gadget');
    expect(table?.columns.map((c) => c.name).sort()).toEqual(['color', 'create_time', 'id', 'name', 'price']);
    expect(table?.columns.find((c) => c.name === 'name')?.isNullable).toBe(false);
  });

  it('import and export', async () => {
    const token = await dx.adminToken(t.app);
    // the synced dictionary starts empty; the operator fills in its options
    const { db } = t.app.ctx;
    const dict = await db.selectFrom('sys_dict').select('id').where('name', '=', 'recipe_gadget_color').executeTakeFirstOrThrow();
    await db
      .insertInto('sys_dict_detail')
      .values(['黑', '蓝'].map((c, i) => ({ dict_id: dict.id, label: c, value: c, sort: i + 1 })))
      .execute();
    const file = dx.workbook([
      ['名称', '颜色', '价格'],
      ['锤子', '黑', 30],
      ['钳子', '蓝', '8.80'],
    ]);
    const mp = dx.multipart(file, 'gadgets.xlsx');
    const imported = await t.app.inject({ method: 'POST', url: '/api/import/recipeGadget', headers: { ...hx.bearer(token), ...mp.headers }, payload: mp.payload });
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json(), imported.body).toMatchObject({ total: 2, inserted: 2, failed: 0 });
    const exported = await t.app.inject({ method: 'GET', url: '/api/export/recipeGadget', headers: hx.bearer(token) });
    expect(exported.statusCode).toBe(200);
    const rows = dx.sheetRows(exported.rawPayload);
    expect(rows[0]).toEqual(expect.arrayContaining(['名称', '颜色', '价格']));
    expect(rows.slice(1).map((r) => r[rows[0].indexOf('名称')]).sort()).toEqual(['钳子', '锤子'].sort());
    const template = await t.app.inject({ method: 'POST', url: '/api/download/recipeGadget', headers: hx.bearer(token) });
    expect(template.statusCode).toBe(200);
  });

  it('its menu row (under 人事档案, for the ADMIN role) and its permission codes', async () => {
    const admin = await fx.adminCaller(t);
    const menus = (await admin('GET', '/api/menus/build')).json() as { path: string; children?: { path: string; component?: string; meta?: { title: string } }[] }[];
    const records = menus.find((m) => m.path === '/records');
    expect(records?.children).toContainEqual(expect.objectContaining({ path: 'recipeGadget', component: 'crud/recipeGadget', meta: expect.objectContaining({ title: '配方小工具', titles: { en: 'Gadgets', es: 'Artilugios', ja: 'ガジェット' } }) }));
    const codes = (await t.app.ctx.db.selectFrom('sys_permission').select('name').where('name', 'like', 'RECIPEGADGET%').execute()).map((r) => r.name).sort();
    expect(codes).toEqual(['RECIPEGADGET_ALL', 'RECIPEGADGET_CREATE', 'RECIPEGADGET_DELETE', 'RECIPEGADGET_EDIT', 'RECIPEGADGET_SELECT']);
    const dict = await t.app.ctx.db.selectFrom('sys_dict').select('name').where('name', '=', 'recipe_gadget_color').execute();
    expect(dict).toHaveLength(1);

    const reader = await fx.userWithCodes(t, ['RECIPEGADGET_SELECT']);
    expect((await reader.call('GET', '/api/recipeGadget')).statusCode).toBe(200);
    expect((await reader.call('POST', '/api/recipeGadget', { name: '锯' })).statusCode).toBe(403);
    const manager = await fx.userWithCodes(t, ['RECIPEGADGET_ALL']);
    expect((await manager.call('POST', '/api/recipeGadget', { name: '锯' })).statusCode).toBe(201);
    const other = await fx.userWithCodes(t, ['ACCENTRY_ALL']);
    expect((await other.call('GET', '/api/recipeGadget')).statusCode).toBe(403);
  });
});
