import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import type { TestApp } from './helpers.ts';
import { createCompany, createStaff } from './dispatch-fixtures.ts';
import { type Api, api, companyWithStaff, runMonth, salaryRows, vectorStaff, withAdminApp } from './payroll-fixtures.ts';

// The monthly salary flow over HTTP on a real database (TEST_DB picks SQLite, PostgreSQL or MariaDB):
// generate -> edit -> calculate -> confirm -> locked, the cumulative ledger (payroll-rules.md V3, V6),
// concurrent confirmation, bad input without partial writes, and the salary report.

let t: TestApp;
let call: Api;
let token: string;

withAdminApp((s) => {
  ({ t, call, token } = s);
});

const pick = (r: Record<string, any>) => ({ tax: r.tax, realSalary: r.realSalary, fiveOne: r.fiveOne, gross: r.gross, monthIndex: r.monthIndex, tag: r.tag });

describe('salary flow', () => {
  it('generates from active staff and their overtime, edits, calculates, confirms and then locks everything', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: '甲', inductionDate: '2026-04-01' }), vectorStaff(8000, { staffName: '乙', inductionDate: '2026-04-01' })]);
    await createStaff(t.app, token, company.id, vectorStaff(8000, { staffName: '已离职', jobState: '离职' }));
    const month = '2026-04';
    // two overtime rows of 甲 add up; 乙 has a deduction
    for (const extra of [
      { staffIdCard: staff[0].idCard, jiaban: 300, koukuan: 0 },
      { staffIdCard: staff[0].idCard, jiaban: 200, koukuan: 100 },
      { staffIdCard: staff[1].idCard, jiaban: 0, koukuan: 50 },
      { staffIdCard: staff[1].idCard, jiaban: 999, koukuan: 0, month: '2026-03' },
    ]) {
      const r = await call('POST', '/api/accountsStaffExtra', { staffCompanyId: company.id, month, ...extra });
      expect(r.status).toBe(201);
    }
    const gen = await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month });
    expect(gen).toMatchObject({ status: 200, body: { message: '生成成功，共2条' } });
    let rows = await salaryRows(call, company.id, month);
    expect(rows.map((r) => [r.staffName, r.jiaban, r.koukuan, r.tax, r.calculated, r.dispatchCompany])).toEqual([
      ['甲', 500, 100, null, false, '北京华派人力资源有限公司'],
      ['乙', 0, 50, null, false, '北京华派人力资源有限公司'],
    ]);
    // regenerating replaces the rows (nothing stale, no duplicates)
    expect((await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month })).status).toBe(200);
    rows = await salaryRows(call, company.id, month);
    expect(rows).toHaveLength(2);

    // inline edit recalculates the row at once: V1-style figures with deduct 0
    const edit = await call('PUT', '/api/accountsSalary', { id: rows[0].id, jiaban: 500, koukuan: 100 });
    expect(edit.status).toBe(204);
    rows = await salaryRows(call, company.id, month);
    expect(pick(rows[0])).toEqual({ tax: 47.91, realSalary: 6549.09, fiveOne: 1803, gross: 8400, monthIndex: 1, tag: 0 });
    // confirm refuses while a row is not calculated
    const early = await call('POST', '/api/accountsSalary/confirm', { companyId: company.id, month });
    expect(early.status).toBe(409);
    expect(early.body.message).toContain('尚未计算');

    const calc = await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month });
    expect(calc).toMatchObject({ status: 200, body: { message: '计算成功，共2条' } });
    // idempotent: calculating again gives the same figures
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month })).status).toBe(200);
    rows = await salaryRows(call, company.id, month);
    // 乙: gross 7950, cumT = 7950 - 5000 - 1803 = 1147 -> 34.41
    expect(pick(rows[1])).toEqual({ tax: 34.41, realSalary: 6112.59, fiveOne: 1803, gross: 7950, monthIndex: 1, tag: 0 });

    const confirm = await call('POST', '/api/accountsSalary/confirm', { companyId: company.id, month, companyName: company.companyName });
    expect(confirm).toMatchObject({ status: 200, body: { message: '确认成功，共2条' } });
    const log = await call('GET', `/api/accountsConfirmLog?companyId=${company.id}&month=${month}`);
    expect(log.body.totalElements).toBe(1);
    expect(log.body.content[0]).toMatchObject({ companyId: company.id, month, username: 'admin', cname: '系统管理员', rowCount: 2 });

    const before = await salaryRows(call, company.id, month);
    expect(before.every((r) => r.tag === 1)).toBe(true);
    const refused = [
      await call('PUT', '/api/accountsSalary', { id: before[0].id, jiaban: 1, koukuan: 0 }),
      await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month }),
      await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month }),
      await call('DELETE', `/api/accountsSalary/${before[0].id}`),
      await call('DELETE', '/api/accountsSalary', [before[1].id]),
      await call('POST', '/api/accountsSalary', { companyId: company.id, month, staffName: '补录', idCard: before[0].idCard, salary: 1 }),
    ];
    expect(refused.map((r) => r.status)).toEqual([409, 409, 409, 409, 409, 409]);
    expect(refused[0].body.message).toBe('本月工资已确认，不能修改');
    const again = await call('POST', '/api/accountsSalary/confirm', { companyId: company.id, month });
    expect(again).toMatchObject({ status: 409, body: { message: '本月工资已确认' } });
    expect(await salaryRows(call, company.id, month)).toEqual(before);
  });

  it('V3: three confirmed months through the API (47.91, 137.91, 47.91)', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(8000)]);
    const results = [];
    for (const [month, jiaban] of [
      ['2026-01', 500],
      ['2026-02', 3500],
      ['2026-03', 500],
    ] as const) {
      const rows = await runMonth(call, company.id, month, (r) => [{ id: r[0].id, jiaban, koukuan: 100 }]);
      results.push(pick(rows[0]));
    }
    expect(results).toEqual([
      { tax: 47.91, realSalary: 6549.09, fiveOne: 1803, gross: 8400, monthIndex: 1, tag: 1 },
      { tax: 137.91, realSalary: 9459.09, fiveOne: 1803, gross: 11400, monthIndex: 2, tag: 1 },
      { tax: 47.91, realSalary: 6549.09, fiveOne: 1803, gross: 8400, monthIndex: 3, tag: 1 },
    ]);
    const rows = await salaryRows(call, company.id, '2026-03');
    expect(rows[0]).toMatchObject({ cumulativeIncome: 28200, cumulativeTaxable: 7791, cumulativeTax: 233.73, taxableThisMonth: 1597 });
  });

  it('V6: July and August 2025 with the base clamped to the 35811 ceiling', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(40000, { inductionDate: '2025-07-01' })]);
    const jul = await runMonth(call, company.id, '2025-07');
    expect(jul[0]).toMatchObject({ yanglao: 2864.88, yiliao: 719.22, shiye: 179.06, gongjijin: 4297, fiveOne: 8060.16, tax: 808.2, realSalary: 31131.64, monthIndex: 1 });
    const aug = await runMonth(call, company.id, '2025-08');
    expect(aug[0]).toMatchObject({ tax: 2059.77, realSalary: 29880.07, monthIndex: 2 });
  });

  it('keeps the ledger per dispatch entity across client companies, and refuses out-of-order months', async () => {
    // hired by 北京华派 in May (month index 1 in May), by 北京众信 in June
    const person = vectorStaff(8000, { inductionDate: '2026-05-01' });
    const a = await companyWithStaff(t.app, token, [person]);
    const b = await companyWithStaff(t.app, token, [person]); // same entity (北京华派), same ID card
    const c = await companyWithStaff(t.app, token, [{ ...person, inductionDate: '2026-06-01' }], { dispatchCompany: '北京众信劳务派遣有限公司' });
    await runMonth(call, a.company.id, '2026-05', (r) => [{ id: r[0].id, jiaban: 500, koukuan: 100 }]);
    // June paid through client B of the same entity: month index 2, V3 month 2
    const juneB = await runMonth(call, b.company.id, '2026-06', (r) => [{ id: r[0].id, jiaban: 3500, koukuan: 100 }]);
    expect(pick(juneB[0])).toMatchObject({ tax: 137.91, monthIndex: 2 });
    // another entity starts its own ledger
    const juneC = await runMonth(call, c.company.id, '2026-06', (r) => [{ id: r[0].id, jiaban: 500, koukuan: 100 }]);
    expect(pick(juneC[0])).toMatchObject({ tax: 47.91, monthIndex: 1 });
    // August at A while July at B is generated but not confirmed: the row is left uncalculated and reported
    expect((await call('POST', '/api/accountsSalary/generator', { companyId: b.company.id, month: '2026-07' })).status).toBe(200);
    expect((await call('POST', '/api/accountsSalary/generator', { companyId: a.company.id, month: '2026-08' })).status).toBe(200);
    const r = await call('POST', '/api/accountsSalary/calculate', { companyId: a.company.id, month: '2026-08' });
    expect(r.status).toBe(200);
    expect(r.body.notCalculated).toBe(1);
    expect(r.body.report[0].reason).toContain('2026-07的工资尚未确认');
    expect((await salaryRows(call, a.company.id, '2026-08'))[0].tax).toBeNull();
  });

  it('two client companies in the same month: tax on the sum, split, confirm re-checks the share', async () => {
    const person = vectorStaff(8000, { inductionDate: '2026-09-01' });
    const a = await companyWithStaff(t.app, token, [person]);
    const b = await companyWithStaff(t.app, token, [{ ...person, salary: 4000 }]);
    const month = '2026-09';
    for (const co of [a, b]) {
      expect((await call('POST', '/api/accountsSalary/generator', { companyId: co.company.id, month })).status).toBe(200);
    }
    for (const co of [a, b]) expect((await call('POST', '/api/accountsSalary/calculate', { companyId: co.company.id, month })).status).toBe(200);
    const ra = (await salaryRows(call, a.company.id, month))[0];
    const rb = (await salaryRows(call, b.company.id, month))[0];
    // one basic deduction: cumT = 12000 - 5000 - 3606 = 3394 -> 101.82, split 6197 : 2197
    expect(ra.cumulativeTax).toBe(101.82);
    expect(Math.round(ra.tax * 100) + Math.round(rb.tax * 100)).toBe(10182);
    expect(rb.tax).toBe(26.64);
    // B's overtime changes after A was calculated: A's share is stale and A cannot be confirmed until recalculated
    expect((await call('PUT', '/api/accountsSalary', { id: rb.id, jiaban: 2000, koukuan: 0 })).status).toBe(204);
    const stale = await call('POST', '/api/accountsSalary/confirm', { companyId: a.company.id, month });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain('请重新计算');
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId: a.company.id, month })).status).toBe(200);
    expect((await call('POST', '/api/accountsSalary/confirm', { companyId: a.company.id, month })).status).toBe(200);
    expect((await call('POST', '/api/accountsSalary/confirm', { companyId: b.company.id, month })).status).toBe(200);
    const fa = (await salaryRows(call, a.company.id, month))[0];
    const fb = (await salaryRows(call, b.company.id, month))[0];
    // cumT = 14000 - 5000 - 3606 = 5394 -> 161.82 in total
    expect(Math.round(fa.tax * 100) + Math.round(fb.tax * 100)).toBe(16182);
  });

  it('five confirms at once: exactly one succeeds and one log is written', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(8000), vectorStaff(9000)]);
    const month = '2026-10';
    expect((await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month })).status).toBe(200);
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month })).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 5 }, () => call('POST', '/api/accountsSalary/confirm', { companyId: company.id, month, acknowledgeWarnings: true })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.message).toBe('本月工资已确认');
    const logs = await t.app.ctx.db.selectFrom('accounts_confirm_log').selectAll().where('company_id', '=', company.id).execute();
    expect(logs).toHaveLength(1);
  });
});

