import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineResource } from '@app/shared/resource/types';
import { RESOURCES } from '@app/shared/resources/index';
import { MIGRATIONS } from '../migrations/index.ts';
import { createTable } from '../src/core/tableBuilder.ts';
import type { TestApp } from './helpers.ts';

/**
 * The README recipe "Adding a plain CRUD resource", followed literally: one definition listed in RESOURCES,
 * one migration listed in MIGRATIONS, nothing else. (The test adds both before the server modules load, as a
 * release that contains them would.) The resource then has its routes, Excel import/export, menu row and codes.
 */

const gadget = defineResource({
  name: 'recipeGadget',
  table: 'recipe_gadget',
  permission: 'RECIPEGADGET',
  label: '配方小工具',
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
  ({ db, dialect }) => createTable(db, dialect, 'recipe_gadget', (t) => t.id().string('name', 50, { notNull: true }).string('color', 20).money('price').datetime('create_time')),
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
