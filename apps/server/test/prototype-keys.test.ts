import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, type TestApp } from './helpers.ts';
import { caller, type Caller } from './system-fixtures.ts';
import { multipart, workbook } from './dispatch-fixtures.ts';

/**
 * Names that are properties of every plain object (E6: `GET /api/dictDetail/map?dictName=__proto__` was a 500,
 * a name looked up on `{}`): wherever a request names a dictionary, a sort field, a filter, a cache key, an
 * import column or a language, these answer 2xx or 4xx, never 500.
 */

const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

let t: TestApp;
let admin: Caller;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
  admin = caller(t, token);
});
afterAll(async () => {
  await t?.close();
});

const notServerError = (what: string, res: { statusCode: number; body: string }) => expect(res.statusCode, `${what}: ${res.body.slice(0, 300)}`).toBeLessThan(500);

describe('prototype property names from requests', () => {
  it('dictionary map: unknown names are empty lists, keyed as asked', async () => {
    for (const name of PROTO_NAMES) {
      const res = await admin('GET', `/api/dictDetail/map?dictName=${encodeURIComponent(name)},user_status`);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
      const body = JSON.parse(res.body);
      // the response schema (a zod record) builds a plain object, which cannot hold a `__proto__` key: that
      // one unknown dictionary is left out rather than given a list
      if (name !== '__proto__') expect(Object.hasOwn(body, name) && body[name], name).toEqual([]);
      expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
      expect(Array.isArray(body.user_status)).toBe(true);
    }
  });

  it('dictionary map: a name in another case is not a 500 (MariaDB compares without case)', async () => {
    const res = await admin('GET', '/api/dictDetail/map?dictName=USER_STATUS');
    expect(res.statusCode, res.body).toBe(200);
  });

  it('sort fields and filter keys of lists', async () => {
    const lists = ['/api/accountsStaff', '/api/accountsCompany', '/api/users', '/api/dict', '/api/dictDetail', '/api/logs', '/api/logs/error', '/api/jobs', '/api/qiNiuContent', '/api/pictures', '/api/monitor/sql'];
    for (const url of lists) {
      for (const name of PROTO_NAMES) {
        const n = encodeURIComponent(name);
        notServerError(`${url} sort=${name}`, await admin('GET', `${url}?sort=${n},desc`));
        notServerError(`${url} sort=${name} bare`, await admin('GET', `${url}?sort=${n}`));
        notServerError(`${url} filter ${name}`, await admin('GET', `${url}?${n}=1&${n}=2`));
        notServerError(`${url} key/name/blurry ${name}`, await admin('GET', `${url}?blurry=${n}&name=${n}&key=${n}`));
      }
    }
  });

  it('cache keys and namespaces', async () => {
    for (const name of PROTO_NAMES) {
      notServerError(`list ${name}`, await admin('GET', `/api/redis?key=${encodeURIComponent(name)}&namespace=${encodeURIComponent(name)}`));
      notServerError(`delete key ${name}`, await admin('DELETE', '/api/redis', { key: name }));
      notServerError(`delete key ${name}:x`, await admin('DELETE', '/api/redis', { key: `${name}:x` }));
      notServerError(`delete namespace ${name}`, await admin('DELETE', '/api/redis', { namespace: name }));
    }
  });

  it('import headers and form fields', async () => {
    for (const resource of ['accountsStaff', 'accountsCompany', 'acPayslip', 'taxOpening']) {
      const file = workbook([[...PROTO_NAMES, '姓名'], [...PROTO_NAMES.map(() => 'x'), '甲']]);
      const fields = Object.fromEntries(PROTO_NAMES.map((n) => [n, 'x']));
      const mp = multipart(file, 'proto.xlsx', fields);
      const res = await t.app.inject({ method: 'POST', url: `/api/import/${resource}`, headers: { ...bearer(token), ...mp.headers }, payload: mp.payload });
      notServerError(`import ${resource}`, res);
      // the file was read: the answer is about its columns, not about the request
      expect(res.statusCode, res.body).not.toBe(401);
    }
  });

  it('language header', async () => {
    for (const name of PROTO_NAMES) {
      for (const url of ['/api/nope', '/api/dictDetail/map', '/api/accountsStaff?sort=nope']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { ...bearer(token), 'accept-language': name } });
        notServerError(`${url} accept-language ${name}`, res);
        expect(res.json().message, url).toBeTruthy();
      }
    }
  });

  it('generator table and job handler names', async () => {
    for (const name of PROTO_NAMES) {
      notServerError(`generator ${name}`, await admin('GET', `/api/generator/columns?tableName=${encodeURIComponent(name)}`));
      notServerError(`job ${name}`, await admin('POST', '/api/jobs', { jobName: 'x', beanName: name, methodName: name, cronExpression: '0 0 1 * * ?', description: 'x', personInCharge: 'x' }));
    }
  });
});