describe('bad input', () => {
  it('future month, unknown company, no active staff, missing company or month', async () => {
    const c = await createCompany(t.app, token);
    const future = await call('POST', '/api/accountsSalary/generator', { companyId: c.id, month: '2099-01' });
    expect(future.status).toBe(400);
    expect(future.body.message).toContain('未来月份');
    const empty = await call('POST', '/api/accountsSalary/generator', { companyId: c.id, month: '2026-01' });
    expect(empty).toMatchObject({ status: 400, body: { message: '该单位本月没有应发工资的员工（按入职、离职日期），无法生成工资' } });
    expect((await call('POST', '/api/accountsSalary/generator', { companyId: 999999, month: '2026-01' })).status).toBe(404);
    expect((await call('POST', '/api/accountsSalary/calculate', { month: '2026-01' })).body.message).toBe('请选择一个单位');
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId: c.id, month: '2026-1' })).status).toBe(400);
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId: c.id, month: '2026-01' })).body.message).toBe('本月没有工资数据，请先生成工资');
    expect((await call('POST', '/api/accountsSalary/confirm', { companyId: c.id, month: '2026-01' })).status).toBe(400);
  });

  it('no rate version in force for the month is an error, never a silent default', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(8000)]);
    // the seed ships Beijing 2024-07 and 2025-07; nothing is in force before 2024-07
    expect((await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month: '2024-06' })).status).toBe(200);
    const r = await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month: '2024-06' });
    // issue 20 item 5: the row without rates is left uncalculated and reported (with the reason), not defaulted
    expect(r.status).toBe(200);
    expect(r.body.notCalculated).toBe(1);
    expect(r.body.report[0].reason).toContain('费率字典 bencheng 没有在 2024-06 或之前生效的版本');
    expect((await salaryRows(call, company.id, '2024-06'))[0]).toMatchObject({ calculated: false, tax: null });
  });

  it('a row added by hand must be calculated before the month can be confirmed', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000)]);
    const month = '2026-06';
    expect((await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month })).status).toBe(200);
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month })).status).toBe(200);
    const extra = vectorStaff(5000, { staffName: '补录' });
    const { idCard: _id, ...rest } = extra;
    const created = await call('POST', '/api/accountsSalary', { ...rest, companyId: company.id, month, idCard: extra.idCard, censusType: 'bencheng', yanglaoRatioSelf: 0.08, yiliaoRatioSelf: 0.02, shiyeRatioSelf: 0.005, gjjRatio: 0.12 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ companyName: company.companyName, dispatchCompany: '北京华派人力资源有限公司', calculated: false, tax: null });
    const refused = await call('POST', '/api/accountsSalary/confirm', { companyId: company.id, month });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('补录');
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month })).status).toBe(200);
    // January to May employed without pay records here: the open items are acknowledged as the dialog's tick does
    expect((await call('POST', '/api/accountsSalary/confirm', { companyId: company.id, month, acknowledgeWarnings: true })).status).toBe(200);
    expect((await salaryRows(call, company.id, month)).map((r) => r.staffName)).toEqual([staff[0].staffName, '补录']);
  });

  it('rows missing a base or ratio are left uncalculated and reported; the others are calculated (issue 20 item 5)', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: '正常' }), vectorStaff(8000, { staffName: '缺基数' }), vectorStaff(8000, { staffName: '缺比例' })]);
    await t.app.ctx.db.updateTable('accounts_staff').set({ yanglao_base: null }).where('id', '=', staff[1].id).execute();
    // a worker's own ratio is used only when the record says so (使用个人比例); otherwise the dictionary's applies
    await t.app.ctx.db.updateTable('accounts_staff').set({ gjj_ratio: null, ratio_override: 1 }).where('id', '=', staff[2].id).execute();
    const month = '2026-02';
    expect((await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month })).status).toBe(200);
    const r = await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ count: 1, notCalculated: 2 });
    const notCalculated = (r.body.report as { kind: string; staffName: string; reason: string }[]).filter((i) => i.kind === 'rowNotCalculated');
    const reasons = Object.fromEntries(notCalculated.map((i) => [i.staffName, i.reason]));
    expect(reasons.缺基数).toContain('缺少养老保险基数（yanglaoBase）');
    expect(reasons.缺比例).toContain('缺少公积金比例（gjjRatio）');
    expect(reasons.正常).toBeUndefined();
    expect((await salaryRows(call, company.id, month)).map((row) => [row.staffName, row.calculated])).toEqual([
      ['正常', true],
      ['缺基数', false],
      ['缺比例', false],
    ]);
  });

  it('inline edit: negative, absurd, non-numeric amounts and koukuan above gross are refused without writing', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(8000)]);
    const month = '2026-03';
    expect((await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month })).status).toBe(200);
    const [row] = await salaryRows(call, company.id, month);
    const bad = [
      { id: row.id, jiaban: -1 },
      { id: row.id, koukuan: 2_000_000 },
      { id: row.id, jiaban: 'abc' },
      { id: row.id, jiaban: 1.234 },
      { id: row.id, koukuan: 9000 },
      { id: row.id, salary: 1, jiaban: 1 },
      { id: row.id },
    ];
    for (const body of bad) {
      const r = await call('PUT', '/api/accountsSalary', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    const r = await call('PUT', '/api/accountsSalary', { id: row.id, koukuan: 9000 });
    expect(r.body.message).toContain('扣款不能超过基本工资与加班费之和');
    expect((await salaryRows(call, company.id, month))[0]).toEqual(row);
  });
});

