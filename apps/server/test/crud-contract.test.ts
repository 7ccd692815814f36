import { dynamicDb } from '../src/core/db.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { dictDetailResource, dictResource } from '@app/shared/resources/dict';
import { deptResource } from '@app/shared/resources/dept';
import { jobResource } from '@app/shared/resources/job';
import { logResource } from '@app/shared/resources/log';
import { menuResource } from '@app/shared/resources/menu';
import { permissionResource } from '@app/shared/resources/permission';
import { roleResource } from '@app/shared/resources/role';
import { userResource } from '@app/shared/resources/user';
import { createTestApp, type TestApp } from './helpers.ts';
import { adminCaller, type Caller, idOf, newUserBody } from './system-fixtures.ts';

/**
 * The list/create/update/delete contract (ARCHITECTURE.md "Contract") for every system resource, driven by
 * the resource definitions: paging, sort both ways, each declared filter, 201 + row, 204, 200 for single and
 * batch deletes, 404 for ids that do not exist.
 */

type Row = Record<string, any>;

interface ResourceCase {
  def: ResourceDef;
  /** Lists come back as a whole tree instead of a page. */
  tree?: boolean;
  /** A valid create body, unique per `n`. */
  body: (n: number, ctx: Ctx) => Row;
  /** A field changed by the update test, with the new value. */
  change: [field: string, value: unknown];
}

interface Ctx {
  employeeRole: number;
  dictId: number;
}

const tag = () => Math.random().toString(36).slice(2, 8);

const CASES: ResourceCase[] = [
  { def: userResource, body: (n, c) => newUserBody(`cc_user_${n}_${tag()}`, [c.employeeRole]), change: ['cname', '改过的名字'] },
  { def: roleResource, body: (n) => ({ name: `cc_role_${n}_${tag()}`, level: 3 + n, dataScope: '本级', remark: `备注${n}` }), change: ['remark', '改过的备注'] },
  { def: jobResource, body: (n) => ({ name: `cc_job_${n}_${tag()}`, dept: { id: 1 }, sort: 10 + n, enabled: n % 2 === 0 }), change: ['sort', 555] },
  { def: dictResource, body: (n) => ({ name: `cc_dict_${n}_${tag()}`, remark: `说明${n}` }), change: ['remark', '改过的说明'] },
  { def: dictDetailResource, body: (n, c) => ({ dict: { id: c.dictId }, label: `cc_label_${n}_${tag()}`, value: `v${n}`, sort: n }), change: ['value', 'changed'] },
  { def: deptResource, tree: true, body: (n) => ({ name: `cc_dept_${n}_${tag()}`, pid: 1, sort: n, enabled: n % 2 === 0 }), change: ['name', 'cc_dept_renamed'] },
  { def: menuResource, tree: true, body: (n) => ({ name: `cc_menu_${n}_${tag()}`, path: `cc${n}`, pid: 0, sort: 900 + n, iframe: false }), change: ['icon', 'StarOutlined'] },
  { def: permissionResource, tree: true, body: (n) => ({ name: `CC_PERM_${n}_${tag().toUpperCase()}`, alias: `权限${n}`, pid: 0 }), change: ['alias', '改过的别名'] },
];

let t: TestApp;
let admin: Caller;
let ctx: Ctx;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminCaller(t);
  ctx = { employeeRole: await idOf(t, 'sys_role', '普通员工'), dictId: await idOf(t, 'sys_dict', 'sex') };
});
afterAll(async () => {
  await t.close();
});

const flatten = (nodes: Row[]): Row[] => nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);

function queryValue(field: FieldDef, row: Row): string {
  const v = row[field.name];
  return field.kind === 'bool' ? String(!!v) : String(v);
}

