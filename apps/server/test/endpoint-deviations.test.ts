import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DEV_ADMIN_PASSWORD, login, type TestApp } from './helpers.ts';

/**
 * Calls of the spec answered the way the spec and the reference web client send them (findings E1, E4):
 * bodiless POST exports and template downloads, and the staff import on the spec's upload-host path.
 */

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
});
afterAll(async () => {
  await t.close();
});

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('bodiless POST exports and downloads (E1)', () => {
  for (const url of ['/api/export/accountsCompany', '/api/export/accountsStaff?companyId=1', '/api/download/accountsCompany', '/api/download/accountsStaff']) {
    it(`${url} with no body at all`, async () => {
      const res = await t.app.inject({ method: 'POST', url, headers: bearer(token) });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(res.headers['content-type']).toContain(XLSX_TYPE);
    });
    it(`${url} with a JSON content type and an empty body`, async () => {
      const res = await t.app.inject({ method: 'POST', url, headers: { ...bearer(token), 'content-type': 'application/json' }, payload: '' });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    });
    it(`${url} with the JSON null the reference client may send`, async () => {
      const res = await t.app.inject({ method: 'POST', url, headers: { ...bearer(token), 'content-type': 'application/json' }, payload: 'null' });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    });
  }

  it('a body with filters still filters, and a wrong one is still a 400', async () => {
    const ok = await t.app.inject({ method: 'POST', url: '/api/export/accountsCompany', headers: bearer(token), payload: { companyName: 'nothing like this' } });
    expect(ok.statusCode).toBe(200);
    const bad = await t.app.inject({ method: 'POST', url: '/api/export/accountsCompany', headers: bearer(token), payload: { size: 'many' } });
    expect(bad.statusCode).toBe(400);
  });
});

describe("the staff import on the spec's upload-host path (E4)", () => {
  it('POST /accounts/api/import/accountsStaff answers like /api/import/accountsStaff', async () => {
    for (const url of ['/api/import/accountsStaff', '/accounts/api/import/accountsStaff']) {
      // no file: the same clear 400 from the same handler, not a 404
      const res = await t.app.inject({ method: 'POST', url, headers: { ...bearer(token), 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--\r\n' });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code, url).not.toBe('API_NOT_FOUND');
    }
  });
  it('needs the import permission like the original path', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/accounts/api/import/accountsStaff', payload: '' });
    expect(res.statusCode).toBe(401);
  });
});

describe('入职记录 是否转正 is free text (E4)', () => {
  it('accepts 是, 否 and a note, and reads them back as typed', async () => {
    for (const isRegular of ['是', '否', '试用期至2027-03']) {
      const created = await t.app.inject({ method: 'POST', url: '/api/accEntry', headers: bearer(token), payload: { name: '张三', idCard: '110101199003077777', isRegular } });
      expect(created.statusCode, created.body).toBe(201);
      const list = await t.app.inject({ method: 'GET', url: `/api/accEntry?name=${encodeURIComponent('张三')}&size=50`, headers: bearer(token) });
      expect(list.json().content.map((r: { isRegular: string }) => r.isRegular)).toContain(isRegular);
    }
    const tooLong = await t.app.inject({ method: 'POST', url: '/api/accEntry', headers: bearer(token), payload: { name: '张三', isRegular: 'x'.repeat(21) } });
    expect(tooLong.statusCode).toBe(400);
  });

  it('the migration turns stored 1/0 into 是/否', async () => {
    const { openThrowawayDatabase } = await import('./throwawayDatabase.ts');
    const { MIGRATIONS, migrateToLatest } = await import('../migrations/index.ts');
    const { TEST_DB } = await import('./helpers.ts');
    const url = TEST_DB === 'postgres' ? process.env.TEST_PG_URL : TEST_DB === 'mysql' ? process.env.TEST_MYSQL_URL : undefined;
    const { database, drop } = await openThrowawayDatabase(TEST_DB, url, { sqliteInMemory: true });
    try {
      const before = MIGRATIONS.slice(0, MIGRATIONS.findIndex(([name]) => name === '0025_entry_is_regular_text'));
      await migrateToLatest(database.db, database.dialect, before);
      const { sql } = await import('kysely');
      await sql`insert into acc_entry (name, is_regular) values ('a', 1), ('b', 0), ('c', null)`.execute(database.db);
      await migrateToLatest(database.db, database.dialect);
      const rows = await sql<{ name: string; is_regular: string | null }>`select name, is_regular from acc_entry order by name`.execute(database.db);
      expect(rows.rows.map((r) => [r.name, r.is_regular])).toEqual([
        ['a', '是'],
        ['b', '否'],
        ['c', null],
      ]);
    } finally {
      await drop();
    }
  });
});