describe('salary report', () => {
  it('exports an xlsx with a totals row; needs the user Chinese name and rows', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(8000, { inductionDate: '2026-05-01' }), vectorStaff(40000, { inductionDate: '2026-05-01' })]);
    const month = '2026-05';
    await runMonth(call, company.id, month, (r) => [{ id: r[0].id, jiaban: 500, koukuan: 100 }]);
    const res = await call('POST', '/api/export/accountsSalary', { companyId: company.id, month, cname: '系统管理员' });
    expect(res.status).toBe(200);
    expect(res.raw.headers['content-type']).toContain('spreadsheetml');
    // U16: company and month in the file name
    expect(decodeURIComponent(String(res.raw.headers['content-disposition']))).toContain(`工资报表_${company.companyName}_${month}.xlsx`);
    const wb = XLSX.read(res.raw.rawPayload, { type: 'buffer' });
    const sheet = wb.Sheets[wb.SheetNames[0]];
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true });
    const header = rows[0] as string[];
    const totals = rows.find((r) => r[0] === '合计') as unknown[];
    const col = (h: string) => header.indexOf(h);
    expect(totals[col('姓名')]).toBe('共2人');
    // the 合计 values are the cached results of SUM formulas: a viewer that does not recalculate still shows them
    expect(totals[col('应发工资')]).toBe(48400);
    expect(totals[col('五险一金(个人)')]).toBe(9863.16);
    expect(totals[col('个人所得税')]).toBe(856.11);
    expect(totals[col('实发工资')]).toBe(37680.73);
    const letter = (h: string) => XLSX.utils.encode_col(col(h));
    expect(sheet[`${letter('应发工资')}4`]).toMatchObject({ f: `SUM(${letter('应发工资')}2:${letter('应发工资')}3)`, v: 48400 });
    // U16: the employer's side, 用工成本 and 服务费 (按人头 100.00 of the fixture company) are columns, summed too
    for (const h of ['养老保险(单位)', '公积金(单位)', '单位缴纳合计', '用工成本合计', '服务费']) expect(col(h), h).toBeGreaterThan(0);
    const staffLines = rows.slice(1, 3);
    for (const line of staffLines) {
      expect(line[col('用工成本合计')]).toBeCloseTo((line[col('应发工资')] as number) + (line[col('单位缴纳合计')] as number), 2);
      expect(line[col('服务费')]).toBe(100);
    }
    expect(totals[col('服务费')]).toBe(200);
    expect(sheet[`${letter('服务费')}4`].f).toBe(`SUM(${letter('服务费')}2:${letter('服务费')}3)`);
    const cents = (h: string) => staffLines.reduce((a, l) => a + Math.round((l[col(h)] as number) * 100), 0) / 100;
    expect(totals[col('用工成本合计')]).toBe(cents('用工成本合计'));
    expect(totals[col('单位缴纳合计')]).toBeGreaterThan(0);
    expect(rows.at(-2)?.[0]).toBe('服务费：按人头 100.00元/人 × 2人');
    expect(rows.at(-1)?.[0]).toContain('制表人：系统管理员');

    // 按比例: 服务费 is a percentage of each line's 用工成本, half-up to the fen; 固定金额: one amount on the 合计 line
    const percent = await companyWithStaff(t.app, token, [vectorStaff(8000, { inductionDate: '2026-05-01' })], { feeType: '按比例', fee: 5.5 });
    await runMonth(call, percent.company.id, month);
    const pRows = XLSX.utils.sheet_to_json<unknown[]>(XLSX.read((await call('POST', '/api/export/accountsSalary', { companyId: percent.company.id, month, cname: '系统管理员' })).raw.rawPayload, { type: 'buffer' }).Sheets[`${percent.company.companyName}${month}`.slice(0, 31)], { header: 1, raw: true });
    const cost = pRows[1][col('用工成本合计')] as number;
    expect(pRows[1][col('服务费')]).toBe(Math.round(cost * 100 * 0.055) / 100);
    expect(pRows.at(-2)?.[0]).toBe('服务费：按比例 5.50% × 各人用工成本合计');
    const lump = await companyWithStaff(t.app, token, [vectorStaff(8000, { inductionDate: '2026-05-01' })], { feeType: '固定金额', fee: 2000 });
    await runMonth(call, lump.company.id, month);
    const lRes = await call('POST', '/api/export/accountsSalary', { companyId: lump.company.id, month, cname: '系统管理员' });
    const lWb = XLSX.read(lRes.raw.rawPayload, { type: 'buffer' });
    const lRows = XLSX.utils.sheet_to_json<unknown[]>(lWb.Sheets[lWb.SheetNames[0]], { header: 1, raw: true, defval: null });
    expect(lRows[1][col('服务费')]).toBeNull();
    expect(lRows[2][col('服务费')]).toBe(2000);

    const noName = await call('POST', '/api/export/accountsSalary', { companyId: company.id, month, cname: '' });
    expect(noName).toMatchObject({ status: 400, body: { message: '用户中文名称不能为空' } });
    const none = await call('POST', '/api/export/accountsSalary', { companyId: company.id, month: '2026-01', cname: '系统管理员' });
    expect(none.status).toBe(400);
    expect(none.body.message).toContain('没有工资数据');
  });
});

