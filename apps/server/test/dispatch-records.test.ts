import { describe, expect, it } from 'vitest';
import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { HR_RECORD_RESOURCES } from '@app/shared/resources/hrRecords';
import { staffExtraResource } from '@app/shared/resources/staffExtra';
import { RESOURCES } from '@app/shared/resources/index';
import { adminApp, bearer } from './helpers.ts';
import { createCompany, createStaff, idCard, scopedUser, uniq } from './dispatch-fixtures.ts';

const session = adminApp();

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, tk = session.token) =>
  session.app.inject({ method, url, headers: bearer(tk), payload: payload as never });

/** A valid value of a field, distinct per `n`. */
function sample(f: FieldDef, n: number, tag: string): unknown {
  switch (f.kind) {
    case 'date':
      return `2024-0${(n % 9) + 1}-1${n % 10}`;
    case 'month':
      return `2024-0${(n % 9) + 1}`;
    case 'money':
      return 1000 + n + 0.25;
    case 'ratio':
      return 0.12;
    case 'int':
      return n + 1;
    case 'bool':
      return n % 2 === 0;
    case 'ref':
      return undefined;
    default:
      return f.name === 'idCard' || f.name === 'staffIdCard' ? idCard('1990-01-01', n * 2 + 1) : `${tag}${f.label}${n}`.slice(0, f.maxLength ?? 50);
  }
}
const writable = (def: ResourceDef) => def.fields.filter((f) => !f.readOnly && f.name !== 'id');

