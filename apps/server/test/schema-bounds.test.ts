import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DB, type TestApp } from './helpers.ts';
import { adminCaller, type Caller } from './system-fixtures.ts';

/**
 * Finding S3: bad input is a 400 from the route schemas, never a database error (500). Ids and integers stay
 * within what every database stores (1..2^31-1), NUL characters never reach a query, objects are never taken
 * for ids and numbers in exponent form are refused where integers are expected.
 */

let t: TestApp;
let admin: Caller;
beforeAll(async () => {
  t = await createTestApp();
  admin = await adminCaller(t);
});
afterAll(async () => {
  await t.close();
});

const ID_CARD = '11010519491231002X';
const raw = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload: string) => admin(method, url, JSON.parse(payload));

function expect400(res: { statusCode: number; json(): Record<string, unknown> }, what: string) {
  expect(res.statusCode, `${what}: ${res.statusCode} ${res.json()?.message}`).toBe(400);
  const body = res.json();
  expect(body.status).toBe(400);
  expect(typeof body.message).toBe('string');
  expect(body.timestamp).toBeTruthy();
}

describe(`route schemas refuse what the database cannot store (${TEST_DB})`, () => {
  it('ids in paths above 2^31-1, in exponent form or not numbers', async () => {
    for (const id of ['2147483648', '99999999999999999999', '1e3', '-1', '0', 'abc', '1.5']) {
      const res = await admin('GET', `/api/users/${id}`);
      expect400(res, `GET /api/users/${id}`);
      expect(res.json().message).toBe('ID必须是正整数');
      expect400(await admin('DELETE', `/api/accEntry/${id}`), `DELETE /api/accEntry/${id}`);
    }
    expect((await admin('GET', '/api/users/2147483647')).statusCode).toBe(404);
  });

  it('NUL characters in filters, in lists and in streamed exports (checked before the first byte)', async () => {
    for (const url of ['/api/accEntry?name=%00', '/api/accountsStaff?staffName=a%00b', '/api/users?blurry=%00', '/api/export/accountsStaff?staffName=%00', '/api/export/accountsCompany?companyName=%00']) {
      const res = await admin('GET', url);
      expect400(res, url);
      expect(res.headers['content-type']).toMatch(/json/);
    }
    expect400(await admin('POST', '/api/export/accountsStaff', { staffName: '\u0000' }), 'POST export');
    expect400(await admin('GET', '/api/accountsStaff?companyId=2147483648'), 'ref filter');
    expect400(await admin('GET', '/api/accountsStaff?companyId=1e%2B308'), 'ref filter exponent');
  });

  it('NUL characters in texts that are written', async () => {
    const res = await admin('POST', '/api/accEntry', { name: 'a\u0000b', idCard: ID_CARD });
    expect400(res, 'POST /api/accEntry');
    expect(res.json().fieldErrors).toMatchObject({ name: '姓名不能包含空字符' });
  });

  it('integers above 2^31-1 and references as objects, exponents or huge numbers', async () => {
    const social = (await admin('POST', '/api/accSocial', { name: '张三', idCard: ID_CARD, years: 3 })).json();
    expect(social.id).toBeGreaterThan(0);
    const years = await raw('PUT', '/api/accSocial', JSON.stringify({ ...social, years: 2147483648 }));
    expect400(years, 'PUT /api/accSocial years');
    expect(years.json().fieldErrors).toEqual({ years: '缴费年限不能大于2147483647' });
    expect400(await raw('PUT', '/api/accSocial', JSON.stringify({ ...social, id: 2147483648 })), 'PUT id');
    expect400(await raw('PUT', '/api/accSocial', JSON.stringify({ ...social, id: { toString: 'x' } })), 'PUT id object');

    for (const companyId of ['{"toString":"x"}', '1e+308', '2147483648', '[1]', 'true']) {
      const res = await raw('POST', '/api/accountsStaff', `{"companyId":${companyId},"staffName":"李四"}`);
      expect400(res, `companyId ${companyId}`);
      expect(res.json().fieldErrors.companyId).toBe('所属单位无效');
    }
    expect400(await raw('POST', '/api/users', '{"username":"bounds","roles":[{"id":1e308}]}'), 'roles 1e308');
    expect400(await raw('POST', '/api/roles', '{"name":"bounds","level":3,"dataScope":"自定义","depts":[{"id":2147483648}]}'), 'role depts');
    expect400(await raw('DELETE', '/api/accEntry', '[2147483648]'), 'bulk delete');
    expect400(await raw('DELETE', '/api/accEntry', '[{"toString":"x"}]'), 'bulk delete object');
  });
});
