import { staffExtraResource } from '@app/shared/resources/staffExtra';
import { taxDeductionResource } from '@app/shared/resources/taxDeduction';
import { taxOpeningResource } from '@app/shared/resources/taxOpening';
import { describe, expect, it } from 'vitest';
import { dynamicDb, nowIso } from '../src/core/db.ts';
import { fieldColumn } from '../src/modules/payroll/salaryStore.ts';
import { idCard } from './dispatch-fixtures.ts';
import type { TestApp } from './helpers.ts';
import { type Api, companyWithStaff, runMonth, vectorStaff, withAdminApp } from './payroll-fixtures.ts';
import { createStaff } from './dispatch-fixtures.ts';

// Findings U1, U2, U7, U15: 计算 lists every input it could not use and every person with months employed but
// no salary recorded; GET /report keeps that list as long as it is open; 确认 refuses over it without the
// clerk's acknowledgement. The planted inputs are rows saved before the entry screens checked the withholding
// agent (or imported by hand into the database): written straight into the tables.

let t: TestApp;
let call: Api;
let token: string;
withAdminApp((s) => {
  ({ t, call, token } = s);
});

type Json = Record<string, any>;

/** Inserts a row of `resource` with API field names (money in fen, as stored). */
async function plant(resource: { table: string; fields: readonly { name: string; column?: string }[] }, values: Record<string, unknown>): Promise<void> {
  const now = nowIso();
  const row: Record<string, unknown> = { [fieldColumn(resource as never, 'createTime')]: now, [fieldColumn(resource as never, 'updateTime')]: now };
  for (const [k, v] of Object.entries(values)) row[fieldColumn(resource as never, k)] = v;
  await dynamicDb(t.app.ctx.db).insertInto(resource.table).values(row).execute();
}

