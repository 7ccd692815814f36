import { describe, expect, it } from 'vitest';
import type { TestApp } from './helpers.ts';
import { createStaff } from './dispatch-fixtures.ts';
import { type Api, companyWithStaff, salaryRows, vectorStaff, withAdminApp } from './payroll-fixtures.ts';

// Finding P5: 生成 again used to wipe a clerk's hand-edited 加班费/扣款 and hand-added rows. Generating a month
// again merges: hand work stays, new workers are added, workers no longer payable are removed, bases are
// refreshed, and the answer says what changed.

let t: TestApp;
let call: Api;
let token: string;

withAdminApp((s) => {
  ({ t, call, token } = s);
});

const generate = (companyId: number, month: string) => call('POST', '/api/accountsSalary/generator', { companyId, month });
// A hand-added row carries what the staff record would give it (census type and personal ratios).
const MANUAL_RATES = { censusType: 'bencheng', yanglaoRatioSelf: 0.08, yiliaoRatioSelf: 0.02, shiyeRatioSelf: 0.005, gjjRatio: 0.12 };
const byName = (rows: Record<string, any>[]) => Object.fromEntries(rows.map((r) => [r.staffName, r]));

describe('P5: generating a month again keeps the clerk’s work', () => {
  it('keeps hand-edited overtime and hand-added rows, adds joiners, removes leavers, refreshes bases', async () => {
    const month = '2025-10';
    const { company, staff } = await companyWithStaff(t.app, token, [
      vectorStaff(8000, { staffName: '甲' }),
      vectorStaff(9000, { staffName: '乙' }),
      vectorStaff(7000, { staffName: '丙' }),
    ]);
    const [jia, yi, bing] = staff;
    const first = await generate(company.id, month);
    expect(first).toMatchObject({ status: 200, body: { message: '生成成功，共3条', total: 3, regenerated: false } });
    let rows = byName(await salaryRows(call, company.id, month));

    // The clerk's work: 甲's overtime and deduction typed in, a row added by hand for a worker not on the roster.
    expect((await call('PUT', '/api/accountsSalary', { id: rows['甲'].id, jiaban: 777, koukuan: 12.34 })).status).toBe(204);
    const manual = await call('POST', '/api/accountsSalary', { ...vectorStaff(6000, { staffName: '手工' }), ...MANUAL_RATES, companyId: company.id, month, jiaban: 50 });
    expect(manual.status).toBe(201);

    // Meanwhile the roster changed: 乙's base salary raised, 丙 left, 丁 joined, and an overtime row for 乙 and
    // for 甲 arrived from the staff-extra screen (甲's hand edit wins over it).
    expect((await call('PUT', '/api/accountsStaff', { ...yi, salary: 9500, yanglaoBase: 9500 })).status).toBe(204);
    expect((await call('PUT', '/api/accountsStaff', { ...bing, jobState: '离职', leaveDate: '2025-09-30' })).status).toBe(204);
    await createStaff(t.app, token, company.id, vectorStaff(6500, { staffName: '丁' }));
    for (const extra of [
      { staffIdCard: yi.idCard, jiaban: 300, koukuan: 0 },
      { staffIdCard: jia.idCard, jiaban: 1, koukuan: 1 },
    ]) {
      expect((await call('POST', '/api/accountsStaffExtra', { staffCompanyId: company.id, month, ...extra })).status).toBe(201);
    }

    const summary = await call('GET', `/api/accountsSalary/summary?companyId=${company.id}&month=${month}`);
    expect(summary).toMatchObject({ status: 200, body: { rows: 4, calculated: 1, editedRows: 1, manualRows: 1, confirmed: false } });
    const again = await generate(company.id, month);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ total: 4, regenerated: true, added: 1, removed: 1, keptEdits: 1, keptManualRows: 1 });
    expect(again.body.message).toBe('生成成功，共4条：新增1人，移除1人，保留人工修改1条，保留手工添加1条');

    rows = byName(await salaryRows(call, company.id, month));
    expect(Object.keys(rows).sort()).toEqual(['丁', '乙', '手工', '甲'].sort());
    expect(rows['甲']).toMatchObject({ jiaban: 777, koukuan: 12.34, adjustEdited: true, origin: 'generated', calculated: false });
    expect(rows['乙']).toMatchObject({ salary: 9500, yanglaoBase: 9500, jiaban: 300, koukuan: 0, adjustEdited: false });
    expect(rows['丁']).toMatchObject({ salary: 6500, jiaban: 0, origin: 'generated' });
    expect(rows['手工']).toMatchObject({ origin: 'manual', salary: 6000, jiaban: 50, idCard: manual.body.idCard });

    // A third generate with nothing changed keeps everything and says so.
    const third = await generate(company.id, month);
    expect(third.body.message).toBe('生成成功，共4条：新增0人，移除0人，保留人工修改1条，保留手工添加1条');
    expect(byName(await salaryRows(call, company.id, month))['甲']).toMatchObject({ jiaban: 777, koukuan: 12.34 });

    // The kept amounts are paid: calculate and confirm use them (8000 + 777 - 12.34 before tax and insurance).
    const calc = await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month });
    expect(calc.status, JSON.stringify(calc.body)).toBe(200);
    const calculated = byName(await salaryRows(call, company.id, month));
    expect(calculated['甲'].gross).toBe(8764.66);
    expect((await call('POST', '/api/accountsSalary/confirm', { companyId: company.id, month, acknowledgeWarnings: true })).status).toBe(200);
    expect((await generate(company.id, month)).status).toBe(409);
  });

  it('a hand-added row for a worker on the roster stands instead of a generated one', async () => {
    const month = '2025-11';
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: '戊' })]);
    const added = await call('POST', '/api/accountsSalary', { ...vectorStaff(8800, { staffName: '戊' }), idCard: staff[0].idCard, companyId: company.id, month });
    expect(added.status).toBe(201);
    const gen = await generate(company.id, month);
    expect(gen.body).toMatchObject({ total: 1, regenerated: true, added: 0, keptManualRows: 1 });
    const rows = await salaryRows(call, company.id, month);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ origin: 'manual', salary: 8800 });
  });
});