describe('data scope', () => {
  it('works for custom-scope users (no query outside the transaction) and hides other departments', async () => {
    const { createRole, createUser, tokenFor } = await import('./system-fixtures.ts');
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(8000)]);
    const month = '2026-07';
    expect((await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month })).status).toBe(200);
    const [row] = await salaryRows(call, company.id, month);
    const codes = ['ACCOUNTSSALARY_ALL'];
    const inScope = await createRole(t, { name: 'payroll-custom-in', dataScope: '自定义', codes, depts: [1] });
    const outScope = await createRole(t, { name: 'payroll-custom-out', dataScope: '自定义', codes, depts: [3] });
    const u1 = api(t.app, await tokenFor(t, await createUser(t, { username: 'payroll_in', roleIds: [inScope], deptId: 3 })));
    const u2 = api(t.app, await tokenFor(t, await createUser(t, { username: 'payroll_out', roleIds: [outScope], deptId: 3 })));
    expect((await u1('PUT', '/api/accountsSalary', { id: row.id, jiaban: 10 })).status).toBe(204);
    expect((await u1('POST', '/api/accountsSalary/calculate', { companyId: company.id, month })).status).toBe(200);
    expect((await u2('GET', `/api/accountsSalary?companyId=${company.id}&month=${month}`)).body.totalElements).toBe(0);
    expect((await u2('PUT', '/api/accountsSalary', { id: row.id, jiaban: 20 })).status).toBe(404);
    expect((await u2('POST', '/api/accountsSalary/calculate', { companyId: company.id, month })).status).toBe(404);
    expect((await u2('DELETE', `/api/accountsSalary/${row.id}`)).status).toBe(404);
    expect((await salaryRows(call, company.id, month))[0].jiaban).toBe(10);
  });
});