const withLanguage = (language: string) => async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
  const res = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}`, 'accept-language': language }, ...(payload === undefined ? {} : { payload: payload as never }) });
  return { status: res.statusCode, body: res.json() as Json };
};

describe('the calculation report (U1, U2, U7)', () => {
  it('lists the unused inputs and the unrecorded months, keeps them on read, and makes 确认 ask for an acknowledgement', async () => {
    // 周秀英 works all year; January is confirmed, so February has no unrecorded month for her.
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(20000, { staffName: '周秀英', inductionDate: '2020-03-01' })]);
    const companyId = Number(company.id);
    const clientName = String(company.companyName);
    const agent = String(company.dispatchCompany);
    await runMonth(call, companyId, '2026-01');
    // 吴敏 joined on 1 January but is first paid in February: January is a month employed without a salary here.
    const wu = await createStaff(t.app, token, companyId, vectorStaff(20000, { staffName: '吴敏', inductionDate: '2026-01-01' }));
    const zhou = String(staff[0].idCard);
    const wuCard = String(wu.idCard);
    // U1: 周秀英's 子女教育 under the client's name; 吴敏's opening figures under the client's name.
    await plant(taxDeductionResource, { dispatchCompany: clientName, idCard: zhou, staffName: '周秀英', month: '2026-02', childEducation: 200000 });
    await plant(taxOpeningResource, {
      dispatchCompany: clientName,
      idCard: wuCard,
      staffName: '吴敏',
      taxYear: 2026,
      throughMonth: '2026-01',
      months: 1,
      cumulativeIncome: 800000,
      cumulativeTaxWithheld: 3000,
    });
    // U7: an overtime row of this company whose ID card has a typo (nobody's).
    const typo = idCard('1979-09-09', 977);
    await plant(staffExtraResource, { staffIdCard: typo, staffName: '周秀英', staffCompanyId: companyId, staffCompany: clientName, month: '2026-02', jiaban: 50000 });

    expect((await call('POST', '/api/accountsSalary/generator', { companyId, month: '2026-02' })).status).toBe(200);
    const calculated = await call('POST', '/api/accountsSalary/calculate', { companyId, month: '2026-02' });
    expect(calculated.status).toBe(200);
    const report = calculated.body.report as Json[];
    expect(report.map((i) => [i.kind, i.staffName, i.idCard, i.month, i.months, i.savedUnder, i.code])).toEqual([
      ['taxDeduction', '周秀英', zhou, '2026-02', null, clientName, 'PAYROLL_INPUT_AGENT_UNKNOWN'],
      ['taxOpening', '吴敏', wuCard, '2026-01', null, clientName, 'PAYROLL_INPUT_AGENT_UNKNOWN'],
      ['staffExtra', '周秀英', typo, '2026-02', null, clientName, 'PAYROLL_INPUT_STAFF_UNKNOWN'],
      ['unrecordedMonths', '吴敏', wuCard, '2026-02', 1, agent, 'PAYROLL_UNRECORDED_MONTHS'],
    ]);
    expect(report[0].reason).toBe(`保存在“${clientName}”名下，但“${clientName}”不是派遣单位（扣缴义务人），计算未使用；本单位的派遣单位是“${agent}”`);
    expect(report[2].reason).toBe(`员工档案中没有身份证号${typo}，计算未使用；请核对身份证号`);
    expect(report[3].reason).toContain('有1个任职月份未录入工资');

    // the same list on read (what the screen shows after a reload), in the caller's language
    const en = await withLanguage('en')('GET', `/api/accountsSalary/report?companyId=${companyId}&month=2026-02`);
    expect(en.status).toBe(200);
    expect(en.body.items.map((i: Json) => i.code)).toEqual(report.map((i) => i.code));
    expect(en.body.items[0].reason).toBe(`Saved under "${clientName}", but "${clientName}" is not a withholding agent, so the calculation did not use it; the withholding agent of this company is "${agent}"`);

    // 确认 without the acknowledgement: refused with the count; nothing locked
    const refused = await call('POST', '/api/accountsSalary/confirm', { companyId, month: '2026-02' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('PAYROLL_REPORT_UNACKNOWLEDGED');
    expect(refused.body.message).toBe('本月计算有4项提示尚未核对（未使用的扣除、期初或加班扣款数据，未录入工资的任职月份），请核对后勾选“我已核对”再确认');
    const ja = await withLanguage('ja')('POST', '/api/accountsSalary/confirm', { companyId, month: '2026-02', acknowledgeWarnings: 'yes' });
    expect(ja.status).toBe(409);
    expect(ja.body.message).toContain('4件');
    expect((await call('GET', `/api/accountsSalary/summary?companyId=${companyId}&month=2026-02`)).body.confirmed).toBe(false);

    // with it: confirmed, and the month has no open items any more
    const confirmed = await call('POST', '/api/accountsSalary/confirm', { companyId, month: '2026-02', acknowledgeWarnings: true });
    expect(confirmed.status).toBe(200);
    expect((await call('GET', `/api/accountsSalary/report?companyId=${companyId}&month=2026-02`)).body.items).toEqual([]);
  });

  it('an item goes away once its input is fixed, and a month without open items confirms without the flag', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(9000, { staffName: '赵娜', inductionDate: '2020-03-01' })]);
    const companyId = Number(company.id);
    const card = String(staff[0].idCard);
    await plant(taxDeductionResource, { dispatchCompany: String(company.companyName), idCard: card, staffName: '赵娜', month: '2026-01', childEducation: 200000 });
    expect((await call('POST', '/api/accountsSalary/generator', { companyId, month: '2026-01' })).status).toBe(200);
    const calculated = await call('POST', '/api/accountsSalary/calculate', { companyId, month: '2026-01' });
    expect(calculated.body.report.map((i: Json) => i.kind)).toEqual(['taxDeduction']);
    // before 计算 the month had nothing to show; nor does another month
    expect((await call('GET', `/api/accountsSalary/report?companyId=${companyId}&month=2025-12`)).body.items).toEqual([]);

    // the clerk moves the row under the withholding agent: the item is resolved on the next read
    await dynamicDb(t.app.ctx.db)
      .updateTable(taxDeductionResource.table)
      .set({ [fieldColumn(taxDeductionResource, 'dispatchCompany')]: String(company.dispatchCompany) })
      .where(fieldColumn(taxDeductionResource, 'idCard'), '=', card)
      .execute();
    expect((await call('GET', `/api/accountsSalary/report?companyId=${companyId}&month=2026-01`)).body.items).toEqual([]);
    // the deduction now applies, so the figures changed: 确认 asks for a new 计算 first, then confirms without a flag
    expect((await call('POST', '/api/accountsSalary/confirm', { companyId, month: '2026-01' })).body.code).toBe('SALARY_STALE');
    const again = await call('POST', '/api/accountsSalary/calculate', { companyId, month: '2026-01' });
    expect(again.body.report).toEqual([]);
    expect(again.body.message).toBe('计算成功，共1条');
    expect((await call('POST', '/api/accountsSalary/confirm', { companyId, month: '2026-01' })).status).toBe(200);
  });

  it('the report needs the salary view permission and a visible company', async () => {
    expect((await call('GET', '/api/accountsSalary/report?companyId=99999999&month=2026-01')).status).toBe(404);
    expect((await call('GET', '/api/accountsSalary/report?companyId=1&month=2026-13')).status).toBe(400);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/accountsSalary/report?companyId=1&month=2026-01' });
    expect(anonymous.statusCode).toBe(401);
  });
});
