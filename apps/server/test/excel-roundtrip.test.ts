import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { adminToken, createCompany, createStaff, idCard, multipart, uniq } from './dispatch-fixtures.ts';
import { type Api, api, companyWithStaff, runMonth, vectorStaff } from './payroll-fixtures.ts';

// Issue 14 item 7: for staff, companies and payslips, exporting and importing the unchanged file reports
// 0 inserted, every row updated without a field changed (or unchanged), 0 failed, and the data is identical.

let t: TestApp;
let token: string;
let admin: Api;
beforeAll(async () => {
  t = await createTestApp();
  token = await adminToken(t.app);
  admin = api(t.app, token);
});
afterAll(async () => {
  await t?.close();
});

async function exportFile(url: string): Promise<Buffer> {
  const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}
async function importFile(resource: string, file: Buffer) {
  const mp = multipart(file, 'export.xlsx');
  const res = await t.app.inject({ method: 'POST', url: `/api/import/${resource}`, headers: { ...bearer(token), ...mp.headers }, payload: mp.payload });
  return { status: res.statusCode, body: res.json() };
}
// update_time moves on an update that changes nothing; everything else must stay as it was
const withoutTimes = (rows: Record<string, unknown>[]) => rows.map(({ update_time: _u, ...r }) => r);

describe('export → import round trip (item 7)', () => {
  it('staff', async () => {
    const c = await createCompany(t.app, token, { companyName: uniq('往返单位') });
    await createStaff(t.app, token, c.id, { staffName: '往返甲', idCard: idCard('1989-07-08', 71), censusType: 'bennong_24', bankcardNumber: '6222020200112233445' });
    await createStaff(t.app, token, c.id, { staffName: '往返乙', idCard: idCard('1989-07-08', 73), leaveDate: '2026-01-31' });
    const read = async () => withoutTimes(await t.app.ctx.db.selectFrom('accounts_staff').selectAll().where('company_id', '=', c.id).orderBy('id').execute());
    const before = await read();
    expect(before).toHaveLength(2);
    const res = await importFile('accountsStaff', await exportFile(`/api/export/accountsStaff?companyId=${c.id}`));
    expect(res).toMatchObject({ status: 200, body: { total: 2, inserted: 0, updated: 2, failed: 0, errors: [] } });
    expect(await read()).toEqual(before);
  });

  it('companies', async () => {
    const name = uniq('往返公司');
    await createCompany(t.app, token, { companyName: name });
    const read = async () => withoutTimes(await t.app.ctx.db.selectFrom('accounts_company').selectAll().where('company_name', '=', name).execute());
    const before = await read();
    const file = await exportFile(`/api/export/accountsCompany?companyName=${encodeURIComponent(name)}`);
    const res = await importFile('accountsCompany', file);
    expect(res).toMatchObject({ status: 200, body: { total: 1, inserted: 0, updated: 1, failed: 0, errors: [] } });
    expect(await read()).toEqual(before);
  });

  it('payslips', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(9000, { staffName: '往返丙', salaryBank: '中国银行', bankcardNumber: '6216600000000099' }), vectorStaff(3000, { staffName: '往返丁' })]);
    const month = '2026-09';
    await runMonth(admin, company.id, month, (r) => [{ id: r[0].id, jiaban: 123.45, koukuan: 10 }]);
    expect((await admin('POST', '/api/acPayslip/generate', { companyId: company.id, month })).status).toBe(200);
    const read = async () => await t.app.ctx.db.selectFrom('ac_payslip').selectAll().where('month', '=', month).orderBy('id').execute();
    const before = await read();
    expect(before).toHaveLength(2);
    const res = await importFile('acPayslip', await exportFile(`/api/export/acPayslipAll?month=${month}`));
    expect(res).toMatchObject({ status: 200, body: { total: 2, inserted: 0, updated: 0, unchanged: 2, failed: 0 } });
    expect(await read()).toEqual(before);
  });
});