describe.each(HR_RECORD_RESOURCES.map((d) => [d.name, d as ResourceDef] as const))('%s', (name, def) => {
  it('is registered with its definition (permission, search fields, field chooser)', () => {
    expect(RESOURCES[name]).toBe(def);
    expect(def.searchMode).toBe('fieldChooser');
    expect(def.fields.filter((f) => f.search).every((f) => f.filter)).toBe(true);
    expect(def.fields.some((f) => f.required)).toBe(false);
  });

  it('creates (201), lists with paging and each search field, updates (204), reads, deletes (200) and 404s', async () => {
    const tag = uniq('T');
    const rows = [];
    for (let n = 0; n < 3; n++) {
      const body = Object.fromEntries(writable(def).map((f) => [f.name, sample(f, n, tag)]));
      const res = await api('POST', `/api/${name}`, body);
      expect(res.statusCode, res.body).toBe(201);
      const row = res.json();
      for (const f of writable(def)) expect(row[f.name]).toEqual(body[f.name]);
      rows.push(row);
    }
    for (const f of def.fields.filter((x) => x.search)) {
      const q = String(rows[1][f.name]);
      const res = await api('GET', `/api/${name}?${f.name}=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().content.map((r: { id: number }) => r.id)).toContain(rows[1].id);
      expect(res.json().content.map((r: { id: number }) => r.id)).not.toContain(rows[0].id);
    }
    const firstField = def.fields.find((x) => x.search)!;
    const page = await api('GET', `/api/${name}?${firstField.name}=${encodeURIComponent(tag)}&page=1&size=2&sort=id,asc`);
    expect(page.json().totalElements).toBe(3);
    expect(page.json().content.map((r: { id: number }) => r.id)).toEqual([rows[2].id]);
    const put = await api('PUT', `/api/${name}`, { ...rows[0], [firstField.name]: `${tag}改` });
    expect(put.statusCode).toBe(204);
    expect((await api('GET', `/api/${name}/${rows[0].id}`)).json()[firstField.name]).toBe(`${tag}改`);
    expect((await api('DELETE', `/api/${name}/${rows[0].id}`)).statusCode).toBe(200);
    expect((await api('GET', `/api/${name}/${rows[0].id}`)).statusCode).toBe(404);
    expect((await api('DELETE', `/api/${name}`, [rows[1].id, rows[2].id])).statusCode).toBe(200);
  });

  it('refuses a row naming nobody (姓名 or 身份证号, on create and update) and checks types', async () => {
    for (const blank of [{}, { name: '  ', idCard: '' }]) {
      const res = await api('POST', `/api/${name}`, blank);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe('请至少填写姓名或身份证号');
      expect(res.json().fieldErrors).toMatchObject({ name: '请至少填写姓名或身份证号', idCard: '请至少填写姓名或身份证号' });
    }
    const onlyName = await api('POST', `/api/${name}`, { name: uniq('N') });
    expect(onlyName.statusCode, onlyName.body).toBe(201);
    expect((await api('POST', `/api/${name}`, { idCard: idCard('1990-01-01', 7) })).statusCode).toBe(201);
    const cleared = await api('PUT', `/api/${name}`, { ...(onlyName.json() as object), name: '' });
    expect(cleared.statusCode, cleared.body).toBe(400);
    expect(cleared.json().message).toBe('请至少填写姓名或身份证号');
    const dated = writable(def).find((f) => f.kind === 'date' || f.kind === 'month' || f.kind === 'money' || f.kind === 'int');
    if (dated) {
      const res = await api('POST', `/api/${name}`, { name: 'x', [dated.name]: 'abc' });
      expect(res.statusCode).toBe(400);
      expect(res.json().fieldErrors[dated.name]).toContain(dated.label);
    }
  });

  it('needs its own permission codes', async () => {
    const u = await scopedUser(session.app, { username: uniq('hr'), codes: [`${def.permission}_SELECT`], dataScope: '全部' });
    expect((await api('GET', `/api/${name}`, undefined, u.token)).statusCode).toBe(200);
    expect((await api('POST', `/api/${name}`, {}, u.token)).statusCode).toBe(403);
    const other = await scopedUser(session.app, { username: uniq('hr'), codes: ['ACCOUNTSSTAFF_ALL'], dataScope: '全部' });
    expect((await api('GET', `/api/${name}`, undefined, other.token)).statusCode).toBe(403);
  });
});

describe('accountsStaffExtra', () => {
  it('takes name, company and phone from the staff record, filters by id, ID card, name, company, phone and month', async () => {
    const c = await createCompany(session.app, session.token);
    const c2 = await createCompany(session.app, session.token);
    const card = idCard('1993-03-03', 33);
    await createStaff(session.app, session.token, c.id, { idCard: card, staffName: '加班员工', phone: '13611112222' });
    const body = { staffIdCard: card, staffName: '随便写', staffCompanyId: c.id, month: '2025-06', jiaban: 300.5, koukuan: 20 };
    const res = await api('POST', '/api/accountsStaffExtra', body);
    expect(res.statusCode).toBe(201);
    const row = res.json();
    expect(row).toMatchObject({ ...body, staffName: '加班员工', staffCompany: c.companyName, phone: '13611112222' });
    // without a company: the one staff record with the ID card gives it
    const other = (await api('POST', '/api/accountsStaffExtra', { staffIdCard: card.toLowerCase(), month: '2025-07', koukuan: 5 })).json();
    expect(other).toMatchObject({ staffIdCard: card, staffCompanyId: c.id, staffCompany: c.companyName });
    const q = async (qs: string) => (await api('GET', `/api/accountsStaffExtra?${qs}`)).json().content.map((r: { id: number }) => r.id);
    expect(await q(`id=${row.id}`)).toEqual([row.id]);
    expect(await q(`staffCompanyId=${c.id}&sort=id,asc`)).toEqual([row.id, other.id]);
    expect(await q(`staffIdCard=${body.staffIdCard}&sort=id,asc`)).toEqual([row.id, other.id]);
    expect(await q(`staffIdCard=${body.staffIdCard}&month=2025-07`)).toEqual([other.id]);
    expect(await q(`staffCompany=${encodeURIComponent(c.companyName)}&sort=id,asc`)).toEqual([row.id, other.id]);
    expect(await q(`staffName=${encodeURIComponent('加班')}&phone=1361111&sort=id,asc`)).toEqual([row.id, other.id]);
    const bad = await api('POST', '/api/accountsStaffExtra', { ...body, staffCompanyId: 999999 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors.staffCompanyId).toBe('单位不存在或无权访问');
    // the company has no staff with the ID card; an ID card nobody has
    const elsewhere = await api('POST', '/api/accountsStaffExtra', { ...body, staffCompanyId: c2.id });
    expect(elsewhere.json()).toMatchObject({ status: 400, fieldErrors: { staffIdCard: `“${c2.companyName}”没有身份证号为${card}的员工` }, fieldErrorCodes: { staffIdCard: 'STAFF_EXTRA_STAFF_NOT_AT_COMPANY' } });
    const nobody = await api('POST', '/api/accountsStaffExtra', { ...body, staffIdCard: idCard('1993-03-03', 35) });
    expect(nobody.json().fieldErrorCodes).toEqual({ staffIdCard: 'TAX_INPUT_STAFF_UNKNOWN' });
    // U7: an empty dialog, and a person and month without an amount, are refused
    const empty = await api('POST', '/api/accountsStaffExtra', {});
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json().fieldErrors)).toEqual(expect.arrayContaining(['staffIdCard', 'month']));
    const noAmount = await api('POST', '/api/accountsStaffExtra', { staffIdCard: card, staffCompanyId: c.id, month: '2025-08' });
    expect(noAmount.json()).toMatchObject({ status: 400, fieldErrors: { jiaban: '请填写加班费或扣款' }, fieldErrorCodes: { jiaban: 'STAFF_EXTRA_EMPTY' } });
    const english = await session.app.inject({ method: 'POST', url: '/api/accountsStaffExtra', headers: { ...bearer(session.token), 'accept-language': 'en' }, payload: { staffIdCard: card, staffCompanyId: c.id, month: '2025-08', jiaban: null } });
    expect(english.json().fieldErrors.jiaban).toBe('Please enter the overtime pay or the deduction');
    expect((await api('POST', '/api/accountsStaffExtra', { ...body, month: '2025-13' })).json().fieldErrors.month).toBe('月份格式应为YYYY-MM');
    expect((await api('PUT', '/api/accountsStaffExtra', { ...row, jiaban: 400 })).statusCode).toBe(204);
    expect((await api('GET', `/api/accountsStaffExtra/${row.id}`)).json().jiaban).toBe(400);
    // an edit that empties both amounts is refused like an empty row
    expect((await api('PUT', '/api/accountsStaffExtra', { ...row, jiaban: null, koukuan: null })).statusCode).toBe(400);
    expect(staffExtraResource.searchMode).toBe('fieldChooser');
  });
});
