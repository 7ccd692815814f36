import { describe, expect, it } from 'vitest';
import { SALARY_TABLE, salaryColumn } from '../src/modules/payroll/salaryStore.ts';
import type { TestApp } from './helpers.ts';
import { type Api, companyWithStaff, salaryRows, vectorStaff, withAdminApp } from './payroll-fixtures.ts';

// Issue 20 item 5: one person's bad data never stops the other rows. 计算 calculates every row it can, leaves
// the others uncalculated and lists them in its report (and GET /report) with the field and the reason in the
// caller's language; 确认 stays refused until they are fixed and calculated.

let t: TestApp;
let call: Api;
let token: string;
withAdminApp((s) => {
  ({ t, call, token } = s);
});

type Json = Record<string, any>;

const inLanguage = async (language: string, method: 'GET' | 'POST', url: string, payload?: unknown) => {
  const res = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}`, 'accept-language': language }, ...(payload === undefined ? {} : { payload: payload as never }) });
  return { status: res.statusCode, body: res.json() as Json };
};

describe('a row that cannot be calculated does not stop the month (issue 20 item 5)', () => {
  it('calculates the good row to the fen, leaves the one without a base uncalculated and reported, refuses 确认 until fixed', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: '正常', inductionDate: '2025-06-01' }), vectorStaff(8000, { staffName: '缺基数', inductionDate: '2025-06-01' })]);
    const companyId = Number(company.id);
    await t.app.ctx.db.updateTable('accounts_staff').set({ yanglao_base: null }).where('id', '=', staff[1].id).execute();
    const month = '2026-01';
    expect((await call('POST', '/api/accountsSalary/generator', { companyId, month })).status).toBe(200);

    const calculated = await call('POST', '/api/accountsSalary/calculate', { companyId, month });
    expect(calculated.status).toBe(200);
    expect(calculated.body).toMatchObject({ count: 1, notCalculated: 1 });
    expect(calculated.body.message).toContain('1条数据有误未计算');
    const report = calculated.body.report as Json[];
    expect(report.map((i) => [i.kind, i.staffName, i.idCard, i.field, i.code])).toEqual([['rowNotCalculated', '缺基数', staff[1].idCard, 'yanglaoBase', 'PAYROLL_ROW_FIELD_NOT_CALCULATED']]);
    expect(report[0].reason).toBe('本行未计算：养老保险基数缺失或无效（缺少养老保险基数（yanglaoBase））；请修改后重新计算');

    // the good row, to the fen: 8000 yuan; 养老 8%, 医疗 2% + 3 yuan, 失业 0.5%, 公积金 12%; January's tax 3%
    const [good, bad] = await salaryRows(call, companyId, month);
    expect(good).toMatchObject({ staffName: '正常', calculated: true, gross: 8000, yanglao: 640, yiliao: 163, shiye: 40, gongjijin: 960, fiveOne: 1803, tax: 35.91, realSalary: 6161.09 });
    expect(bad).toMatchObject({ staffName: '缺基数', calculated: false, gross: null, tax: null, realSalary: null });

    // the lasting report says the same, in the caller's language (the field's label translated)
    const en = await inLanguage('en', 'GET', `/api/accountsSalary/report?companyId=${companyId}&month=${month}`);
    expect(en.status).toBe(200);
    expect(en.body.items.map((i: Json) => [i.kind, i.idCard, i.field])).toEqual([['rowNotCalculated', staff[1].idCard, 'yanglaoBase']]);
    expect(en.body.items[0].reason).toMatch(/^This row was not calculated: .+ is missing or invalid \(/);
    expect(en.body.items[0].reason).not.toContain('养老保险基数缺失');

    // 确认 refuses while a row is uncalculated, acknowledged or not
    const refused = await call('POST', '/api/accountsSalary/confirm', { companyId, month, acknowledgeWarnings: true });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('缺基数');

    // fixed and calculated again: both rows calculated, the report empty, 确认 goes through
    // (the base corrected on the row as the staff record's fix plus 重新生成 would; the regenerate path has its own tests)
    await t.app.ctx.db.updateTable(SALARY_TABLE).set({ [salaryColumn('yanglaoBase')]: 800000 } as never).where(salaryColumn('id') as never, '=', bad.id).execute();
    const again = await call('POST', '/api/accountsSalary/calculate', { companyId, month });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ count: 2, notCalculated: 0, report: [] });
    const rows = await salaryRows(call, companyId, month);
    expect(rows[1]).toMatchObject({ calculated: true, gross: 8000, realSalary: 6161.09 });
    expect(rows[0]).toMatchObject({ calculated: true, realSalary: 6161.09 });
    expect((await call('POST', '/api/accountsSalary/confirm', { companyId, month })).status).toBe(200);
  });

  it('an unknown company or month is still a 400 (request-level problems)', async () => {
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId: 99999999, month: '2026-01' })).status).toBeGreaterThanOrEqual(400);
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId: 1, month: '2026-13' })).status).toBe(400);
  });
});
