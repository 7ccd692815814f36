import { describe, expect, it } from 'vitest';
import type { TestApp } from './helpers.ts';
import { scopedUser, uniq } from './dispatch-fixtures.ts';
import { type Api, api, companyWithStaff, runMonth, salaryRows, vectorStaff, withAdminApp } from './payroll-fixtures.ts';

// Issue 10 item 8: corrections after confirm. 反确认 needs its own right and a reason, withdraws the month's
// generated payslips, leaves an audit row with the confirmed figures; confirming again completes the row with the
// new figures. A month that a later confirmed month builds on cannot be reopened. Confirmed figures never change
// without such a row.

let t: TestApp;
let call: Api;
let token: string;

withAdminApp((s) => {
  ({ t, call, token } = s);
});

const unconfirm = (companyId: number, month: string, reason?: string, as: Api = call) => as('POST', '/api/accountsSalary/unconfirm', { companyId, month, ...(reason === undefined ? {} : { reason }) });

describe('反确认 (un-confirm) with a reason and an audit trail', () => {
  it('reopens a confirmed month, withdraws its payslips, and re-confirming records the new figures', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: '甲', inductionDate: '2026-01-05' })]);
    const month = '2026-03';
    const [confirmed] = await runMonth(call, company.id, month);
    expect(confirmed).toMatchObject({ tag: 1, gross: 8000 });
    expect((await call('POST', '/api/acPayslip/generate', { companyId: company.id, month })).status).toBe(200);

    // no reason: refused, nothing changes
    const noReason = await unconfirm(company.id, month, '  ');
    expect(noReason).toMatchObject({ status: 400, body: { message: '请填写反确认原因' } });
    expect((await salaryRows(call, company.id, month))[0].tag).toBe(1);

    const done = await unconfirm(company.id, month, '加班费漏报300元');
    expect(done).toMatchObject({ status: 200, body: { rows: 1, payslipsWithdrawn: 1, message: '反确认成功，共1条，已撤回1张工资条，重新确认后请重新生成' } });
    let rows = await salaryRows(call, company.id, month);
    expect(rows[0]).toMatchObject({ tag: 0 });
    const slips = await call('GET', `/api/acPayslip?month=${month}&idCard=${rows[0].idCard}`);
    expect(slips.body.content).toEqual([]);
    expect((await call('GET', `/api/accountsConfirmLog?companyId=${company.id}&month=${month}`)).body.totalElements).toBe(0);
    // twice: nothing to reopen
    expect((await unconfirm(company.id, month, '再来一次')).status).toBe(409);

    // the correction: 300 overtime, recalculated and confirmed again
    expect((await call('PUT', '/api/accountsSalary', { id: rows[0].id, jiaban: 300, koukuan: 0 })).status).toBe(204);
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month })).status).toBe(200);
    expect((await call('POST', '/api/accountsSalary/confirm', { companyId: company.id, month, acknowledgeWarnings: true })).status).toBe(200);
    rows = await salaryRows(call, company.id, month);
    expect(rows[0]).toMatchObject({ tag: 1, gross: 8300 });

    const trail = await call('GET', `/api/accountsSalary/corrections?companyId=${company.id}&month=${month}`);
    expect(trail.status).toBe(200);
    expect(trail.body).toHaveLength(1);
    expect(trail.body[0]).toMatchObject({ reason: '加班费漏报300元', username: 'admin', rowCount: 1, payslipsWithdrawn: 1, reconfirmedBy: 'admin' });
    expect(trail.body[0].before[0]).toMatchObject({ staffName: '甲', gross: 8000, jiaban: 0, tax: confirmed.tax, realSalary: confirmed.realSalary });
    expect(trail.body[0].after[0]).toMatchObject({ staffName: '甲', gross: 8300, jiaban: 300, tax: rows[0].tax, realSalary: rows[0].realSalary });
  });

  it('a month that a later confirmed month builds on is reopened only after that later month', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(8000, { inductionDate: '2026-01-05' })]);
    await runMonth(call, company.id, '2026-01');
    await runMonth(call, company.id, '2026-02');
    const refused = await unconfirm(company.id, '2026-01', '基数有误');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`以下更晚月份的工资已确认，其个税累计依赖本月，请先反确认：${company.companyName}2026-02`);
    expect((await unconfirm(company.id, '2026-02', '基数有误')).status).toBe(200);
    expect((await unconfirm(company.id, '2026-01', '基数有误')).status).toBe(200);
  });

  it('needs the 反确认 right: confirming alone is not enough', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(8000, { inductionDate: '2026-01-05' })]);
    await runMonth(call, company.id, '2026-04');
    const clerk = api(t.app, (await scopedUser(t.app, { username: uniq('clerk'), codes: ['ACCOUNTSSALARY_SELECT', 'ACCOUNTSSALARY_EDIT'], dataScope: '全部' })).token);
    expect((await unconfirm(company.id, '2026-04', '试试', clerk)).status).toBe(403);
    const lead = api(t.app, (await scopedUser(t.app, { username: uniq('lead'), codes: ['ACCOUNTSSALARY_SELECT', 'ACCOUNTSSALARY_UNCONFIRM'], dataScope: '全部' })).token);
    expect((await unconfirm(company.id, '2026-04', '主管批准', lead)).status).toBe(200);
  });
});
