import { dynamicDb } from '../src/core/db.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { writableFields } from '@app/shared/resource';
import { dictDetailResource, dictResource } from '@app/shared/resources/dict';
import { deptResource } from '@app/shared/resources/dept';
import { jobResource } from '@app/shared/resources/job';
import { menuResource } from '@app/shared/resources/menu';
import { permissionResource } from '@app/shared/resources/permission';
import { roleResource } from '@app/shared/resources/role';
import { userResource } from '@app/shared/resources/user';
import { insertReturningId, nowIso } from '../src/core/db.ts';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, type TestApp } from './helpers.ts';
import { type Caller, caller, idOf, newUserBody } from './system-fixtures.ts';

/**
 * Hostile and sloppy input against the system list and create endpoints: every answer is a clear 4xx
 * (never a 500), wildcards and SQL in filters are plain text, and a refused write leaves nothing behind.
 */

type Row = Record<string, any>;

let t: TestApp;
let admin: Caller;
let adminToken: string;
let employeeRole: number;
let sexDict: number;

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
  admin = caller(t, adminToken);
  employeeRole = await idOf(t, 'sys_role', '普通员工');
  sexDict = await idOf(t, 'sys_dict', 'sex');
});
afterAll(async () => {
  await t.close();
});

const LISTS = ['/api/users', '/api/roles', '/api/job', '/api/dict', '/api/dictDetail', '/api/dept', '/api/menus', '/api/permissions', '/api/logs', '/api/logs/error', '/api/logs/user'];

interface Creatable {
  def: ResourceDef;
  body: (name: string) => Row;
  /** The field the literal-filter test searches: a declared filter or `blurry`. */
  search: { param: string; field: string };
  /** Tables whose row counts must not change when a duplicate is refused. */
  tables: string[];
}

const CREATABLE: Creatable[] = [
  { def: userResource, body: (n) => ({ ...newUserBody(n, [employeeRole]), email: `${Math.random().toString(36).slice(2)}@example.com` }), search: { param: 'blurry', field: 'username' }, tables: ['sys_user', 'sys_users_roles'] },
  { def: roleResource, body: (n) => ({ name: n, level: 3, dataScope: '自定义', depts: [{ id: 1 }] }), search: { param: 'blurry', field: 'name' }, tables: ['sys_role', 'sys_roles_depts'] },
  { def: jobResource, body: (n) => ({ name: n, dept: { id: 1 }, sort: 1 }), search: { param: 'name', field: 'name' }, tables: ['sys_job'] },
  { def: dictResource, body: (n) => ({ name: n, remark: 'r' }), search: { param: 'name', field: 'name' }, tables: ['sys_dict'] },
  { def: dictDetailResource, body: (n) => ({ dict: { id: sexDict }, label: n, value: 'v', sort: 1 }), search: { param: 'label', field: 'label' }, tables: ['sys_dict_detail'] },
  { def: deptResource, body: (n) => ({ name: n, pid: 1, enabled: true }), search: { param: 'name', field: 'name' }, tables: ['sys_dept'] },
  { def: menuResource, body: (n) => ({ name: n, pid: 0, sort: 1, iframe: false }), search: { param: 'name', field: 'name' }, tables: ['sys_menu'] },
  {
    def: permissionResource,
    body: (n) => ({ name: `P${Math.random().toString(36).slice(2, 10).toUpperCase()}`, alias: n, pid: 0 }),
    search: { param: 'blurry', field: 'alias' },
    tables: ['sys_permission'],
  },
];

