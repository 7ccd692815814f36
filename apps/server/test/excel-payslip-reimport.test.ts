import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, multipart, sheetRows, workbook } from './dispatch-fixtures.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { type Api, api, companyWithStaff, runMonth, vectorStaff } from './payroll-fixtures.ts';

// Issue 14 X6: re-importing a payslip export updates the same payslips. The imported row replaces the generated
// one of the same month and ID card (listed in the operation log), a row equal to its payslip is unchanged,
// regeneration keeps the imported payslip, and an employee never sees two payslips for one month.

let t: TestApp;
let admin: Api;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await adminToken(t.app);
  admin = api(t.app, token);
});
afterAll(async () => {
  await t?.close();
});

async function importFile(file: Buffer) {
  const mp = multipart(file, 'payslips.xlsx');
  const res = await t.app.inject({ method: 'POST', url: '/api/import/acPayslip', headers: { ...mp.headers, authorization: `Bearer ${token}` }, payload: mp.payload });
  return { status: res.statusCode, body: res.json() };
}
async function exportMonth(month: string): Promise<Buffer> {
  const res = await t.app.inject({ method: 'GET', url: `/api/export/acPayslipAll?month=${month}`, headers: { authorization: `Bearer ${token}` } });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}
const slipsOf = async (month: string) => (await admin('GET', `/api/acPayslip?month=${month}&size=100&sort=idCard,asc`)).body.content as Record<string, any>[];

describe('payslip re-import (X6)', () => {
  it('export → import unchanged is a no-op; a corrected cell replaces the generated payslip; regeneration keeps it', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [
      vectorStaff(8000, { staffName: '重导甲', salaryBank: '中国银行', bankcardNumber: '6216600000000011' }),
      vectorStaff(6000, { staffName: '重导乙' }),
    ]);
    const month = '2026-05';
    await runMonth(admin, company.id, month, (r) => [{ id: r[0].id, jiaban: 300 }]);
    expect((await admin('POST', '/api/acPayslip/generate', { companyId: company.id, month })).status).toBe(200);
    const before = await slipsOf(month);
    expect(before).toHaveLength(2);

    // unchanged file: nothing inserted, nothing written, the data identical
    const file = await exportMonth(month);
    const same = await importFile(file);
    expect(same).toMatchObject({ status: 200, body: { total: 2, inserted: 0, updated: 0, unchanged: 2, failed: 0 } });
    expect(await slipsOf(month)).toEqual(before);

    // one cell fixed: the same payslip is updated, now imported; the other is untouched
    const rows = sheetRows(file);
    const header = rows[0] as string[];
    const shifa = header.indexOf('实发');
    const idCol = header.indexOf('身份证号');
    const target = rows.findIndex((r, i) => i > 0 && r[idCol] === staff[0].idCard);
    rows[target][shifa] = 1234.56;
    const fixed = await importFile(workbook(rows));
    expect(fixed).toMatchObject({ status: 200, body: { total: 2, inserted: 0, updated: 1, unchanged: 1, replaced: 1 } });
    const after = await slipsOf(month);
    expect(after).toHaveLength(2);
    const mine = after.find((p) => p.idCard === staff[0].idCard);
    const old = before.find((p) => p.idCard === staff[0].idCard);
    expect(mine).toMatchObject({ id: old?.id, shifa: 1234.56, source: '导入', bank: '中国银行', bankNumber: '6216600000000011' });
    expect(after.find((p) => p.idCard === staff[1].idCard)).toEqual(before.find((p) => p.idCard === staff[1].idCard));
    const log = await t.app.ctx.db.selectFrom('sys_log').select(['description', 'params']).where('description', 'like', '导入工资条：替换%').execute();
    expect(log.some((l) => String(l.params).includes(staff[0].idCard) && !String(l.params).includes(staff[1].idCard))).toBe(true);

    // regeneration replaces the generated payslip only; the imported one stays, still one per person
    expect((await admin('POST', '/api/acPayslip/generate', { companyId: company.id, month })).status).toBe(200);
    const regenerated = await slipsOf(month);
    expect(regenerated).toHaveLength(2);
    expect(regenerated.find((p) => p.idCard === staff[0].idCard)).toMatchObject({ id: old?.id, shifa: 1234.56, source: '导入' });

    // the same fixed file again: unchanged
    expect(await importFile(workbook(rows))).toMatchObject({ status: 200, body: { inserted: 0, updated: 0, unchanged: 2 } });
  });

  it('a person with two payslips that month: 名称 picks the one, otherwise the row is refused and nothing is written', async () => {
    const person = vectorStaff(7000, { staffName: '两单位' });
    const a = await companyWithStaff(t.app, token, [person], { companyName: '重导单位A' });
    const b = await companyWithStaff(t.app, token, [{ ...person }], { companyName: '重导单位B' });
    const month = '2026-06';
    for (const c of [a, b]) {
      await runMonth(admin, c.company.id, month);
      expect((await admin('POST', '/api/acPayslip/generate', { companyId: c.company.id, month })).status).toBe(200);
    }
    const before = await slipsOf(month);
    expect(before.filter((p) => p.idCard === person.idCard)).toHaveLength(2);
    const rows = sheetRows(await exportMonth(month));
    const header = rows[0] as string[];
    const shifa = header.indexOf('实发');
    const name = header.indexOf('名称');
    const rowB = rows.findIndex((r) => r[name] === '重导单位B');
    rows[rowB][shifa] = 99;
    // the two rows name their company: the right payslip is updated
    const ok = await importFile(workbook([header, rows[rowB]]));
    expect(ok).toMatchObject({ status: 200, body: { inserted: 0, updated: 1 } });
    const after = await slipsOf(month);
    expect(after.filter((p) => p.idCard === person.idCard)).toHaveLength(2);
    expect(after.find((p) => p.mingcheng === '重导单位B')?.shifa).toBe(99);
    // without 名称 the row cannot be matched: refused with the reason, nothing written
    rows[rowB][name] = null;
    rows[rowB][shifa] = 98;
    const refused = await importFile(workbook([header, rows[rowB]]));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(`第2行“身份证号”：${person.idCard}在${month}已有2条工资条`);
    expect(refused.body.message).toContain('重导单位A、重导单位B');
    expect(await slipsOf(month)).toEqual(after);
  });
});