describe.each(CASES.map((c) => [c.def.name, c] as const))('/api/%s', (_name, rc) => {
  const base = `/api/${rc.def.name}`;
  const created: Row[] = [];
  const list = async (query = '') => {
    const res = await admin('GET', `${base}${query ? `?${query}` : ''}`);
    expect(res.statusCode, `${base}?${query}`).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['content', 'totalElements']);
    return { body, rows: rc.tree ? flatten(body.content) : (body.content as Row[]) };
  };

  it('POST answers 201 with the created row', async () => {
    for (let n = 0; n < 3; n++) {
      const sent = rc.body(n, ctx);
      const res = await admin('POST', base, sent);
      expect(res.statusCode, res.body).toBe(201);
      const row = res.json();
      expect(row.id).toBeGreaterThan(0);
      for (const f of rc.def.fields) if (!f.readOnly && typeof sent[f.name] !== 'object' && sent[f.name] !== undefined) expect(row[f.name], f.name).toEqual(sent[f.name]);
      expect(row.createTime).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      created.push(row);
    }
  });

  it(rc.tree ? 'GET returns the whole tree with a node count' : 'GET pages with 0-based page and size', async () => {
    if (rc.tree) {
      const { body, rows } = await list();
      expect(body.totalElements).toBe(rows.length);
      const count = await dynamicDb(t.app.ctx.db)
        .selectFrom(rc.def.table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(body.totalElements).toBe(Number(count.n));
      for (const c of created) expect(rows.map((r) => r.id)).toContain(c.id);
      return;
    }
    const first = await list('page=0&size=2&sort=id,desc');
    const second = await list('page=1&size=2&sort=id,desc');
    expect(first.rows).toHaveLength(2);
    expect(first.body.totalElements).toBeGreaterThanOrEqual(3);
    expect(second.body.totalElements).toBe(first.body.totalElements);
    const ids = [...first.rows, ...second.rows].map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(first.rows[0].id).toBe(Math.max(...created.map((c) => c.id)));
    const beyond = await list(`page=${Math.ceil(first.body.totalElements / 2) + 1}&size=2`);
    expect(beyond.rows).toEqual([]);
  });

  it('sorts ascending and descending', async () => {
    const sortable = rc.def.fields.filter((f) => f.sortable !== false && !f.secret && f.kind !== 'text').map((f) => f.name);
    // Trees sort siblings: compare the children of every parent (the roots under key 'root').
    const siblingLists = (content: Row[]) => {
      const lists: Record<string, number[]> = { root: content.map((r) => r.id) };
      for (const n of flatten(content)) if (n.children) lists[n.id] = n.children.map((c: Row) => c.id);
      return lists;
    };
    for (const field of ['id', sortable.find((f) => f !== 'id')!]) {
      const fetch = async (dir: string): Promise<Record<string, number[]>> => {
        const { body } = await list(`size=1000&sort=${field},${dir}`);
        return rc.tree ? siblingLists(body.content) : { root: body.content.map((r: Row) => r.id) };
      };
      const asc = await fetch('asc');
      const desc = await fetch('desc');
      expect(Object.keys(desc).sort()).toEqual(Object.keys(asc).sort());
      expect(asc.root.length).toBeGreaterThan(0);
      for (const [parent, ids] of Object.entries(asc)) expect(desc[parent], `${field} under ${parent}`).toEqual([...ids].reverse());
    }
  });

  it('applies each declared filter', async () => {
    const filters = rc.def.fields.filter((f) => f.filter);
    for (const field of filters) {
      const sample = created[0];
      const value = queryValue(field, sample);
      const { rows } = await list(`size=1000&${field.name}=${encodeURIComponent(value)}`);
      expect(rows.map((r) => r.id), field.name).toContain(sample.id);
      for (const r of rows) {
        if (field.filter === 'like') expect(String(r[field.name]).toLowerCase()).toContain(value.toLowerCase());
        else expect(queryValue(field, r), field.name).toBe(value);
      }
    }
    if (rc.def.blurry) {
      const sample = created[1];
      const value = String(sample[rc.def.blurry[0]]);
      const { rows } = await list(`size=1000&blurry=${encodeURIComponent(value)}`);
      expect(rows.map((r) => r.id)).toContain(sample.id);
      expect(rows.length).toBeLessThan((await list('size=1000')).rows.length);
    }
  });

  it('PUT answers 204 and the change is stored', async () => {
    const target = created[2];
    const [field, value] = rc.change;
    const body = { ...rc.body(2, ctx), ...pickWritable(rc.def, target), [field]: value, id: target.id };
    const res = await admin('PUT', base, body);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect((await admin('GET', `${base}/${target.id}`)).json()[field]).toEqual(value);
  });

  it('404 for an id that does not exist', async () => {
    expect((await admin('GET', `${base}/987654321`)).statusCode).toBe(404);
    expect((await admin('PUT', base, { ...rc.body(9, ctx), id: 987654321 })).statusCode).toBe(404);
    expect((await admin('DELETE', `${base}/987654321`)).statusCode).toBe(404);
    const batch = await admin('DELETE', base, [created[0].id, 987654321]);
    expect(batch.statusCode).toBe(404);
    expect((await admin('GET', `${base}/${created[0].id}`)).statusCode).toBe(200);
  });

  it('DELETE by id and by id array answer 200', async () => {
    expect((await admin('DELETE', `${base}/${created[0].id}`)).statusCode).toBe(200);
    expect((await admin('DELETE', base, [created[1].id, created[2].id])).statusCode).toBe(200);
    for (const c of created) expect((await admin('GET', `${base}/${c.id}`)).statusCode).toBe(404);
  });
});

/** The writable fields of a row (API shape), so a PUT sends the whole record like the web form does. */
function pickWritable(def: ResourceDef, row: Row): Row {
  const out: Row = {};
  for (const f of def.fields) if (!f.readOnly && row[f.name] !== undefined && row[f.name] !== null) out[f.name] = row[f.name];
  return out;
}

describe('/api/logs (read-only)', () => {
  it('pages, sorts both ways and filters by each declared filter', async () => {
    const page0 = (await admin('GET', '/api/logs?page=0&size=2&sort=id,asc')).json();
    const page1 = (await admin('GET', '/api/logs?page=1&size=2&sort=id,asc')).json();
    expect(page0.content).toHaveLength(2);
    expect(page0.totalElements).toBeGreaterThanOrEqual(4);
    expect(page1.content[0].id).toBeGreaterThan(page0.content[1].id);
    const asc = (await admin('GET', '/api/logs?size=1000&sort=time,asc')).json().content.map((r: Row) => r.id);
    const desc = (await admin('GET', '/api/logs?size=1000&sort=time,desc')).json().content.map((r: Row) => r.id);
    expect(desc).toEqual([...asc].reverse());
    for (const field of (logResource.fields as readonly FieldDef[]).filter((f) => f.filter)) {
      const sample = page0.content[0];
      const res = (await admin('GET', `/api/logs?size=1000&${field.name}=${encodeURIComponent(sample[field.name])}`)).json();
      expect(res.content.map((r: Row) => r.id)).toContain(sample.id);
      for (const r of res.content) expect(r[field.name]).toContain(sample[field.name]);
    }
    expect((await admin('GET', '/api/logs/error/987654321')).statusCode).toBe(404);
  });
});