async function counts(tables: string[]): Promise<number[]> {
  return Promise.all(
    tables.map(async (table) =>
      Number(
        (
          await dynamicDb(t.app.ctx.db)
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ),
  );
}

function expectClear400(res: { statusCode: number; json(): Row }, what: string) {
  expect(res.statusCode, what).toBe(400);
  const body = res.json();
  expect(body.status).toBe(400);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.message).not.toMatch(/SQL|sqlite|syntax|stack|undefined|null/i);
}

describe('malformed bodies', () => {
  it('every mutating route of the app answers malformed JSON with 400 请求体不是合法的JSON', async () => {
    const routes = t.app.routeTable.filter((r) => r.method !== 'GET');
    expect(routes.length).toBeGreaterThan(20);
    for (const r of routes) {
      const url = r.url.replace(/:[A-Za-z_]+/g, '1');
      const res = await raw(r.method, url, '{"name": "x",');
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(400);
      expect(res.json().message, `${r.method} ${r.url}`).toBe('请求体不是合法的JSON');
    }
  });

  it.each(CREATABLE.map((c) => [c.def.name, c] as const))('POST /api/%s refuses non-objects and wrongly typed fields with 400', async (_n, c) => {
    const url = `/api/${c.def.name}`;
    for (const payload of [[], 'text', 42, null]) expectClear400(await raw('POST', url, JSON.stringify(payload)), `${url} ${JSON.stringify(payload)}`);
    for (const field of writableFields(c.def)) {
      const wrong = wrongValue(field);
      if (wrong === undefined) continue;
      const res = await admin('POST', url, { ...c.body(`wt_${field.name}`), [field.name]: wrong });
      expectClear400(res, `${url} ${field.name}=${JSON.stringify(wrong)}`);
    }
  });
});

/** A value of the wrong type for a field, or undefined when every JSON value is acceptable text. */
function wrongValue(field: FieldDef): unknown {
  switch (field.kind) {
    case 'int':
      return 'abc';
    case 'bool':
      return 'maybe';
    case 'ref':
      return -3;
    case 'string':
    case 'email':
    case 'text':
      return { nested: true };
    default:
      return undefined;
  }
}

/** A request with a raw JSON text body, as the admin. */
function raw(method: string, url: string, payload: string) {
  return t.app.inject({ method: method as 'POST', url, headers: { ...bearer(adminToken), 'content-type': 'application/json' }, payload });
}

describe('paging and sorting input', () => {
  it.each(LISTS)('%s refuses unknown sort fields, bad directions and negative pages; caps size', async (url) => {
    expectClear400(await admin('GET', `${url}?sort=password_hash,asc`), 'unknown sort');
    expectClear400(await admin('GET', `${url}?sort=id;drop table sys_user,asc`), 'sql in sort');
    expectClear400(await admin('GET', `${url}?sort=id,sideways`), 'direction');
    expectClear400(await admin('GET', `${url}?page=-1`), 'page<0');
    expectClear400(await admin('GET', `${url}?page=abc`), 'page abc');
    expectClear400(await admin('GET', `${url}?size=0`), 'size 0');
    const big = await admin('GET', `${url}?size=100000`);
    expect(big.statusCode).toBe(200);
    expect(Object.keys(big.json()).sort()).toEqual(['content', 'totalElements']);
  });

  it('size above 1000 is capped at 1000 rows', async () => {
    const now = nowIso();
    const rows = Array.from({ length: 1005 }, (_, i) => ({ name: `cap_${i}`, remark: 'cap', create_time: now }));
    for (let i = 0; i < rows.length; i += 250) await t.app.ctx.db.insertInto('sys_dict').values(rows.slice(i, i + 250)).execute();
    const res = (await admin('GET', '/api/dict?size=5000&blurry=cap_')).json();
    expect(res.totalElements).toBe(1005);
    expect(res.content).toHaveLength(1000);
    // page 1 of 1000-row pages holds the last 5
    expect((await admin('GET', '/api/dict?size=5000&page=1&blurry=cap_')).json().content).toHaveLength(5);
    await t.app.ctx.db.deleteFrom('sys_dict').where('remark', '=', 'cap').execute();
  });

  it('over-long filter values are refused', async () => {
    expectClear400(await admin('GET', `/api/users?blurry=${'x'.repeat(101)}`), 'blurry');
    expectClear400(await admin('GET', `/api/dept?name=${'x'.repeat(101)}`), 'dept name');
    expectClear400(await admin('GET', `/api/logs?blurry=${'x'.repeat(101)}`), 'logs');
    expectClear400(await admin('GET', '/api/users?enabled=perhaps'), 'bool filter');
    expectClear400(await admin('GET', '/api/job?deptId=abc'), 'ref filter');
  });
});

describe('filters are literal text', () => {
  it.each(CREATABLE.map((c) => [c.def.name, c] as const))('/api/%s: "a%b" finds a%b_c but not axbyc; SQL is just text', async (_n, c) => {
    const url = `/api/${c.def.name}`;
    const suffix = c.def.name.slice(0, 4);
    const literal = (await admin('POST', url, c.body(`a%b_c${suffix}`))).json();
    const lookalike = (await admin('POST', url, c.body(`axbyc${suffix}`))).json();
    expect(literal.id, JSON.stringify(literal)).toBeGreaterThan(0);
    expect(lookalike.id, JSON.stringify(lookalike)).toBeGreaterThan(0);
    const find = async (value: string) => {
      const res = await admin('GET', `${url}?size=1000&${c.search.param}=${encodeURIComponent(value)}`);
      expect(res.statusCode, value).toBe(200);
      const content = res.json().content as Row[];
      const flat = (nodes: Row[]): Row[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);
      return flat(content).map((r) => r.id);
    };
    const ids = await find('a%b');
    expect(ids).toContain(literal.id);
    expect(ids).not.toContain(lookalike.id);
    expect(await find(`b_c${suffix}`)).toEqual([literal.id]);
    expect(await find(`c${suffix}`)).toEqual(expect.arrayContaining([literal.id, lookalike.id]));
    for (const hostile of ["'; DROP TABLE sys_user; --", '" OR 1=1 --', '%', '_', '\\', '!', "a'b"]) {
      const found = await find(hostile);
      if (hostile === '%' || hostile === '_') expect(found).toContain(literal.id);
      else expect(found).toEqual([]);
    }
    expect((await counts(['sys_user']))[0]).toBeGreaterThan(0);
  });

  it('the escape character itself is literal too', async () => {
    const bang = (await admin('POST', '/api/dict', { name: 'x!y', remark: '' })).json();
    const plain = (await admin('POST', '/api/dict', { name: 'xy!', remark: '' })).json();
    const found = (await admin('GET', `/api/dict?name=${encodeURIComponent('x!y')}`)).json().content.map((r: Row) => r.id);
    expect(found).toEqual([bang.id]);
    expect(found).not.toContain(plain.id);
  });

  it('log filters too', async () => {
    const { db, dialect } = t.app.ctx;
    const ids = [];
    for (const d of ['qq-a%b_c-log', 'qq-axbyc-log']) ids.push(await insertReturningId(db, dialect, 'sys_log', { log_type: 'INFO', username: 'x', description: d, create_time: nowIso() }));
    const found = (await admin('GET', `/api/logs?size=1000&blurry=${encodeURIComponent('qq-a%b')}`)).json().content.map((r: Row) => r.id);
    expect(found).toEqual([ids[0]]);
  });
});

describe('writes that must not half-happen', () => {
  it.each(CREATABLE.map((c) => [c.def.name, c] as const))('/api/%s: over-long text is a 400 and writes nothing', async (_n, c) => {
    const before = await counts(c.tables);
    const field = writableFields(c.def).find((f) => ['string', 'text'].includes(f.kind) && f.name !== 'phone')!;
    const res = await admin('POST', `/api/${c.def.name}`, { ...c.body('long_one'), [field.name]: 'x'.repeat(5001) });
    expectClear400(res, field.name);
    expect(await counts(c.tables)).toEqual(before);
  });

  it.each(CREATABLE.filter((c) => c.def.unique?.length).map((c) => [c.def.name, c] as const))('/api/%s: a duplicate is a 409 and writes nothing', async (_n, c) => {
    const first = c.body(`dup_${c.def.name.slice(0, 8)}`);
    expect((await admin('POST', `/api/${c.def.name}`, first)).statusCode).toBe(201);
    const before = await counts(c.tables);
    const res = await admin('POST', `/api/${c.def.name}`, { ...c.body(`dup_${c.def.name.slice(0, 8)}`), ...first, email: first.email });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toMatch(/已存在|已被/);
    expect(await counts(c.tables)).toEqual(before);
  });

  it('a user whose role does not exist is not created at all', async () => {
    const before = await counts(['sys_user', 'sys_users_roles']);
    const res = await admin('POST', '/api/users', newUserBody('half_user', [employeeRole, 987654]));
    expect(res.statusCode).toBe(400);
    expect(await counts(['sys_user', 'sys_users_roles'])).toEqual(before);
  });

  it('ids in paths and batch bodies are validated', async () => {
    for (const bad of ['abc', '-1', '0', '1.5', '99999999999999999999']) {
      expectClear400(await admin('GET', `/api/users/${bad}`), `id ${bad}`);
      expectClear400(await admin('DELETE', `/api/dept/${bad}`), `id ${bad}`);
    }
    expectClear400(await admin('DELETE', '/api/users', []), 'empty batch');
    expectClear400(await admin('DELETE', '/api/menus', ['x']), 'batch of text');
    expectClear400(await admin('DELETE', '/api/roles', { id: 1 }), 'batch not an array');
  });
});
